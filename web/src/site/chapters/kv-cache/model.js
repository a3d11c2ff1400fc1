// The computations of the "KV cache" chapter (no DOM): a prompt prefilled at
// once, then tokens decoded one at a time from a cache of keys and values that
// grows by one row per token; the same attention recomputed in full; query heads
// sharing K/V heads. Every number comes from the attention-lab API, through the
// traced API so the figures explain their cells (tests: site-kv-cache-model.test.mjs).
import { tracedApi } from '../../explain/traced-api.js';
import { columnsOf } from '../../explain/heads.js';
import { compareBits } from '../../float-bits.js';
import { staged } from '../../stages.js';

export const D_MODEL = 8; // width of a token vector
export const D_K = 4; // one head's query/key/value width (the single-head steps)
export const HEAD_DIM = 2; // width of each head in the grouped-query step
export const MAX_PROMPT = 8;
export const MAX_STEPS = 6;
export const MAX_CONTEXT = 131072; // the longest context the bytes table is asked about

/** The permalink state (url-state.js): every size bounded like the controls. */
export const SCHEMA = [
  { key: 'seed', type: 'int', default: 3, min: 0, max: 4294967295 },
  { key: 'n', name: 'prompt', type: 'int', default: 4, min: 1, max: MAX_PROMPT },
  { key: 's', name: 'steps', type: 'int', default: 3, min: 1, max: MAX_STEPS },
  { key: 'h', name: 'heads', type: 'enum', values: [1, 2, 4], default: 4 },
  { key: 'g', name: 'kvHeads', type: 'enum', values: [1, 2, 4], default: 2 },
  { key: 'ctx', name: 'context', type: 'int', default: 4096, min: 1, max: MAX_CONTEXT },
];

/** K/V heads as the core allows them: at most the query heads, and dividing them. */
export const kvHeadsFor = (heads, kvHeads) => (kvHeads <= heads && heads % kvHeads === 0 ? kvHeads : heads);

/**
 * The chapter's random inputs, NumPy-exact: np.random.seed(seed); W_Q, W_K, W_V =
 * 0.5 · randn(8, 4) ×3; W_Q', W_K', W_V' = 0.5 · randn(8, 8) ×3 (the grouped-query step uses
 * their first columns); X = randn(N, 8), the N = prompt + steps tokens.
 */
export function drawInputs(api, seed, tokens) {
  const rs = new api.RandomState(seed);
  try {
    // Halved (exact in binary) so that the scores stay a few units wide and softmax is not all-or-nothing.
    const half = (m) =>
      new api.Matrix(
        m.rows,
        m.cols,
        m.data.map((x) => x * 0.5),
      );
    const [WQ, WK, WV] = [0, 1, 2].map(() => half(rs.randn(D_MODEL, D_K)));
    const [WqG, WkG, WvG] = [0, 1, 2].map(() => half(rs.randn(D_MODEL, D_MODEL)));
    return { WQ, WK, WV, WqG, WkG, WvG, X: rs.randn(tokens, D_MODEL) };
  } finally {
    rs.delete();
  }
}

/** Rows r0 … r1 − 1 of m, as a new Matrix (a token, or the prompt). */
export const rowsOf = (api, m, r0, r1) => new api.Matrix(r1 - r0, m.cols, m.data.slice(r0 * m.cols, r1 * m.cols));
/** Columns c0 … c0 + width − 1 of m, as a new Matrix (one head's block). */
export const colsOf = (api, m, c0, width) => new api.Matrix(m.rows, width, columnsOf(m, c0, width).data);

/** a with b's rows under it: the cache after one more token. */
function appendRows(api, a, b) {
  const data = new Float64Array((a.rows + b.rows) * a.cols);
  data.set(a.data);
  data.set(b.data, a.data.length);
  return new api.Matrix(a.rows + b.rows, a.cols, data);
}

/**
 * Generation as a model runs it: the prompt (first `prompt` rows of X) prefilled
 * in one matmul each for K and V; then each later token alone: its q, k, v from
 * its own row, k and v appended to the cache, and its attention over the cache.
 * Returns the cache, the last token's q, each decode step's output row and
 * weights, and how many K rows each step computed (the prompt's, then 1 each).
 */
export function decode(api, X, prompt, WQ, WK, WV) {
  const first = rowsOf(api, X, 0, prompt);
  let cacheK = api.matmul(first, WK);
  let cacheV = api.matmul(first, WV);
  const steps = [];
  const rowsComputed = [prompt];
  for (let t = prompt; t < X.rows; t++) {
    const x = rowsOf(api, X, t, t + 1);
    const q = api.matmul(x, WQ);
    cacheK = appendRows(api, cacheK, api.matmul(x, WK));
    cacheV = appendRows(api, cacheV, api.matmul(x, WV));
    rowsComputed.push(1);
    steps.push({ q, cacheRows: cacheK.rows, ...api.scaledDotProductAttention(q, cacheK, cacheV) });
  }
  return { cacheK, cacheV, steps, rowsComputed };
}

const tokenLabels = (prompt, total) =>
  Array.from({ length: total }, (_, i) => (i < prompt ? `t${i + 1}` : `t${i + 1}*`));

/**
 * Everything the chapter shows, stage by stage (../stages.js), through `trace`:
 * tokens X (N × 8), the decode loop's caches cacheK/cacheV (N × 4), the last
 * token xNew and its q, its weights over the cache (stepWeights, 1 × N) and
 * output (stepOut); the full causal recomputation (fullWeights N × N, fullOut);
 * the grouped-query step (gqa: caches kvK/kvV N × 2g, head h's weights, gqaOut).
 */
export function kvCacheStages(api, { seed, prompt, steps, heads, kvHeads }, trace) {
  const total = prompt + steps;
  const t = tracedApi(api, trace);
  const run = staged();
  const { r, stage } = run;
  const labels = tokenLabels(prompt, total);
  r.labels = labels;
  stage('X', () => {
    const inputs = drawInputs(api, seed, total);
    t.input('tokens', inputs.X, { symbol: 'X', row: 'x', rowLabels: labels });
    for (const key of ['WQ', 'WK', 'WV']) t.input(key, inputs[key], { symbol: `W_${key[1]}` });
    return inputs;
  });
  if (!r.X) return run;
  stage('cacheK', () => {
    const loop = decode(api, r.X, prompt, r.WQ, r.WK, r.WV);
    const last = loop.steps[loop.steps.length - 1];
    const xNew = t.input('xNew', rowsOf(api, r.X, total - 1, total), { symbol: `x${total}`, vector: true });
    // The loop computed these; the trace records them with the op that made each row.
    const cache = (name, symbol, W, value) =>
      t.name(name, { symbol, row: symbol[0].toLowerCase() }).record('matmul', [r.X, W], value);
    const out = {
      loop,
      xNew,
      cacheK: cache('cacheK', 'K', r.WK, loop.cacheK),
      cacheV: cache('cacheV', 'V', r.WV, loop.cacheV),
      q: t.name('q', { symbol: 'q' }).record('matmul', [xNew, r.WQ], last.q),
    };
    const names = {
      scores: { name: 'stepScores', symbol: 's', colLabels: labels },
      weights: { name: 'stepWeights', symbol: 'a', colLabels: labels },
      output: { name: 'stepOut', symbol: 'o' },
    };
    const step = t.name(names).record('scaledDotProductAttention', [out.q, out.cacheK, out.cacheV], last);
    return { ...out, stepWeights: step.weights, stepOut: step.output };
  });
  stage('fullOut', () => {
    // Without a cache: every token's q, k, v again, and causal attention over all of them.
    const project = (name, W) =>
      t.name(name, { symbol: name, row: name.toLowerCase(), rowLabels: labels }).matmul(r.X, W);
    const [Q, K, V] = [project('Q', r.WQ), project('K', r.WK), project('V', r.WV)];
    const names = {
      scores: { name: 'fullScores', symbol: 'S', rowLabels: labels, colLabels: labels },
      weights: { name: 'fullWeights', symbol: 'A', rowLabels: labels, colLabels: labels },
      output: { name: 'fullOut', symbol: 'O', rowLabels: labels },
    };
    const full = t.name(names).scaledDotProductAttention(Q, K, V, { causal: true });
    return { fullWeights: full.weights, fullOut: full.output };
  });
  if (r.stepOut && r.fullOut) r.same = compareBits(r.stepOut.row(0), r.fullOut.row(total - 1));
  stage('gqa', () => groupedQuery(api, t, r, { heads, kvHeads: kvHeadsFor(heads, kvHeads), labels }));
  r.costs = costs(prompt, total);
  return run;
}

/**
 * The last token's attention with `heads` query heads of HEAD_DIM columns reading
 * `kvHeads` K/V heads: query head h (from 0) reads K/V head floor(h · kvHeads / heads)
 * (Ainslie et al. 2023; kvHeads = 1 is Shazeer's multi-query attention).
 */
function groupedQuery(api, t, r, { heads, kvHeads, labels }) {
  const WqG = t.input('WqG', colsOf(api, r.WqG, 0, heads * HEAD_DIM), { symbol: 'W_Q' });
  const WkG = t.input('WkG', colsOf(api, r.WkG, 0, kvHeads * HEAD_DIM), { symbol: 'W_K' });
  const WvG = t.input('WvG', colsOf(api, r.WvG, 0, kvHeads * HEAD_DIM), { symbol: 'W_V' });
  const qAll = t.name('qAll', { symbol: 'q' }).matmul(r.xNew, WqG);
  const kvK = t.name('kvK', { symbol: 'K', rowLabels: labels }).matmul(r.X, WkG);
  const kvV = t.name('kvV', { symbol: 'V', rowLabels: labels }).matmul(r.X, WvG);
  const block = (name, m, g, symbol) =>
    t
      .name(name, { symbol, rowLabels: m.rows > 1 ? labels : undefined })
      .record('columns', [m, g * HEAD_DIM, HEAD_DIM], colsOf(api, m, g * HEAD_DIM, HEAD_DIM));
  const groups = Array.from({ length: kvHeads }, (_, g) => ({
    K: block(`kv${g + 1}.K`, kvK, g, `K${g + 1}`),
    V: block(`kv${g + 1}.V`, kvV, g, `V${g + 1}`),
  }));
  const group = Array.from({ length: heads }, (_, h) => Math.floor((h * kvHeads) / heads));
  const perHead = group.map((g, h) => {
    const q = block(`head${h + 1}.q`, qAll, h, `q${h + 1}`);
    const names = {
      scores: { name: `head${h + 1}.scores`, symbol: `s${h + 1}`, colLabels: labels },
      weights: { name: `head${h + 1}.weights`, symbol: `a${h + 1}`, colLabels: labels },
      output: { name: `head${h + 1}.out`, symbol: `o${h + 1}` },
    };
    return t.name(names).scaledDotProductAttention(q, groups[g].K, groups[g].V);
  });
  const joined = new api.Matrix(
    1,
    heads * HEAD_DIM,
    Float64Array.from(perHead.flatMap((p) => Array.from(p.output.data))),
  );
  const gqaOut = t.name('gqaOut', { symbol: 'o' }).record(
    'concat',
    perHead.map((p) => p.output),
    joined,
  );
  return { gqa: { heads, kvHeads, group, kvK, kvV, qAll, weights: perHead.map((p) => p.weights), output: gqaOut } };
}

/**
 * Multiply-adds of one layer's attention per generated token t (cache of t rows
 * after it), one head of width D_K on D_MODEL-wide tokens, counting only the
 * query-key pairs causal attention uses. With the cache: the new token's q, k, v
 * (3 · d · d_k) and its row against t keys (t · d_k for scores, t · d_k for the
 * mix). Without: all t tokens' q, k, v again (3 · t · d · d_k) and every visible
 * pair (t(t + 1)/2 each for scores and mix).
 */
export const withCache = (t, d = D_MODEL, dk = D_K) => 3 * d * dk + 2 * t * dk;
export const withoutCache = (t, d = D_MODEL, dk = D_K) => 3 * t * d * dk + t * (t + 1) * dk;

/** Σ over tokens 1 … n of both counts, the whole generation's work (BigInt: n³ passes 2^53). */
export function totals(n, d = D_MODEL, dk = D_K) {
  const [N, D, DK] = [BigInt(n), BigInt(d), BigInt(dk)];
  return {
    cached: 3n * N * D * DK + N * (N + 1n) * DK,
    recomputed: (3n * D * DK * N * (N + 1n)) / 2n + (DK * N * (N + 1n) * (N + 2n)) / 3n,
  };
}

/** The chapter's decode steps, each with both counts. */
export function costs(prompt, total) {
  return Array.from({ length: total - prompt }, (_, i) => {
    const t = prompt + i + 1;
    return { t, cached: withCache(t), recomputed: withoutCache(t) };
  });
}

/** Readable NumPy lines that reproduce the inputs. */
export const numpyLines = ({ seed, prompt, steps }) =>
  [
    'import numpy as np',
    `np.random.seed(${seed})`,
    `W_Q, W_K, W_V = (0.5 * np.random.randn(${D_MODEL}, ${D_K}) for _ in range(3))`,
    `W_Q2, W_K2, W_V2 = (0.5 * np.random.randn(${D_MODEL}, ${D_MODEL}) for _ in range(3))`,
    `X = np.random.randn(${prompt + steps}, ${D_MODEL})  # ${prompt} prompt tokens, then ${steps} generated`,
  ].join('\n');

/**
 * A real model's cache for one head: the keys and values explainHead read from
 * the opened model (rotated ones when the family rotates them), the last token's
 * query against that cache, and the full causal attention's last row to compare.
 * `head` is explainHead's answer: { tokens, q, k, v, qRotated?, kRotated? }.
 */
export function openedHeadStages(api, head, trace) {
  const t = tracedApi(api, trace);
  const run = staged();
  const { stage } = run;
  stage('realK', () => {
    const labels = head.tokens.map((token, i) => `${i + 1} ${token}`);
    const [q, k] = [head.qRotated ?? head.q, head.kRotated ?? head.k];
    const T = k.rows;
    const realK = t.input('realK', k, { symbol: 'K', row: 'k', rowLabels: labels });
    const realV = t.input('realV', head.v, { symbol: 'V', row: 'v', rowLabels: labels });
    const realQ = t.input('realQ', rowsOf(api, q, T - 1, T), { symbol: `q${T}` });
    const names = {
      scores: { name: 'realScores', symbol: 's', colLabels: labels },
      weights: { name: 'realWeights', symbol: 'a', colLabels: labels },
      output: { name: 'realOut', symbol: 'o' },
    };
    const step = t.name(names).scaledDotProductAttention(realQ, realK, realV);
    const full = api.scaledDotProductAttention(q, k, head.v, { causal: true });
    const same = compareBits(step.output.row(0), full.output.row(T - 1));
    return { labels, realK, realV, realQ, realWeights: step.weights, realOut: step.output, same, tokens: T };
  });
  return run;
}
