// toMatrix copies what it is given (callers keep the result: layer weights);
// borrowMatrix, for arguments copied straight into the wasm heap, borrows a
// typed array instead of copying it, and validates exactly like toMatrix.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { borrowMatrix, toMatrix } from '../../dist/lib/convert.js';
import { loadAttention } from '../../dist/lib/index.js';

const a = await loadAttention();

test('toMatrix copies typed data; borrowMatrix borrows its memory (a fixed view of exactly rows x cols); arrays are copied by both', () => {
  const data = new Float64Array([1, 2, 3, 4, 5, 6]);
  const copied = toMatrix({ rows: 2, cols: 3, data }, 'f', 'x');
  assert.notEqual(copied.data, data);
  assert.deepEqual(Array.from(copied.data), [1, 2, 3, 4, 5, 6]);
  const borrowed = borrowMatrix({ rows: 2, cols: 3, data }, 'f', 'x');
  assert.equal(borrowed.data.buffer, data.buffer);
  assert.equal(borrowed.data.length, 6);
  data[0] = 7; // the same memory, not a copy
  assert.equal(borrowed.data[0], 7);
  const f32 = new Float32Array([0.1, 0.2]);
  const borrowed32 = borrowMatrix({ rows: 1, cols: 2, data: f32 }, 'f', 'x').data;
  assert.ok(borrowed32 instanceof Float32Array && borrowed32.buffer === f32.buffer);
  assert.ok(toMatrix({ rows: 1, cols: 2, data: f32 }, 'f', 'x').data instanceof Float64Array);
  const rows = [
    [1, 2],
    [3, 4],
  ];
  assert.deepEqual(Array.from(borrowMatrix(rows, 'f', 'x').data), [1, 2, 3, 4]);
  const plain = [1, 2];
  assert.notEqual(borrowMatrix({ rows: 1, cols: 2, data: plain }, 'f', 'x').data, plain);
});

test('borrowMatrix refuses what toMatrix refuses, with the same errors', () => {
  const bad = [
    { rows: 2, cols: 2, data: new Float64Array(3) },
    { rows: 2, cols: '2', data: new Float64Array(4) },
    { rows: 1, cols: 2, data: new Int32Array(2) },
    [[1, 2], [3]],
    [],
    42,
  ];
  for (const value of bad) {
    let expected;
    try {
      toMatrix(value, 'f', 'x');
    } catch (error) {
      expected = error;
    }
    assert.ok(expected, `toMatrix refuses ${JSON.stringify(value)}`);
    assert.throws(() => borrowMatrix(value, 'f', 'x'), { name: expected.name, message: expected.message });
  }
});

test('a borrowed argument is read, never written: the caller keeps its numbers, results are its own', () => {
  const A = new a.Matrix(2, 2, new Float64Array([1, 2, 3, 4]));
  const B = new a.Matrix(2, 2, new Float64Array([5, 6, 7, 8]));
  const product = a.matmul(A, B);
  assert.deepEqual(Array.from(product.data), [19, 22, 43, 50]); // by hand
  assert.deepEqual(Array.from(A.data), [1, 2, 3, 4]);
  assert.deepEqual(Array.from(B.data), [5, 6, 7, 8]);
  A.data[0] = 100; // changing the input afterwards leaves the result alone
  assert.deepEqual(Array.from(product.data), [19, 22, 43, 50]);
  // The same array as every argument (and as the mask's shape source) is fine.
  const { output, weights } = a.scaledDotProductAttention(B, B, B, {
    mask: { rows: 2, cols: 2, data: new Float64Array([1, 0, 1, 1]) },
  });
  assert.equal(weights.get(0, 1), 0);
  assert.deepEqual(Array.from(output.row(0)), [5, 6]);
  assert.deepEqual(Array.from(B.data), [5, 6, 7, 8]);
});
