// The computations of the "Online softmax and FlashAttention" chapter (no DOM):
// the scores, the online softmax over key blocks (running max m and sum ℓ after
// each block, from the API's onlineSoftmaxAttention), the full softmax attention
// it must equal, one query's output after each block, and the numbers each way
// holds. Tests: tests/js/site-flash-model.test.mjs (NumPy: tests/fixtures/flash.txt).
import { compareBits } from '../../float-bits.js';
import { tracedApi } from '../../explain/traced-api.js';
import { staged } from '../../stages.js';
import { drawQkv, inputQkv } from '../../lesson-kit/seeded-qkv.js';

export const D_K = 4; // query/key width
export const D_V = 4; // value width
export const MAX_LENGTH = 16; // tokens of the live example
export const MAX_MEMORY_LENGTH = 131072; // the longest sequence the memory count is asked about

/** The permalink state (url-state.js): every size bounded like the controls. */
export const SCHEMA = [
  { key: 'seed', type: 'int', default: 5, min: 0, max: 4294967295 },
  { key: 'n', name: 'length', type: 'int', default: 8, min: 2, max: MAX_LENGTH },
  { key: 'B', name: 'blockSize', type: 'int', default: 3, min: 1, max: MAX_LENGTH },
  { key: 'c', name: 'causal', type: 'bool', default: false },
  { key: 'q', name: 'query', type: 'int', default: 1, min: 1, max: MAX_LENGTH },
  { key: 'b', name: 'block', type: 'int', default: 2, min: 1, max: MAX_LENGTH },
  { key: 'N', name: 'memoryLength', type: 'int', default: 4096, min: 1, max: MAX_MEMORY_LENGTH },
];

export const blockCount = (keys, blockSize) => Math.ceil(keys / blockSize);

/** np.random.seed(seed); Q, K, V = randn(n, 4) three times. */
export const drawInputs = (api, seed, n) => drawQkv(api, seed, n, D_K, D_V);

const rowsOf = (api, m, r0, r1) => new api.Matrix(r1 - r0, m.cols, m.data.slice(r0 * m.cols, r1 * m.cols));

/**
 * Query `query` (from 0) read block by block: after block b (from 1) the online
 * softmax has seen keys 1 … min(b·B, n) (and with `causal` only up to the query's
 * own position), and its state normalised, O/ℓ, is attention over those keys. Each
 * row is the API's onlineSoftmaxAttention over that prefix of K and V.
 */
export function afterEachBlock(api, { Q, K, V }, query, blockSize, causal) {
  const q = rowsOf(api, Q, query, query + 1);
  const last = causal ? query + 1 : K.rows;
  return Array.from({ length: blockCount(K.rows, blockSize) }, (_, b) => {
    const seen = Math.min((b + 1) * blockSize, last);
    const r = api.onlineSoftmaxAttention(q, rowsOf(api, K, 0, seen), rowsOf(api, V, 0, seen), { blockSize });
    const blocks = r.max.cols;
    return { block: b + 1, seen, m: r.max.get(0, blocks - 1), l: r.sum.get(0, blocks - 1), output: r.output.row(0) };
  });
}

/**
 * Numbers held to compute attention for n queries over n keys: the usual way
 * writes the whole n × n weight matrix (and the output); the online way keeps, per
 * query, m, ℓ and the output row, and reads one block of B scores at a time.
 */
export const heldFull = (n, dv = D_V) => n * n + n * dv;
export const heldOnline = (n, blockSize, dv = D_V) => n * (dv + 2 + blockSize);

/**
 * Everything the chapter shows, stage by stage, through `trace`: Q, K, V (n × 4),
 * scores and scaled (n × n), the online softmax (max, sum: n × blocks; output),
 * the full attention (fullWeights, fullOutput), the two outputs compared bit by
 * bit, the chosen query's state after each block, and the numbers held.
 */
export function flashStages(api, { seed, length, blockSize, causal, query, memoryLength }, trace) {
  const t = tracedApi(api, trace);
  const run = staged();
  const { r, stage } = run;
  const labels = Array.from({ length }, (_, i) => `${i + 1}`);
  Object.assign(r, { labels, blockSize, causal, memoryLength, blocks: blockCount(length, blockSize) });
  stage('Q', () => {
    const inputs = drawInputs(api, seed, length);
    inputQkv(t, inputs, labels);
    return inputs;
  });
  if (!r.Q) return run;
  stage('scaled', () => {
    const names = { scores: { name: 'scores', symbol: 'S' }, out: { name: 'scaled', symbol: 'S̃' } };
    return { scaled: t.name(names).attentionScores(r.Q, r.K, { scaled: true }) };
  });
  stage('output', () => {
    const names = {
      max: { name: 'max', symbol: 'm' },
      sum: { name: 'sum', symbol: 'ℓ' },
      output: { name: 'output', symbol: 'O', rowLabels: labels },
      weights: { name: 'online.weights', symbol: 'A' },
      mask: { name: 'mask', symbol: 'M' },
    };
    const online = t.name(names).onlineSoftmaxAttention(r.Q, r.K, r.V, { blockSize, causal });
    return { max: online.max, sum: online.sum, output: online.output };
  });
  stage('fullOutput', () => {
    const names = {
      weights: { name: 'fullWeights', symbol: 'A' },
      output: { name: 'fullOutput', symbol: 'O', rowLabels: labels },
    };
    const full = t.name(names).scaledDotProductAttention(r.Q, r.K, r.V, { causal });
    return { fullWeights: full.weights, fullOutput: full.output };
  });
  if (r.output && r.fullOutput) r.same = compareBits(r.output.data, r.fullOutput.data);
  const row = Math.min(query, length) - 1;
  stage('walk', () => ({ walk: { query: row, rows: afterEachBlock(api, r, row, blockSize, causal) } }));
  return run;
}

/** Readable NumPy lines that reproduce the inputs. */
export const numpyLines = ({ seed, length }) =>
  [
    'import numpy as np',
    `np.random.seed(${seed})`,
    `Q, K, V = (np.random.randn(${length}, ${D_K}) for _ in range(3))`,
  ].join('\n');
