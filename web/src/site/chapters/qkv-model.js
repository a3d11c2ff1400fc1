// The computations of the "Q/K/V attention from scratch" chapter, kept apart
// from the page so node tests can check them against NumPy (tests/js/qkv.test.mjs).
// Every number comes from the attention-lab API; this file only chains calls.
import { columnCells, rowCells, shown, softmaxText, sumOfProducts } from '../explain/format.js';

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

// ---- provenance: where each computed number comes from ---------------------------
// Sources are named after the chapter's figures: words (n x 3), WQ/WK/WV (3 x 3),
// Q/K/V (n x 3), scores (n x n), weights (n x n), output (n x 3).

/** Entry (i, k) of Q, K or V: x_i · W[:, k]. */
export function explainProjection(name, words, W, r, i, k) {
  const pairs = words[i].map((x, j) => [x, W[j][k]]);
  return {
    text: `${name}[${i + 1}][${k + 1}] = x${i + 1} · W_${name}[:, ${k + 1}] = ${sumOfProducts(pairs)} = ${shown(r[name].get(i, k))}`,
    sources: { words: rowCells(i, 3), [`W${name}`]: columnCells(3, k) },
  };
}

/** S[i][j] = q_i · k_j. */
export function explainScore(r, i, j) {
  const pairs = Array.from(r.Q.row(i), (q, k) => [q, r.K.get(j, k)]);
  return {
    text: `S[${i + 1}][${j + 1}] = q${i + 1} · k${j + 1} = ${sumOfProducts(pairs)} = ${shown(r.scores.get(i, j))}`,
    sources: { Q: rowCells(i, r.Q.cols), K: rowCells(j, r.K.cols) },
  };
}

/** A[i][j] = softmax of row i of S / √d_k. */
export function explainWeight(r, i, j) {
  const scaled = r.scaled.row(i);
  return {
    text: `${softmaxText(`A[${i + 1}][${j + 1}]`, scaled, r.weights.row(i), j)}, with row ${i + 1} of S/√${r.dk}`,
    sources: { scores: rowCells(i, r.scores.cols) },
  };
}

/** out[i][k] = Σ_j A[i][j] V[j][k]. */
export function explainOutput(r, i, k) {
  const n = r.weights.cols;
  const pairs = Array.from({ length: n }, (_, j) => [r.weights.get(i, j), r.V.get(j, k)]);
  return {
    text: `out[${i + 1}][${k + 1}] = Σ_j A[${i + 1}][j] V[j][${k + 1}] = ${sumOfProducts(pairs)} = ${shown(r.output.get(i, k))}`,
    sources: { weights: rowCells(i, n), V: columnCells(n, k) },
  };
}
