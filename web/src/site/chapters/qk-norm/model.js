// The computations of the QK-norm chapter, kept apart from the page (no DOM)
// so node tests can check them against NumPy (tests/js/site-qk-norm-model.test.mjs).
// Queries and keys are drawn from a seed and multiplied by a size s; the
// logits q·k/√d grow like s², and RMS normalisation per row (Dehghani et al.
// 2023; Qwen3 and Gemma 3 per head) takes s out again. Products, logits and
// softmax come from the API; the RMS normalisation is a JS step (the API has
// no such op), recorded with its arithmetic (../../explain/rms-norm.js).
import { rmsNormRows } from '../../explain/rms-norm.js';
import { tracedApi } from '../../explain/traced-api.js';
import { staged } from '../../stages.js';

/** ε under the root, as Qwen3's and Gemma 3's config.json set rms_norm_eps. */
export const EPSILON = 1e-6;
export const DIMS = [4, 8, 16, 32, 64];
/** The sizes s the saturation curves sweep: 1/4 … 16, two points per doubling. */
export const SWEEP = Array.from({ length: 13 }, (_, i) => 2 ** (-2 + i / 2));

/** The permalink state of the chapter (url-state.js). */
export const SCHEMA = [
  { key: 'seed', type: 'int', min: 0, max: 4294967295, default: 3 },
  { key: 'd', name: 'headDim', type: 'enum', values: DIMS, default: 16 },
  { key: 'n', name: 'tokens', type: 'int', min: 2, max: 8, default: 5 },
  { key: 's', name: 'size', type: 'number', min: 0.25, max: 16, default: 1 },
  { key: 'g', name: 'gain', type: 'number', min: 0.25, max: 4, default: 1 },
];

/** Q0, K0, V (n × d): three randn draws, in that order, from RandomState(seed) (NumPy-exact). */
export function drawInputs(api, seed, n, d) {
  const rs = new api.RandomState(seed);
  try {
    return { Q0: rs.randn(n, d), K0: rs.randn(n, d), V: rs.randn(n, d) };
  } finally {
    rs.delete();
  }
}

/** The largest weight of each row of a softmax, averaged over the rows (1/n: spread evenly; 1: one key each). */
export function meanLargestWeight(weights) {
  let sum = 0;
  for (let i = 0; i < weights.rows; i++) sum += Math.max(...weights.row(i));
  return sum / weights.rows;
}

/** The bound QK-norm puts on every logit: |q̂·k̂| / √d ≤ ‖q̂‖‖k̂‖ / √d ≤ g²·d / √d = g²√d. */
export const logitBound = (d, gain) => gain * gain * Math.sqrt(d);

/**
 * The chapter's computation, stage by stage (../../stages.js), through `trace`:
 * Q = s·Q0, K = s·K0 (scaleRows), logits = Q Kᵀ/√d and their softmax weights,
 * then Q̂, K̂ = rmsNorm(Q), rmsNorm(K) with gain g on every channel, and their
 * logits and weights. Names: Q0, K0, V, s, Q, K, logits, weights, gain, Qn, Kn,
 * normLogits, normWeights.
 */
export function qkNormStages(api, { seed, headDim: d, tokens: n, size: s, gain: g }, trace) {
  const t = tracedApi(api, trace);
  const { Q0, K0, V } = drawInputs(api, seed, n, d);
  t.input('Q0', Q0, { symbol: 'Q₀', row: 'q₀' });
  t.input('K0', K0, { symbol: 'K₀', row: 'k₀' });
  t.input('V', V, { symbol: 'V', row: 'v' });
  const sizes = t.input('s', new Float64Array(n).fill(s), { symbol: 's', vector: true, value: row(n, s) });
  const gain = t.input('gain', row(d, g), { symbol: 'g', vector: true });
  const run = staged({ Q0, K0, V });
  const { r, stage } = run;
  stage('Q', () => ({ Q: t.name('Q', { symbol: 'Q', row: 'q' }).scaleRows(sizes, Q0) }));
  stage('K', () => ({ K: t.name('K', { symbol: 'K', row: 'k' }).scaleRows(sizes, K0) }));
  if (r.Q && r.K) {
    const logitNames = { out: { name: 'logits', symbol: 'S' }, scores: { name: 'products', symbol: 'QKᵀ' } };
    stage('logits', () => ({
      logits: t.name(logitNames).attentionScores(r.Q, r.K, { scaled: true }),
      doubled: largestLogit(api, Q0, K0, 2 * s), // for the question of the logits step
    }));
    stage('weights', () => ({
      weights: t.name({ weights: { name: 'weights', symbol: 'A' } }).scaledDotProductAttention(r.Q, r.K, V).weights,
    }));
    const normed = (name, symbol, x) => t.name(name, symbol).record('rmsNorm', [x, gain, EPSILON], norm(api, x, gain));
    stage('Qn', () => ({ Qn: normed('Qn', { symbol: 'Q̂', row: 'q̂' }, r.Q) }));
    stage('Kn', () => ({ Kn: normed('Kn', { symbol: 'K̂', row: 'k̂' }, r.K) }));
  }
  if (r.Qn && r.Kn) {
    const normNames = { out: { name: 'normLogits', symbol: 'Ŝ' }, scores: { name: 'normProducts', symbol: 'Q̂K̂ᵀ' } };
    stage('normLogits', () => ({
      normLogits: t.name(normNames).attentionScores(r.Qn, r.Kn, { scaled: true }),
      normDoubled: largestLogit(api, Q0, K0, 2 * s, gain),
    }));
    stage('normWeights', () => ({
      normWeights: t.name({ weights: { name: 'normWeights', symbol: 'Â' } }).scaledDotProductAttention(r.Qn, r.Kn, V)
        .weights,
    }));
  }
  stage('sweep', () => ({ sweep: sweep(api, { seed, headDim: d, tokens: n, gain: g }) }));
  return run;
}

/** The same computation without a trace, throwing the first API error. */
export function qkNorm(api, state) {
  const run = qkNormStages(api, state);
  if (run.firstFailure()) throw run.firstFailure();
  return run.r;
}

/**
 * The saturation curves: for each size s of SWEEP, the mean largest weight
 * without and with QK-norm, and the largest |logit| of each.
 */
export function sweep(api, { seed, headDim: d, tokens: n, gain: g }) {
  const { Q0, K0, V } = drawInputs(api, seed, n, d);
  const gain = row(d, g);
  return SWEEP.map((s) => {
    const sizes = new Float64Array(n).fill(s);
    const [Q, K] = [api.scaleRows(sizes, Q0), api.scaleRows(sizes, K0)];
    const plain = api.scaledDotProductAttention(Q, K, V).weights;
    const [Qn, Kn] = [norm(api, Q, gain), norm(api, K, gain)];
    const normed = api.scaledDotProductAttention(Qn, Kn, V).weights;
    const largest = (m) => Math.max(...Array.from(m.data, Math.abs));
    return {
      s,
      plain: meanLargestWeight(plain),
      normed: meanLargestWeight(normed),
      logit: largest(api.attentionScores(Q, K, { scaled: true })),
      normLogit: largest(api.attentionScores(Qn, Kn, { scaled: true })),
    };
  });
}

/** The largest |q·k|/√d at size s (with QK-norm when a gain row is given). */
export function largestLogit(api, Q0, K0, s, gain) {
  const sizes = new Float64Array(Q0.rows).fill(s);
  let [Q, K] = [api.scaleRows(sizes, Q0), api.scaleRows(sizes, K0)];
  if (gain) [Q, K] = [norm(api, Q, gain), norm(api, K, gain)];
  return Math.max(...Array.from(api.attentionScores(Q, K, { scaled: true }).data, Math.abs));
}

const row = (length, value) => ({ rows: 1, cols: length, data: new Float64Array(length).fill(value) });

/** RMS normalisation of each row, as an API Matrix. */
function norm(api, x, gain) {
  const out = rmsNormRows(x, gain.data, EPSILON);
  return new api.Matrix(out.rows, out.cols, out.data);
}
