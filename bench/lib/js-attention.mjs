// The plain JS baseline of `npm run bench`: softmax(Q Kᵀ / sqrt(d)) V with
// nested loops on Float64Array, no tricks.

/** Q, K, V: (n x d) row-major -> { output: (n x d), weights: (n x n) }. */
export function jsAttention(Q, K, V, n, d) {
  const W = new Float64Array(n * n);
  const scale = 1 / Math.sqrt(d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let t = 0; t < d; t++) s += Q[i * d + t] * K[j * d + t];
      W[i * n + j] = s * scale;
    }
  }
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    for (let j = 0; j < n; j++) max = Math.max(max, W[i * n + j]);
    let sum = 0;
    for (let j = 0; j < n; j++) sum += W[i * n + j] = Math.exp(W[i * n + j] - max);
    for (let j = 0; j < n; j++) W[i * n + j] /= sum;
  }
  const O = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const w = W[i * n + j];
      for (let t = 0; t < d; t++) O[i * d + t] += w * V[j * d + t];
    }
  }
  return { output: O, weights: W };
}
