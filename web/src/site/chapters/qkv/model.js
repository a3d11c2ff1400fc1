// The computations of the "Q/K/V attention from scratch" chapter, kept apart
// from the page so node tests can check them against NumPy (tests/js/qkv.test.mjs).
// Every number comes from the attention-lab API; this file only chains calls.
import { tracedApi } from '../../explain/traced-api.js';
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
export function qkvAttention(api, words, WQ, WK, WV, trace) {
  const run = qkvStages(api, words, WQ, WK, WV, trace);
  if (run.firstFailure()) throw run.firstFailure();
  const r = { ...run.r };
  delete r.unscaledFirst; // a question's, not the computation's
  return r;
}

/**
 * qkvAttention stage by stage (../stages.js): a projection that overflows stops
 * only what needs it. Stages: Q, K, V, scores (Q, K), attention (weights and
 * output: Q, K, V). Computed through `trace` (../explain/traced-api.js), named
 * like the figures: words (n x 3), WQ/WK/WV (3 x 3), Q/K/V (n x 3), scores
 * (n x n), weights (n x n), output (n x 3).
 */
export function qkvStages(api, words, WQ, WK, WV, trace) {
  const t = tracedApi(api, trace);
  t.input('words', words, { symbol: 'X', row: 'x' });
  Object.entries({ WQ, WK, WV }).forEach(([key, W]) => t.input(key, W, { symbol: `W_${key[1]}` }));
  const run = staged();
  const { r, stage } = run;
  stage('Q', () => ({ Q: t.name('Q', { symbol: 'Q', row: 'q' }).matmul(words, WQ) })); // what each word looks for
  stage('K', () => ({ K: t.name('K', { symbol: 'K', row: 'k' }).matmul(words, WK) })); // what it offers to be found by
  stage('V', () => ({ V: t.name('V', { symbol: 'V', row: 'v' }).matmul(words, WV) })); // what it passes on
  if (r.Q && r.K) {
    stage('scores', () => ({
      scores: t.name('scores', { symbol: 'S' }).attentionScores(r.Q, r.K), // (n x n): query i . key j
      scaled: api.attentionScores(r.Q, r.K, { scaled: true }), // scores / sqrt(d_k)
      dk: r.K.cols,
    }));
  }
  if (r.scores && r.V) {
    stage('attention', () => {
      // weights = softmax(scaled) row by row; output (n x d_v) = weights V.
      const names = { weights: { name: 'weights', symbol: 'A' }, output: { name: 'output', symbol: 'out' } };
      const { weights, output } = t.name(names).scaledDotProductAttention(r.Q, r.K, r.V);
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
