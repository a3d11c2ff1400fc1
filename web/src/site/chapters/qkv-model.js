// The computations of the "Q/K/V attention from scratch" chapter, kept apart
// from the page so node tests can check them against NumPy (tests/js/qkv.test.mjs).
// Every number comes from the attention-lab API; this file only chains calls.

/** The article's four word vectors, one row per word. */
export const ARTICLE_WORDS = [[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1]];

/**
 * W_Q, W_K, W_V as the article draws them: np.random.seed(seed), then three
 * randint(0, 3, size=(3, 3)) calls, in that order.
 * @param {import('attention-lab').Attention} api
 * @param {number} seed
 */
export function drawWeights(api, seed, size = 3) {
  const rs = new api.RandomState(seed);
  try {
    return { WQ: rs.randint(0, 3, size, size).toArray(), WK: rs.randint(0, 3, size, size).toArray(), WV: rs.randint(0, 3, size, size).toArray() };
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
  const scores = api.matmul(Q, K.transpose()); // (n x n): query i . key j
  const dk = K.cols;
  const scale = Math.sqrt(dk);
  const scaled = new api.Matrix(scores.rows, scores.cols, scores.data.map((x) => x / scale));
  const weights = new api.Matrix(scores.rows, scores.cols);
  for (let i = 0; i < scores.rows; i++) weights.data.set(api.softmax(scaled.row(i)), i * scores.cols);
  const output = api.matmul(weights, V); // (n x d_v): each row a weighted mix of the values
  return { Q, K, V, scores, dk, scaled, weights, output };
}
