// The computations of the "Sliding-window attention" chapter (no DOM): causal
// attention limited to the last W keys (the API's scaledDotProductAttention with
// `window`), and how far back information can come from after L such layers:
// the window as a 0/1 matrix M and its powers M^L by the API's matmul, whose
// entry (i, j) counts the chains of windowed steps from token i back to token j.
// Tests: tests/js/site-sliding-window-model.test.mjs (NumPy: tests/fixtures/sliding_window.txt).
import { tracedApi } from '../../explain/traced-api.js';
import { staged } from '../../stages.js';
import { drawQkv, inputQkv } from '../../lesson-kit/seeded-qkv.js';

export const D_K = 4; // query/key/value width
export const MAX_LENGTH = 24; // tokens of the live example
export const MAX_LAYERS = 8;

/** The permalink state (url-state.js): every size bounded like the controls. */
export const SCHEMA = [
  { key: 'seed', type: 'int', default: 3, min: 0, max: 4294967295 },
  { key: 'n', name: 'length', type: 'int', default: 10, min: 2, max: MAX_LENGTH },
  { key: 'W', name: 'window', type: 'int', default: 3, min: 1, max: MAX_LENGTH },
  { key: 'L', name: 'layers', type: 'int', default: 3, min: 1, max: MAX_LAYERS },
  { key: 'cw', name: 'cacheWindow', type: 'int', default: 16, min: 1, max: 48 },
  { key: 'cs', name: 'cacheSinks', type: 'int', default: 4, min: 0, max: 8 },
];

/** Query i sees key j (both from 0) when i − W < j ≤ i. */
export const visible = (window) => (i, j) => j <= i && j > i - window;

/** The earliest token (from 1) whose information reaches token `last` after `layers` layers: each moves W − 1 back. */
export const earliestReached = (last, window, layers) => Math.max(1, last - layers * (window - 1));

/** np.random.seed(seed); Q, K, V = randn(n, 4) three times. */
export const drawInputs = (api, seed, n) => drawQkv(api, seed, n, D_K, D_K);

/** A 0/1 n × n matrix with 1 where `keep(i, j)`. */
export function indicator(api, n, keep) {
  const data = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) data[i * n + j] = keep(i, j) ? 1 : 0;
  return new api.Matrix(n, n, data);
}

/**
 * Everything the chapter shows, stage by stage, through `trace`: Q, K, V; the
 * scaled scores; the windowed attention (weights, output, mask); the window M
 * as a 0/1 matrix and reach = M^L (M times itself L times, from the identity).
 */
export function slidingStages(api, { seed, length, window, layers }, trace) {
  const t = tracedApi(api, trace);
  const run = staged();
  const { r, stage } = run;
  const labels = Array.from({ length }, (_, i) => `${i + 1}`);
  Object.assign(r, { labels, length, window, layers });
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
  stage('weights', () => {
    const names = {
      weights: { name: 'weights', symbol: 'A' },
      output: { name: 'output', symbol: 'O', rowLabels: labels },
      mask: { name: 'mask', symbol: 'M' },
    };
    const out = t.name(names).scaledDotProductAttention(r.Q, r.K, r.V, { causal: true, window });
    return { weights: out.weights, output: out.output };
  });
  stage('reach', () => {
    const M = t.input('M', indicator(api, length, visible(window)), { symbol: 'M', rowLabels: labels });
    let power = t.input(
      'I',
      indicator(api, length, (i, j) => i === j),
      { symbol: 'I', rowLabels: labels },
    );
    for (let l = 1; l <= layers; l++) {
      const name = l === layers ? 'reach' : `reach${l}`;
      power = t.name(name, { symbol: `M${superscript(l)}`, rowLabels: labels }).matmul(M, power);
    }
    return { M, reach: power };
  });
  return run;
}

const SUPERSCRIPTS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const superscript = (n) => [...String(n)].map((d) => SUPERSCRIPTS[d]).join('');

/** The first token (from 1) with a nonzero entry in row `row` (from 0) of `m`, or null. */
export function firstNonzero(m, row) {
  for (let j = 0; j < m.cols; j++) if (m.get(row, j) !== 0) return j + 1;
  return null;
}

/** Readable NumPy lines that reproduce the inputs, the window and its reach. */
export const numpyLines = ({ seed, length, window, layers }) =>
  [
    'import numpy as np',
    `np.random.seed(${seed})`,
    `Q, K, V = (np.random.randn(${length}, ${D_K}) for _ in range(3))`,
    `i, j = np.indices((${length}, ${length}))`,
    `M = ((j <= i) & (j > i - ${window})).astype(int)  # the window`,
    `reach = np.linalg.matrix_power(M, ${layers})`,
  ].join('\n');

/** A head is called a sink when its mean weight on token 1 is at least SINK_AT and SINK_FACTOR × the even spread. */
export const SINK_FACTOR = 2;
export const SINK_AT = 0.2;

/**
 * Attention sinks (Xiao et al., 2023) measured on a model's run: `attentions[l][h]`
 * is layer l's head h weights (T × T, causal). Per layer × head, the mean over
 * queries 2 … T (from 1) of the weight on token 1 (`mass`), against the same mean
 * for a head spreading its weight evenly over the i keys query i may read (1/i:
 * `baseline`, one number, the same for every head). `column` holds the weights
 * averaged: row l·H + h, column i − 2 is A[i][1] of that head.
 */
export function firstTokenMass(attentions) {
  const layers = attentions.length;
  const heads = attentions[0].length;
  const T = attentions[0][0].rows;
  if (T < 2) throw new RangeError(`firstTokenMass: the text needs at least 2 tokens, got ${T}`);
  const column = { rows: layers * heads, cols: T - 1, data: new Float64Array(layers * heads * (T - 1)) };
  const mass = { rows: layers, cols: heads, data: new Float64Array(layers * heads) };
  attentions.forEach((row, l) =>
    row.forEach((weights, h) => {
      let sum = 0;
      for (let i = 1; i < T; i++) {
        const w = weights.get(i, 0);
        column.data[(l * heads + h) * (T - 1) + i - 1] = w;
        sum += w;
      }
      mass.data[l * heads + h] = sum / (T - 1);
    }),
  );
  let base = 0;
  for (let i = 1; i < T; i++) base += 1 / (i + 1);
  return { mass, column, baseline: base / (T - 1), queries: T - 1, layers, heads };
}

/** The heads that hold the first-token rule: [{ layer, head, value }] (from 0), strongest first. */
export const sinkHeads = ({ mass, heads, baseline }) =>
  Array.from(mass.data, (value, k) => ({ layer: Math.floor(k / heads), head: k % heads, value }))
    .filter((s) => s.value >= SINK_AT && s.value >= SINK_FACTOR * baseline)
    .sort((a, b) => b.value - a.value);

/** Total variation distance between two distributions over the same ids: half the sum of |p − q|. */
export function totalVariation(p, q) {
  let sum = 0;
  for (let t = 0; t < p.length; t++) sum += Math.abs(p[t] - q[t]);
  return sum / 2;
}

/** The model's next-token distribution after `ids`, as an array indexed by id (from runIds' full top-k, awaited). */
async function nextDistribution(model, ids, vocab) {
  const { next } = await model.runIds(ids, { k: vocab });
  const p = new Float64Array(vocab);
  for (const { id, p: prob } of next) p[id] = prob;
  return { p, top: next[0], kept: ids.length };
}

/**
 * StreamingLLM's comparison on `ids`: the next-token distribution of the full
 * context, of only the last `window` ids, and of the first `sinks` ids followed
 * by the last `window` (positions renumbered within what is kept: runIds numbers
 * them from 1), each with its top-1 token and its total variation to the full one.
 */
export async function cacheComparison(model, ids, window, sinks) {
  const vocab = model.config.vocab_size;
  const T = ids.length;
  const w = Math.min(window, T);
  const s = Math.min(sinks, T - w);
  const full = await nextDistribution(model, ids, vocab);
  const recent = await nextDistribution(model, ids.slice(T - w), vocab);
  const streaming = await nextDistribution(model, [...ids.slice(0, s), ...ids.slice(T - w)], vocab);
  recent.tv = totalVariation(recent.p, full.p);
  streaming.tv = totalVariation(streaming.p, full.p);
  full.tv = 0;
  return { T, window: w, sinks: s, full, recent, streaming };
}
