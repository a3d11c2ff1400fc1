// The float32 path of matmul, attentionScores, scaledDotProductAttention and
// multiHeadAttention through the built package: the default precision rule,
// explicit precision both ways, Float32Array results, errors, masks, causal
// and heads, each float32 result compared with the float64 result the same
// API computes from the same numbers (float32 inputs are exact in float64).
//
// Tolerances are the first-order rounding-error bounds derived in
// tests/cpp/test_float32_attention.cpp (u = 2^-24, gamma(k) = k u / (1 - k u)):
//   matmul:  |dC| <= gamma(k + 1) (|A| |B|), entry by entry;
//   scores:  |ds| <= E = scale gamma(d + 2) (|Q| |K|^T);
//   weights: |dw| <= delta w + 4 * 2^-149, 1 + delta = exp(2 (2 E_max + u |x|_max + 4u))
//            (1 + gamma(n + 3)) (1 + u)^2, x = s - max s over the row's allowed keys;
//   output:  |do| <= (delta + gamma(n) (1 + delta)) (w |V|).
// Multi-head attention composes four such stages (three projections, the
// heads, the output projection); here it is checked against a stated bound
// 64 (d_model + n_k) u relative to max |output| (the C++ test checks the
// entry-by-entry composed bound).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention, Matrix } from '../../dist/lib/index.js';

const a = await loadAttention();
const u = 2 ** -24;
const gamma = (k) => (k * u) / (1 - k * u);
const SUBNORMAL_SLACK = 4 * 2 ** -149;

// Deterministic N(0, 1)-like draws (sum of uniforms), rounded to float32.
function generator(seed) {
  let state = seed >>> 0;
  const uniform = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return (rows, cols, scale = 1) => {
    const data = new Float32Array(rows * cols);
    for (let i = 0; i < data.length; i++) {
      let s = -6;
      for (let t = 0; t < 12; t++) s += uniform();
      data[i] = s * scale;
    }
    return new Matrix(rows, cols, data);
  };
}

const as64 = (m) => new Matrix(m.rows, m.cols, Float64Array.from(m.data));
const absProduct = (x, y, transposeY = false) => {
  const [n, k, m] = [x.rows, x.cols, transposeY ? y.rows : y.cols];
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let t = 0; t < k; t++)
        s += Math.abs(x.data[i * k + t]) * Math.abs(transposeY ? y.data[j * k + t] : y.data[t * m + j]);
      out[i * m + j] = s;
    }
  return out;
};

function randomMask(rows, cols, seed) {
  const draw = generator(seed);
  const noise = draw(rows, cols).data;
  // About 70% ones; row 0 fully masked when there are several rows.
  return new Matrix(
    rows,
    cols,
    Float64Array.from(noise, (x, i) => (rows > 1 && i < cols ? 0 : x > -0.52 ? 1 : 0)),
  );
}

/** Checks float32 SDPA weights/output against float64 with the derived bound. */
function checkSdpa(r32, r64, Q, K, V, mask, causal, label) {
  const [nq, nk, d] = [Q.rows, K.rows, Q.cols];
  const scale = 1 / Math.sqrt(d);
  const qk = absProduct(Q, K, true);
  const vAbs = V.data.map(Math.abs);
  for (let i = 0; i < nq; i++) {
    const allowed = [];
    for (let j = 0; j < nk; j++) if (!(mask && mask.data[i * nk + j] === 0) && !(causal && j > i)) allowed.push(j);
    for (let j = 0; j < nk; j++) {
      if (!allowed.includes(j)) {
        assert.equal(r32.weights.data[i * nk + j], 0, `${label}: masked weight (${i}, ${j}) is exactly 0`);
        assert.equal(r64.weights.data[i * nk + j], 0, `${label}: masked weight (${i}, ${j}) is exactly 0 in float64`);
      }
    }
    if (allowed.length === 0) {
      for (let l = 0; l < V.cols; l++)
        assert.equal(r32.output.data[i * V.cols + l], 0, `${label}: row ${i} output is 0`);
      continue;
    }
    let s = allowed.map((j) => {
      let dot = 0;
      for (let t = 0; t < d; t++) dot += Q.data[i * d + t] * K.data[j * d + t];
      return dot * scale;
    });
    const max = Math.max(...s);
    const maxArgument = Math.max(...s.map((x) => max - x));
    const maxError = Math.max(...allowed.map((j) => scale * gamma(d + 2) * qk[i * nk + j]));
    const eta = 2 * maxError + u * maxArgument + 4 * u;
    const delta = Math.exp(2 * eta) * (1 + gamma(allowed.length + 3)) * (1 + u) ** 2 - 1;
    for (const j of allowed) {
      const w64 = r64.weights.data[i * nk + j];
      const err = Math.abs(r32.weights.data[i * nk + j] - w64);
      assert.ok(
        err <= delta * w64 + SUBNORMAL_SLACK,
        `${label}: weight (${i}, ${j}) off by ${err}, bound ${delta * w64}`,
      );
    }
    for (let l = 0; l < V.cols; l++) {
      let magnitude = 0;
      for (let j = 0; j < nk; j++) magnitude += r64.weights.data[i * nk + j] * vAbs[j * V.cols + l];
      const bound = (delta + gamma(nk) * (1 + delta)) * magnitude + nk * SUBNORMAL_SLACK;
      const err = Math.abs(r32.output.data[i * V.cols + l] - r64.output.data[i * V.cols + l]);
      assert.ok(err <= bound, `${label}: output (${i}, ${l}) off by ${err}, bound ${bound}`);
    }
    s = null;
  }
}

test('default rule: float32 when every input is Float32Array-backed, else float64', () => {
  const draw = generator(1);
  const A = draw(3, 5);
  const B = draw(5, 2);
  const rows = (m) => Array.from({ length: m.rows }, (_, r) => m.row(r));
  assert.ok(a.matmul(A, B).data instanceof Float32Array, 'Matrix with Float32Array data');
  assert.ok(a.matmul(rows(A), rows(B)).data instanceof Float32Array, 'rows that are Float32Arrays');
  assert.ok(a.matmul({ rows: 3, cols: 5, data: A.data }, B).data instanceof Float32Array, '{rows, cols, data}');
  assert.ok(a.matmul(as64(A), as64(B)).data instanceof Float64Array, 'Float64Array data');
  assert.ok(a.matmul(A.toArray(), B.toArray()).data instanceof Float64Array, 'plain arrays stay float64');
  assert.ok(a.matmul(A, as64(B)).data instanceof Float64Array, 'mixed: float64');
  assert.ok(a.matmul(A, B.toArray()).data instanceof Float64Array, 'mixed with plain arrays: float64');
  // The mask does not count: Float32Array Q, K, V with a plain-array mask run in float32.
  const Q = draw(2, 4);
  const r = a.scaledDotProductAttention(Q, Q, Q, {
    mask: [
      [1, 0],
      [1, 1],
    ],
  });
  assert.ok(r.output.data instanceof Float32Array && r.weights.data instanceof Float32Array);
  assert.ok(a.attentionScores(Q, Q).data instanceof Float32Array);
  assert.ok(a.attentionScores(Q.toArray(), Q.toArray()).data instanceof Float64Array);
});

test('explicit precision both ways', () => {
  const draw = generator(2);
  const A = draw(4, 3);
  const B = draw(3, 6);
  const forced64 = a.matmul(A, B, { precision: 'float64' });
  assert.ok(forced64.data instanceof Float64Array);
  assert.deepEqual(
    forced64.data,
    a.matmul(as64(A), as64(B)).data,
    'float64 on float32 data = float64 on the same numbers',
  );
  const forced32 = a.matmul(A.toArray(), B.toArray(), { precision: 'float32' });
  assert.ok(forced32.data instanceof Float32Array);
  assert.deepEqual(forced32.data, a.matmul(A, B).data, 'plain arrays rounded to float32 = the Float32Array path');
  const sdpa = a.scaledDotProductAttention(A.toArray(), A.toArray(), A.toArray(), {
    precision: 'float32',
    causal: true,
  });
  assert.ok(sdpa.weights.data instanceof Float32Array);
  assert.equal(sdpa.weights.get(0, 1), 0);
  assert.ok(a.attentionScores(A, A, { scaled: true, precision: 'float64' }).data instanceof Float64Array);
});

test('bad precision: RangeError for an unknown value, TypeError for a wrong type; the module keeps working', () => {
  const X = [
    [1, 2],
    [3, 4],
  ];
  assert.throws(() => a.matmul(X, X, { precision: 'float16' }), {
    name: 'RangeError',
    message: "matmul: options.precision must be one of 'float32', 'float64', got 'float16'",
  });
  assert.throws(() => a.scaledDotProductAttention(X, X, X, { precision: 32 }), {
    name: 'TypeError',
    message: 'scaledDotProductAttention: options.precision must be a string, got a number',
  });
  assert.throws(
    () => a.attentionScores(X, X, { precision: 'double' }),
    /attentionScores: options.precision must be one of/,
  );
  assert.throws(() => a.multiHeadAttention(X, X, X, { heads: 1, Wq: X, Wk: X, Wv: X, Wo: X, precision: null }), {
    name: 'TypeError',
    message: /multiHeadAttention: options.precision must be a string, got null/,
  });
  assert.throws(() => a.matmul(X, X, { precison: 'float32' }), {
    name: 'TypeError',
    message: /unknown option 'precison'/,
  });
  // Shape errors name the function and shapes in float32 too.
  const f = new Matrix(2, 3, new Float32Array(6));
  assert.throws(() => a.matmul(f, f), {
    name: 'RangeError',
    message: "matmul: a is 2x3 and b is 2x3; a's columns (3) must equal b's rows (2)",
  });
  const bad = new Matrix(1, 1, new Float32Array([NaN]));
  assert.throws(() => a.matmul(bad, bad), { name: 'RangeError', message: /matmul: a\[0\]\[0\] is NaN/ });
  assert.deepEqual(Array.from(a.matmul(X, X, { precision: 'float32' }).data), [7, 10, 15, 22]);
});

test('size policy counts 4 bytes per float32 entry', () => {
  const col = new Matrix(2 ** 15, 1, new Float32Array(2 ** 15));
  const row = new Matrix(1, 2 ** 14, new Float32Array(2 ** 14));
  // Refused before allocating: 2^29 entries are 2 GiB in float32, 4 GiB in float64.
  assert.throws(() => a.matmul(col, row), {
    name: 'RangeError',
    message: /matmul: result \(32768x16384\) needs 2\.0 GiB/,
  });
  assert.throws(() => a.matmul(col, row, { precision: 'float64' }), { message: /needs 4\.0 GiB/ });
  assert.equal(a.matmul(col, new Matrix(1, 2, new Float32Array([1, 2]))).rows, 2 ** 15);
});

test('matmul float32 equals float64 within gamma(k + 1) |A||B| at odd sizes', () => {
  const draw = generator(3);
  for (const m of [1, 3, 17, 129])
    for (const k of [1, 3, 17, 129])
      for (const n of [1, 3, 17]) {
        const A = draw(m, k);
        const B = draw(k, n);
        const c32 = a.matmul(A, B);
        const c64 = a.matmul(A, B, { precision: 'float64' });
        assert.ok(c32.data instanceof Float32Array);
        const scale = absProduct(A, B);
        for (let i = 0; i < c32.data.length; i++) {
          const err = Math.abs(c32.data[i] - c64.data[i]);
          assert.ok(err <= gamma(k + 1) * scale[i], `${m}x${k} . ${k}x${n}: entry ${i} off by ${err}`);
        }
      }
});

test('scaledDotProductAttention float32 equals float64 within the derived bound: odd sizes, masks, causal', () => {
  const draw = generator(4);
  let runs = 0;
  // n_k is the depth of weights · V: 129 runs the 4 x 4 packing of the weights
  // rows (gemm.cpp packFourRows) over 32 blocks and a 1-column tail.
  for (const nq of [1, 3, 17, 129])
    for (const nk of [1, 3, 17, 129])
      for (const d of [1, 3, 5, 63, 65])
        for (const variant of ['none', 'mask', 'causal', 'both']) {
          const spread = variant === 'both' ? 4 : 1;
          const Q = draw(nq, d, spread);
          const K = draw(nk, d, spread);
          const V = draw(nk, d + 2);
          const useMask = variant === 'mask' || variant === 'both';
          const causal = variant === 'causal' || variant === 'both';
          const mask = useMask ? randomMask(nq, nk, runs + 11) : null;
          const r32 = a.scaledDotProductAttention(Q, K, V, { mask, causal });
          const r64 = a.scaledDotProductAttention(Q, K, V, { mask, causal, precision: 'float64' });
          assert.ok(r32.output.data instanceof Float32Array && r32.weights.data instanceof Float32Array);
          assert.ok(r64.output.data instanceof Float64Array);
          checkSdpa(r32, r64, Q, K, V, mask, causal, `n_q ${nq}, n_k ${nk}, d ${d}, ${variant}`);
          runs++;
        }
  assert.equal(runs, 4 * 4 * 5 * 4);
});

test('scaledDotProductAttention float32: wide score ranges take both forms of the wasm exp', () => {
  // The softmax kernel's exp multiplies by 2^k once when a row's smallest
  // argument is >= -87 and in two steps otherwise (subnormal weights rounded
  // once, cpp/ops/softmax_exp.h). Spread 1 keeps rows above that switch;
  // spreads 6 and 12 (scores of standard deviation about 36 and 144) put
  // arguments below it, in the subnormal range and past the underflow to 0,
  // in rows with and without a scalar tail (n_k 16, 17, 129).
  const draw = generator(6);
  for (const nk of [16, 17, 129])
    for (const d of [3, 64])
      for (const spread of [1, 6, 12])
        for (const causal of [false, true]) {
          const Q = draw(17, d, spread);
          const K = draw(nk, d, spread);
          const V = draw(nk, 5);
          const r32 = a.scaledDotProductAttention(Q, K, V, { causal });
          const r64 = a.scaledDotProductAttention(Q, K, V, { causal, precision: 'float64' });
          checkSdpa(r32, r64, Q, K, V, null, causal, `n_k ${nk}, d ${d}, spread ${spread}, causal ${causal}`);
        }
});

test('attentionScores float32 equals float64 within gamma(d + 2) scale |Q||K|^T', () => {
  const draw = generator(5);
  for (const d of [1, 3, 5, 63, 65]) {
    const Q = draw(17, d);
    const K = draw(3, d);
    for (const scaled of [false, true]) {
      const s32 = a.attentionScores(Q, K, { scaled });
      const s64 = a.attentionScores(Q, K, { scaled, precision: 'float64' });
      assert.ok(s32.data instanceof Float32Array);
      const bound = absProduct(Q, K, true).map((x) => gamma(d + 2) * (scaled ? 1 / Math.sqrt(d) : 1) * x);
      for (let i = 0; i < s32.data.length; i++) {
        assert.ok(Math.abs(s32.data[i] - s64.data[i]) <= bound[i], `d ${d}, scaled ${scaled}, entry ${i}`);
      }
    }
  }
});

test('multiHeadAttention float32 equals float64 (heads, biases, mask, causal)', () => {
  const draw = generator(6);
  for (const { nq, nk, dModel, heads, causal, masked, bias } of [
    { nq: 1, nk: 1, dModel: 4, heads: 1, causal: false, masked: false, bias: false },
    { nq: 9, nk: 9, dModel: 12, heads: 3, causal: true, masked: false, bias: true },
    { nq: 5, nk: 17, dModel: 20, heads: 4, causal: false, masked: true, bias: true },
    { nq: 33, nk: 33, dModel: 65, heads: 13, causal: true, masked: true, bias: false },
  ]) {
    const ws = 1 / Math.sqrt(dModel);
    const options = {
      heads,
      Wq: draw(dModel, dModel, ws),
      Wk: draw(dModel, dModel, ws),
      Wv: draw(dModel, dModel, ws),
      Wo: draw(dModel, dModel, ws),
      causal,
      mask: masked ? randomMask(nq, nk, nq + nk) : null,
    };
    if (bias) for (const b of ['bq', 'bk', 'bv', 'bo']) options[b] = draw(1, dModel).data;
    const Q = draw(nq, dModel);
    const K = draw(nk, dModel);
    const V = draw(nk, dModel);
    const r32 = a.multiHeadAttention(Q, K, V, options);
    const r64 = a.multiHeadAttention(Q, K, V, { ...options, precision: 'float64' });
    const label = `${heads} heads, d_model ${dModel}, n_k ${nk}`;
    assert.ok(r32.output.data instanceof Float32Array, `${label}: float32 by default`);
    assert.equal(r32.weights.length, heads);
    const outScale = Math.max(...r64.output.data.map(Math.abs));
    const tolerance = 64 * (dModel + nk) * u * outScale;
    for (let i = 0; i < r32.output.data.length; i++) {
      assert.ok(Math.abs(r32.output.data[i] - r64.output.data[i]) <= tolerance, `${label}: output ${i}`);
    }
    for (let h = 0; h < heads; h++) {
      const w32 = r32.weights[h];
      const w64 = r64.weights[h];
      assert.ok(w32.data instanceof Float32Array && w32.rows === nq && w32.cols === nk);
      for (let i = 0; i < w32.data.length; i++) {
        if (w64.data[i] === 0 && (causal || masked))
          assert.equal(w32.data[i], 0, `${label}: head ${h} masked entry ${i}`);
        assert.ok(Math.abs(w32.data[i] - w64.data[i]) <= 64 * (dModel + nk) * u, `${label}: head ${h} weight ${i}`);
      }
    }
  }
});

test('Matrix holds Float32Array data and keeps its type', () => {
  const m = new Matrix(2, 3, new Float32Array([1, 2, 3, 4, 5, 6]));
  assert.ok(m.row(1) instanceof Float32Array);
  assert.ok(m.transpose().data instanceof Float32Array);
  assert.deepEqual(m.transpose().toArray(), [
    [1, 4],
    [2, 5],
    [3, 6],
  ]);
  assert.ok(new Matrix(1, 1).data instanceof Float64Array);
  assert.throws(() => new Matrix(1, 1, new Int32Array(1)), {
    name: 'TypeError',
    message: 'Matrix: data must be a Float64Array or Float32Array, got a Int32Array',
  });
});
