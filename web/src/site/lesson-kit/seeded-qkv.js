// The seeded Q, K, V a chapter draws for its own numbers (np.random.seed(seed);
// Q, K, V = randn three times, in that order) and their entry in the trace.

/** { Q: n × dK, K: n × dK, V: n × dV } from RandomState(seed), NumPy's draws. */
export function drawQkv(api, seed, n, dK, dV = dK) {
  const rs = new api.RandomState(seed);
  try {
    return { Q: rs.randn(n, dK), K: rs.randn(n, dK), V: rs.randn(n, dV) };
  } finally {
    rs.delete();
  }
}

/** Records Q, K, V as the computation's inputs (traced API `t`), one row per token. */
export function inputQkv(t, { Q, K, V }, rowLabels) {
  t.input('Q', Q, { symbol: 'Q', row: 'q', rowLabels });
  t.input('K', K, { symbol: 'K', row: 'k', rowLabels });
  t.input('V', V, { symbol: 'V', row: 'v', rowLabels });
}
