// The computations of the "Q/K/V attention from scratch" chapter, kept apart
// from the page so node tests can check them against NumPy (tests/js/qkv.test.mjs).
// Every number comes from the attention-lab API; this file only chains calls.
import { matrixOfRows } from '../../explain/names.js';
import { staged } from '../../stages.js';

/** The article's four word vectors, one row per word. */
export const ARTICLE_WORDS = [
  [1, 0, 0],
  [0, 1, 0],
  [1, 1, 0],
  [0, 0, 1],
];

/**
 * W_Q, W_K, W_V as the article draws them: np.random.seed(seed), then three
 * randint(0, 3, size=(3, 3)) calls, in that order.
 * @param {import('attention-lab').Attention} api
 * @param {number} seed
 */
export function drawWeights(api, seed, size = 3) {
  const rs = new api.RandomState(seed);
  try {
    return {
      WQ: rs.randint(0, 3, size, size).toArray(),
      WK: rs.randint(0, 3, size, size).toArray(),
      WV: rs.randint(0, 3, size, size).toArray(),
    };
  } finally {
    rs.delete();
  }
}

/**
 * words (n x d), W_Q, W_K, W_V (d x d_k) -> every intermediate matrix.
 * weights[i] = softmax(scores[i] / sqrt(d_k)): how much word i attends to each word.
 * @param {import('attention-lab').Attention} api
 */
export function qkvAttention(api, words, WQ, WK, WV) {
  const Q = api.matmul(words, WQ); // (n x d_k): what each word is looking for
  const K = api.matmul(words, WK); // (n x d_k): what each word offers to be found by
  const V = api.matmul(words, WV); // (n x d_v): what each word passes on
  const scores = api.attentionScores(Q, K); // (n x n): query i . key j
  const scaled = api.attentionScores(Q, K, { scaled: true }); // scores / sqrt(d_k)
  // weights = softmax(scaled) row by row; output (n x d_v) = weights V.
  const { weights, output } = api.scaledDotProductAttention(Q, K, V);
  return { Q, K, V, scores, dk: K.cols, scaled, weights, output };
}

/**
 * qkvAttention stage by stage (../stages.js): a projection that overflows stops
 * only what needs it. Stages: Q, K, V, scores (Q, K), attention (weights and
 * output: Q, K, V).
 */
export function qkvStages(api, words, WQ, WK, WV) {
  const run = staged();
  const { r, stage } = run;
  stage('Q', () => ({ Q: api.matmul(words, WQ) }));
  stage('K', () => ({ K: api.matmul(words, WK) }));
  stage('V', () => ({ V: api.matmul(words, WV) }));
  if (r.Q && r.K) {
    stage('scores', () => ({
      scores: api.attentionScores(r.Q, r.K),
      scaled: api.attentionScores(r.Q, r.K, { scaled: true }),
      dk: r.K.cols,
    }));
  }
  if (r.scores && r.V) {
    stage('attention', () => {
      const { weights, output } = api.scaledDotProductAttention(r.Q, r.K, r.V);
      // word_1's weights without the 1/√d_k, for the question of step 5.
      return { weights, output, unscaledFirst: api.softmax(r.scores.row(0)) };
    });
  }
  return run;
}

/** The permalink state of the chapter (url-state.js). W_* absent: drawn from the seed. */
export const SCHEMA = [
  { key: 'seed', type: 'int', default: 42, min: 0, max: 4294967295 },
  { key: 'X', name: 'words', type: 'rows', cols: 3, minLength: 1, maxLength: 8, default: ARTICLE_WORDS },
  { key: 'WQ', type: 'rows', cols: 3, minLength: 3, maxLength: 3, default: null },
  { key: 'WK', type: 'rows', cols: 3, minLength: 3, maxLength: 3, default: null },
  { key: 'WV', type: 'rows', cols: 3, minLength: 3, maxLength: 3, default: null },
];
export const WEIGHT_KEYS = ['WQ', 'WK', 'WV'];

/**
 * The chapter's inputs from a permalink state: weights typed by the reader
 * win, the others are drawn from the seed. `custom` says whether any was typed.
 */
export function resolveWeights(api, state) {
  const drawn = drawWeights(api, state.seed);
  const custom = WEIGHT_KEYS.some((k) => state[k]);
  return { custom, ...Object.fromEntries(WEIGHT_KEYS.map((k) => [k, state[k] ?? drawn[k]])) };
}

/** NumPy's dtype rule: products of integer arrays stay integer arrays. */
export const isWhole = (rows) => rows.every((row) => row.every(Number.isInteger));

// ---- provenance: the computation as a trace of named tensors (../explain/trace.js)

/**
 * Records the chapter's computation (r = qkvAttention(…)) into `trace`, named
 * like the figures: words (n x 3), WQ/WK/WV (3 x 3), Q/K/V (n x 3), scores
 * (n x n), weights (n x n), output (n x 3). Each op explains its own cells.
 */
export function traceQkv(trace, words, W, r) {
  trace.add({ name: 'words', value: () => matrixOfRows(words), symbol: 'X', row: 'x' });
  for (const key of WEIGHT_KEYS) trace.add({ name: key, value: () => matrixOfRows(W[key]), symbol: `W_${key[1]}` });
  for (const name of ['Q', 'K', 'V']) {
    trace.add({
      name,
      op: 'matmul',
      inputs: ['words', `W${name}`],
      value: r[name],
      symbol: name,
      row: name.toLowerCase(),
    });
  }
  trace.add({
    name: 'scores',
    op: 'matmul',
    inputs: ['Q', 'K'],
    value: r.scores,
    symbol: 'S',
    params: { transposeB: true },
  });
  trace.add({
    name: 'weights',
    op: 'softmax',
    inputs: ['scores'],
    value: r.weights,
    symbol: 'A',
    params: { dk: r.dk },
  });
  trace.add({ name: 'output', op: 'weightedSum', inputs: ['weights', 'V'], value: r.output, symbol: 'out' });
}
