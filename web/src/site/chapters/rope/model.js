// The computations of the RoPE chapter, kept apart from the page (no DOM) so
// node tests can check them against NumPy (tests/js/site-rope-model.test.mjs).
// One query q and one key k are drawn from a seed and turned by the API's
// rotaryEmbedding at positions 0 … T − 1 (Su et al. 2021); their scores
// come from attentionScores. The frequencies θ_i are a JS step
// (../../explain/rotary.js), recorded with their arithmetic.
import { inverseFrequencies } from '../../explain/rotary.js';
import { tracedApi } from '../../explain/traced-api.js';
import { staged } from '../../stages.js';

export const DIMS = [4, 8, 16, 32, 64, 128];
export const SCALINGS = ['none', 'linear', 'llama3'];
export const PAIRINGS = ['half', 'interleaved'];
export const MAX_POSITION = 100000;

/** The permalink state of the chapter (url-state.js). */
export const SCHEMA = [
  { key: 'seed', type: 'int', min: 0, max: 4294967295, default: 0 },
  { key: 'd', name: 'headDim', type: 'enum', values: DIMS, default: 8 },
  { key: 'm', name: 'queryAt', type: 'int', min: 0, max: MAX_POSITION, default: 5 },
  { key: 'n', name: 'keyAt', type: 'int', min: 0, max: MAX_POSITION, default: 2 },
  { key: 'T', name: 'positions', type: 'int', min: 2, max: 16, default: 8 },
  { key: 'base', type: 'number', min: 2, max: 1e9, default: 10000 },
  { key: 'rs', name: 'scaling', type: 'enum', values: SCALINGS, default: 'none' },
  { key: 'f', name: 'factor', type: 'number', min: 1, max: 64, default: 8 },
  { key: 'lo', name: 'lowFreqFactor', type: 'number', min: 0.5, max: 64, default: 1 },
  { key: 'hi', name: 'highFreqFactor', type: 'number', min: 1, max: 64, default: 4 },
  { key: 'L', name: 'originalMax', type: 'int', min: 16, max: 1048576, default: 8192 },
];

/** Hugging Face's rope_scaling object for the state (null: none), as config.json writes it. */
export function scalingOf(state) {
  if (state.scaling === 'linear') return { rope_type: 'linear', factor: state.factor };
  if (state.scaling !== 'llama3') return null;
  return {
    rope_type: 'llama3',
    factor: state.factor,
    low_freq_factor: state.lowFreqFactor,
    high_freq_factor: Math.max(state.highFreqFactor, state.lowFreqFactor + 0.5), // the bands must not cross
    original_max_position_embeddings: state.originalMax,
  };
}

/** q and k (1 × d each): two randn(1, d) draws of RandomState(seed), NumPy-exact. */
export function drawQueryKey(api, seed, d) {
  const rs = new api.RandomState(seed);
  try {
    return { q: rs.randn(1, d), k: rs.randn(1, d) };
  } finally {
    rs.delete();
  }
}

const range = (T) => Array.from({ length: T }, (_, i) => i);

/** One row x turned at one position. */
const turnedAt = (api, x, position, options) => api.rotaryEmbedding(x, { ...options, positions: [position] });

/** The frequencies as a figure holds them: row 1 from rope_theta, row 2 scaled (when there is a scaling). */
export function frequencyRows(d, base, scaling) {
  const rows = scaling
    ? [inverseFrequencies(d, base, null), inverseFrequencies(d, base, scaling)]
    : [inverseFrequencies(d, base, null)];
  return { rows: rows.length, cols: d / 2, data: Float64Array.from(rows.flat()) };
}

/**
 * The chapter's computation, stage by stage, through `trace`: q, k; the rows
 * of q and of k repeated T times (qRows, kRows), turned at positions
 * 0 … T − 1 (qRot, kRot); their scores (scores, T × T); the frequencies
 * (freqs); q turned at m with both pairings (qHalf, qInterleaved); and for the
 * text, q_m·k_n, the same pair moved by `shift`, and q at m with its pairs.
 */
export function ropeStages(api, state, trace, { shift = 3 } = {}) {
  const t = tracedApi(api, trace);
  const { headDim: d, positions: T, base, queryAt: m, keyAt: n } = state;
  const scaling = scalingOf(state);
  const options = { base, scaling, pairing: 'half' };
  const { q, k } = drawQueryKey(api, state.seed, d);
  t.input('q', q, { symbol: 'q', vector: true });
  t.input('k', k, { symbol: 'k', vector: true });
  const run = staged({ q, k, scaling });
  const { r, stage } = run;
  const repeat = (name, x, symbol) =>
    t.name(name, { symbol, row: `${symbol.toLowerCase()}` }).record(
      'stack',
      range(T).map(() => x),
      repeatRows(api, x, T),
    );
  stage('rows', () => ({ qRows: repeat('qRows', q, 'Q'), kRows: repeat('kRows', k, 'K') }));
  const slowest = (b) => (2 * Math.PI) / inverseFrequencies(d, b, scaling)[d / 2 - 1];
  stage('freqs', () => ({
    freqs: t
      .name('freqs', { symbol: 'θ' })
      .record('ropeFrequencies', [d, base, scaling], frequencyRows(d, base, scaling)),
    slowest: slowest(base), // the last pair's wavelength, and with a base 10 times larger (a question's)
    slowestTenfold: slowest(10 * base),
  }));
  if (r.qRows) {
    const positions = range(T);
    stage('qRot', () => ({
      qRot: t.name('qRot', { symbol: 'Q′', row: 'q′' }).rotaryEmbedding(r.qRows, { ...options, positions }),
    }));
    stage('kRot', () => ({
      kRot: t.name('kRot', { symbol: 'K′', row: 'k′' }).rotaryEmbedding(r.kRows, { ...options, positions }),
    }));
  }
  if (r.qRot && r.kRot) {
    stage('scores', () => ({ scores: t.name('scores', { symbol: 'S' }).attentionScores(r.qRot, r.kRot) }));
  }
  stage('pair', () => {
    const score = (a, b) => api.dot(turnedAt(api, q, a, options).data, turnedAt(api, k, b, options).data);
    return {
      turned: turnedAt(api, q, m, options),
      score: score(m, n),
      shifted: score(m + shift, n + shift),
      queryMoved: score(m + shift, n),
      unturned: api.dot(q.data, k.data),
      shift,
    };
  });
  stage('pairing', () => ({
    qHalf: t.name('qHalf', { symbol: 'q′', vector: true }).rotaryEmbedding(q, { ...options, positions: [m] }),
    qInterleaved: t
      .name('qInterleaved', { symbol: 'q″', vector: true })
      .rotaryEmbedding(q, { ...options, pairing: 'interleaved', positions: [m] }),
    ...layoutCheck(api, q, m, options),
  }));
  return run;
}

/** The same computation without a trace, throwing the first API error. */
export function rope(api, state, options) {
  const run = ropeStages(api, state, undefined, options);
  if (run.firstFailure()) throw run.firstFailure();
  return run.r;
}

/** x (1 × d) as T identical rows (what stack records). */
function repeatRows(api, x, T) {
  const data = new Float64Array(T * x.cols);
  for (let i = 0; i < T; i++) data.set(x.data, i * x.cols);
  return new api.Matrix(T, x.cols, data);
}

/**
 * The permutation that turns one layout into the other: the interleaved
 * coordinates 1, 3, 5, … first, then 2, 4, 6, … (what Hugging Face's
 * conversion does to the rows of W_q and W_k). `toHalf[j]` is the
 * interleaved coordinate that lands at place j.
 */
export const toHalf = (d) => [...range(d / 2).map((i) => 2 * i), ...range(d / 2).map((i) => 2 * i + 1)];

/**
 * The two pairings describe the same rotation in different coordinates:
 * half(P q) = P interleaved(q) for the permutation P above. Returns the
 * largest difference between the two sides.
 */
export function layoutCheck(api, q, m, options) {
  const order = toHalf(q.cols);
  const permuted = new api.Matrix(
    1,
    q.cols,
    Float64Array.from(order, (j) => q.data[j]),
  );
  const viaHalf = api.rotaryEmbedding(permuted, { ...options, pairing: 'half', positions: [m] });
  const interleaved = api.rotaryEmbedding(q, { ...options, pairing: 'interleaved', positions: [m] });
  const layoutGap = Math.max(...order.map((j, place) => Math.abs(viaHalf.data[place] - interleaved.data[j])));
  return { layoutGap };
}
