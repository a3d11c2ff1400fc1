// Scores that overflow float64 (or float32) from finite inputs are reported the
// same way by every attention function: a RangeError naming the function, the
// score and the inputs to scale down, never NaN weights (issue: hostile input).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';

const a = await loadAttention();
const F64 = 'overflows float64 (|score| > 1.8e308)';

test('the issue reproduction: scaled dot-product and multi-head attention throw instead of returning NaN', () => {
  const Q = [[1e200, 1e200]];
  const K = [
    [1e200, 1e200],
    [-1e200, 1e200],
  ];
  const V = [
    [1, 2],
    [3, 4],
  ];
  assert.throws(() => a.scaledDotProductAttention(Q, K, V), {
    name: 'RangeError',
    message: `scaledDotProductAttention: score (0, 0) of Q·Kᵀ ${F64}; scale Q or K down`,
  });
  assert.throws(() => a.scaledDotProductAttention(Q, K, V, { causal: false }), RangeError);
  assert.throws(() => a.attentionScores(Q, K, { scaled: true }), /^RangeError: attentionScores: score \(0, 0\)/);
  const I = [
    [1, 0],
    [0, 1],
  ];
  assert.throws(() => a.multiHeadAttention(Q, K, V, { heads: 1, Wq: I, Wk: I, Wv: I, Wo: I }), {
    name: 'RangeError',
    message: `multiHeadAttention: head 0: score (0, 0) of (Q·Wq)·(K·Wk)ᵀ ${F64}; scale Q, K, Wq or Wk down`,
  });
  assert.throws(() => a.dot([1e200, 1e200], [1e200, 1e200]), { message: `dot: a · b ${F64}; scale a or b down` });
  assert.throws(() => a.dotScores([1e200], [[1e200]]), /^RangeError: dotScores: score 0/);
  // A masked overflow is no error: its weight is 0 either way.
  const r = a.scaledDotProductAttention(
    Q,
    [
      [1e200, 1e200],
      [1, 1],
    ],
    V,
    { mask: [[0, 1]] },
  );
  assert.deepEqual(Array.from(r.weights.data), [0, 1]);
  assert.equal(a.dot([5, 1, 20], [3, 12, 45]), 927);
});

test('Bahdanau concat scores: NaN from inf − inf is reported, not returned; saturation is fine', () => {
  // W1ᵀ [h; s] = 1e308·1e10 − 1e308·1e10 = inf − inf.
  assert.throws(() => a.concatScores([[1e308]], [1e308], [[1e10], [-1e10]], [1]), {
    name: 'RangeError',
    message:
      `concatScores: score 0 (w2 · tanh(W1ᵀ [h_0; s])) ${F64}; ` + 'scale encoderStates, decoderState, W1 or w2 down',
  });
  assert.throws(() => a.concatAttention([[1e308]], [1e308], [[1e10], [-1e10]], [1]), /^RangeError: concatAttention: /);
  // tanh(inf) = 1: a saturated score is a real number.
  assert.deepEqual(Array.from(a.concatScores([[1e308]], [1e308], [[1], [1]], [2])), [2]);
});

test('float32: products past 3.4e38 overflow the same way', () => {
  const f = (rows) => ({ rows: rows.length, cols: rows[0].length, data: Float32Array.from(rows.flat()) });
  assert.throws(() => a.scaledDotProductAttention(f([[1e20, 1e20]]), f([[1e20, 1e20]]), f([[1]])), {
    name: 'RangeError',
    message: 'scaledDotProductAttention: score (0, 0) of Q·Kᵀ overflows float32 (|score| > 3.4e38); scale Q or K down',
  });
  const ok = a.scaledDotProductAttention(f([[1e10, 1e10]]), f([[1e10, 1e10]]), f([[1]]));
  assert.equal(ok.weights.data[0], 1);
});
