// float32 vs float64 through the same public JS API (wasm, in Node), one
// thread: matmul 512³, scaled dot-product attention n ∈ {64, 256, 1024} with
// d = 64, multi-head attention n = 512, d_model = 512, 8 heads. The float32
// inputs are the float64 inputs rounded to Float32Array, so the default rule
// picks float32 (precision.js); conversions and copies are included as a user
// would pay them. Used by bench/run.mjs.
import { pathToFileURL } from 'node:url';

function time(body, { minRuns = 5, maxRuns = 40, budgetMs = 1500 } = {}) {
  body(); // warm-up (and wasm tier-up)
  const times = [];
  const start = performance.now();
  while (times.length < minRuns || (times.length < maxRuns && performance.now() - start < budgetMs)) {
    const t0 = performance.now();
    body();
    times.push(performance.now() - t0);
  }
  times.sort((x, y) => x - y);
  return { min: times[0], median: times[times.length >> 1] };
}

const better = (a, b) => (!a || b.min < a.min ? b : a);
const fmt = (t) => `${t.min.toFixed(2)} (${t.median.toFixed(2)})`;

// Deterministic normal-ish data (sum of uniforms), as a float64 and a float32 Matrix.
function pair(Matrix, rows, cols, seed, scale = 1) {
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < data.length; i++) data[i] = (next() + next() + next() - 1.5) * scale;
  return { f64: new Matrix(rows, cols, data), f32: new Matrix(rows, cols, Float32Array.from(data)) };
}

/** The cases: each is a label and a body(precisionKey) running one call. */
function cases(a) {
  const { Matrix } = a;
  const list = [];
  const A = pair(Matrix, 512, 512, 1);
  const B = pair(Matrix, 512, 512, 2);
  list.push({ label: 'matmul 512 x 512 x 512', run: (p) => a.matmul(A[p], B[p]) });
  for (const n of [64, 256, 1024]) {
    const Q = pair(Matrix, n, 64, 10 + n);
    const K = pair(Matrix, n, 64, 20 + n);
    const V = pair(Matrix, n, 64, 30 + n);
    list.push({ label: `SDPA n = ${n}, d = 64`, run: (p) => a.scaledDotProductAttention(Q[p], K[p], V[p]) });
  }
  const X = pair(Matrix, 512, 512, 99);
  const s = 1 / Math.sqrt(512);
  const W = [pair(Matrix, 512, 512, 5, s), pair(Matrix, 512, 512, 6, s), pair(Matrix, 512, 512, 7, s)];
  const Wo = pair(Matrix, 512, 512, 8, s);
  const params = (p) => ({ heads: 8, Wq: W[0][p], Wk: W[1][p], Wv: W[2][p], Wo: Wo[p] });
  const mha = { f64: params('f64'), f32: params('f32') };
  list.push({
    label: 'MHA n = 512, d_model = 512, 8 heads',
    run: (p) => a.multiHeadAttention(X[p], X[p], X[p], mha[p]),
  });
  return list;
}

/**
 * Times every case in float64 and float32 (alternating rounds, best round
 * kept), prints a Markdown table and returns the rows.
 * @param {any} a the loaded API
 */
export function benchPrecision(a, { rounds = 3 } = {}) {
  const rows = [];
  for (const c of cases(a)) {
    // The default rule must pick what the columns say.
    const sample = (p) => {
      const result = c.run(p);
      return result.output ? result.output.data : result.data;
    };
    if (!(sample('f32') instanceof Float32Array) || !(sample('f64') instanceof Float64Array)) {
      throw new Error(`${c.label}: the default rule did not pick float32 / float64`);
    }
    let f64 = null;
    let f32 = null;
    for (let round = 0; round < rounds; round++) {
      f64 = better(
        f64,
        time(() => c.run('f64')),
      );
      f32 = better(
        f32,
        time(() => c.run('f32')),
      );
    }
    rows.push({ label: c.label, f64, f32 });
  }
  console.log('\nfloat32 vs float64, wasm through the JS API (Node, one thread), ms: best (median)\n');
  console.log('| operation | float64 | float32 | float64 / float32 |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const r of rows) {
    console.log(`| ${r.label} | ${fmt(r.f64)} | ${fmt(r.f32)} | ${(r.f64.min / r.f32.min).toFixed(2)}x |`);
  }
  return rows;
}

// Alone: `node bench/precision.mjs [rounds]`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { loadAttention } = await import(new URL('../dist/lib/index.js', import.meta.url).href);
  benchPrecision(await loadAttention(), { rounds: Number(process.argv[2] ?? 3) });
}
