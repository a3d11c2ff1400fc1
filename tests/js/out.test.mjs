// options.out: results written into a Matrix the caller owns (web/src/api/out.js).
// Reference: the same call without `out` (a new result) must give the same bits;
// the out Matrix is the one returned, its buffer is not replaced, and an out of
// the wrong shape or element type is refused before anything runs (a RandomState
// does not advance, nothing is written), with the module still working after.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention, Matrix } from '../../dist/lib/index.js';

const a = await loadAttention();

/** A (rows x cols) Matrix of NumPy-exact normal draws. */
function draws(seed, rows, cols) {
  const rs = new a.RandomState(seed);
  try {
    return rs.randn(rows, cols);
  } finally {
    rs.delete();
  }
}

/** A Matrix of the shape filled with NaN, so entries the call fails to write show up. */
const poisoned = (rows, cols, Type = Float64Array) => new Matrix(rows, cols, new Type(rows * cols).fill(NaN));

/** out is returned, keeps its buffer, and holds exactly the fresh result's entries. */
function assertWrittenInto(result, out, fresh) {
  const buffer = out.data.buffer;
  assert.equal(result, out);
  assert.equal(out.data.buffer, buffer);
  assert.deepEqual(Array.from(out.data), Array.from(fresh.data));
}

test('matmul writes into out, float64 and float32, at odd sizes', () => {
  for (const [m, k, n] of [
    [1, 1, 1],
    [3, 5, 17],
    [129, 7, 3],
  ]) {
    const A = draws(1, m, k);
    const B = draws(2, k, n);
    const out = poisoned(m, n);
    assertWrittenInto(a.matmul(A, B, { out }), out, a.matmul(A, B));
    const out32 = poisoned(m, n, Float32Array);
    const r32 = a.matmul(A, B, { precision: 'float32', out: out32 });
    assertWrittenInto(r32, out32, a.matmul(A, B, { precision: 'float32' }));
  }
});

test('matmul: out may be an input (the inputs are copied into the wasm heap first)', () => {
  const A = draws(3, 4, 4);
  const B = draws(4, 4, 4);
  const expected = a.matmul(A, B);
  const alias = new Matrix(4, 4, A.data.slice());
  a.matmul(alias, B, { out: alias });
  assert.deepEqual(Array.from(alias.data), Array.from(expected.data));
});

test('attentionScores, scaledDotProductAttention and multiHeadAttention write into out', () => {
  const [n, nk, d] = [17, 9, 8];
  const Q = draws(5, n, d);
  const K = draws(6, nk, d);
  const V = draws(7, nk, d);
  const mask = { rows: n, cols: nk, data: Float64Array.from({ length: n * nk }, (_, i) => (i % 5 === 1 ? 0 : 1)) };

  const scores = poisoned(n, nk);
  assertWrittenInto(
    a.attentionScores(Q, K, { scaled: true, out: scores }),
    scores,
    a.attentionScores(Q, K, { scaled: true }),
  );

  const fresh = a.scaledDotProductAttention(Q, K, V, { mask });
  const out = { output: poisoned(n, d), weights: poisoned(n, nk) };
  const r = a.scaledDotProductAttention(Q, K, V, { mask, out });
  assertWrittenInto(r.output, out.output, fresh.output);
  assertWrittenInto(r.weights, out.weights, fresh.weights);
  // One part alone: the other is a new Matrix.
  const weightsOnly = poisoned(n, nk);
  const r2 = a.scaledDotProductAttention(Q, K, V, { mask, out: { weights: weightsOnly } });
  assertWrittenInto(r2.weights, weightsOnly, fresh.weights);
  assert.deepEqual(Array.from(r2.output.data), Array.from(fresh.output.data));

  const W = [10, 11, 12, 13].map((seed) => draws(seed, d, d));
  const opts = { heads: 2, Wq: W[0], Wk: W[1], Wv: W[2], Wo: W[3], causal: true };
  const mhaFresh = a.multiHeadAttention(Q, Q, Q, opts);
  const mhaOut = { output: poisoned(n, d), weights: [poisoned(n, n), poisoned(n, n)] };
  const mha = a.multiHeadAttention(Q, Q, Q, { ...opts, out: mhaOut });
  assertWrittenInto(mha.output, mhaOut.output, mhaFresh.output);
  mha.weights.forEach((w, h) => assertWrittenInto(w, mhaOut.weights[h], mhaFresh.weights[h]));
  // An absent entry gets a new Matrix; the given one is written into.
  const firstHead = poisoned(n, n);
  const partial = a.multiHeadAttention(Q, Q, Q, { ...opts, out: { weights: [firstHead, undefined] } });
  assertWrittenInto(partial.weights[0], firstHead, mhaFresh.weights[0]);
  assert.deepEqual(Array.from(partial.weights[1].data), Array.from(mhaFresh.weights[1].data));

  // float32 into Float32Array storage.
  const out32 = { output: poisoned(n, d, Float32Array), weights: poisoned(n, nk, Float32Array) };
  const r32 = a.scaledDotProductAttention(Q, K, V, { precision: 'float32', out: out32 });
  const fresh32 = a.scaledDotProductAttention(Q, K, V, { precision: 'float32' });
  assertWrittenInto(r32.output, out32.output, fresh32.output);
  assertWrittenInto(r32.weights, out32.weights, fresh32.weights);
});

test('RandomState.randn, rand and randint write into out, continuing the same stream', () => {
  const rs = new a.RandomState(42);
  const ref = new a.RandomState(42);
  try {
    const out = poisoned(3, 5);
    assertWrittenInto(rs.randn(3, 5, { out }), out, ref.randn(3, 5));
    assertWrittenInto(rs.rand(3, 5, { out }), out, ref.rand(3, 5));
    assertWrittenInto(rs.randint(-4, 9, 3, 5, { out }), out, ref.randint(-4, 9, 3, 5));
    assert.deepEqual(Array.from(rs.randn(2, 2).data), Array.from(ref.randn(2, 2).data));
  } finally {
    rs.delete();
    ref.delete();
  }
});

test('a wrong out is refused before anything runs, naming the function, the argument and the shapes', () => {
  const A = draws(1, 3, 4);
  const B = draws(2, 4, 5);
  const cases = [
    [
      () => a.matmul(A, B, { out: poisoned(3, 4) }),
      RangeError,
      /^matmul: options\.out is 3x4 with 12 entries, the result is 3x5$/,
    ],
    [() => a.matmul(A, B, { out: poisoned(5, 3) }), RangeError, /matmul: options\.out is 5x3 .* the result is 3x5/],
    [() => a.matmul(A, B, { out: { rows: 3, cols: 5, data: new Float64Array(14) } }), RangeError, /with 14 entries/],
    [
      () => a.matmul(A, B, { out: poisoned(3, 5, Float32Array) }),
      TypeError,
      /options\.out\.data must be a Float64Array \(the result is float64\), got a Float32Array/,
    ],
    [
      () => a.matmul(A, B, { precision: 'float32', out: poisoned(3, 5) }),
      TypeError,
      /must be a Float32Array \(the result is float32\)/,
    ],
    [() => a.matmul(A, B, { out: [[1, 2, 3, 4, 5]] }), TypeError, /options\.out\.data must be a Float64Array/],
    [() => a.matmul(A, B, { out: 'C' }), TypeError, /^matmul: options\.out must be a Matrix, got a string$/],
    [
      () => a.attentionScores(A, A, { out: poisoned(4, 4) }),
      RangeError,
      /^attentionScores: options\.out is 4x4 .* the result is 3x3$/,
    ],
    [
      () => a.scaledDotProductAttention(A, A, A, { out: poisoned(3, 3) }),
      TypeError,
      /^scaledDotProductAttention: options\.out must be a plain object \(\{ \.\.\. \}\), got a Matrix$/,
    ],
    [
      () => a.scaledDotProductAttention(A, A, A, { out: { output: poisoned(3, 4), weight: poisoned(3, 3) } }),
      TypeError,
      /^scaledDotProductAttention: unknown option 'weight' in options\.out \(known: output, weights\)$/,
    ],
    [
      () => a.scaledDotProductAttention(A, A, A, { out: { weights: poisoned(3, 4) } }),
      RangeError,
      /^scaledDotProductAttention: options\.out\.weights is 3x4 .* the result is 3x3$/,
    ],
    [
      () => a.scaledDotProductAttention(A, A, A, { out: { output: poisoned(3, 3) } }),
      RangeError,
      /options\.out\.output is 3x3 .* the result is 3x4/,
    ],
  ];
  const W = draws(3, 4, 4);
  const mha = (out) => a.multiHeadAttention(A, A, A, { heads: 2, Wq: W, Wk: W, Wv: W, Wo: W, out });
  cases.push(
    [
      () => mha({ weights: [poisoned(3, 3)] }),
      RangeError,
      /^multiHeadAttention: options\.out\.weights holds 1 matrices, the result has 2$/,
    ],
    [
      () => mha({ weights: poisoned(3, 3) }),
      TypeError,
      /options\.out\.weights must be an array of 2 matrices, got a Matrix/,
    ],
    [
      () => mha({ weights: [poisoned(3, 3), poisoned(3, 2)] }),
      RangeError,
      /options\.out\.weights\[1\] is 3x2 .* the result is 3x3/,
    ],
  );
  for (const [call, Type, message] of cases) assert.throws(call, (e) => e instanceof Type && message.test(e.message));

  // Refused before the draw: the generator has not moved, the out Matrix is untouched.
  const rs = new a.RandomState(7);
  const ref = new a.RandomState(7);
  try {
    const wrong = poisoned(2, 2);
    assert.throws(
      () => rs.randn(2, 3, { out: wrong }),
      /^RangeError: RandomState\.randn: options\.out is 2x2 with 4 entries, the result is 2x3$/,
    );
    assert.throws(() => rs.randn(2, 2, { into: wrong }), /^TypeError: RandomState\.randn: unknown option 'into'/);
    assert.ok(wrong.data.every(Number.isNaN));
    assert.deepEqual(Array.from(rs.randn(2, 3).data), Array.from(ref.randn(2, 3).data));
  } finally {
    rs.delete();
    ref.delete();
  }
  // The module still works.
  assert.deepEqual(Array.from(a.matmul(A, B, { out: poisoned(3, 5) }).data), Array.from(a.matmul(A, B).data));
});
