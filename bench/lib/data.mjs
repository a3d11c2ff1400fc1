// Benchmark inputs and comparisons shared by bench/run.mjs and bench/peers.mjs.

/** Deterministic pseudo-random normal-ish data (sum of three uniforms), row-major float64. */
export function randomMatrix(rows, cols, seed) {
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < data.length; i++) data[i] = next() + next() + next() - 1.5;
  return { rows, cols, data };
}

/** The same matrix rounded to float32 (what a float32 peer is given). */
export const toFloat32 = (m) => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data) });

/** max |a_i - b_i| over two equally long arrays (NaN if the lengths differ). */
export function maxAbsDiff(a, b) {
  if (a.length !== b.length) return NaN;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff = Math.max(diff, Math.abs(a[i] - b[i]));
  return diff;
}
