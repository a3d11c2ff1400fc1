// The Q/K/V chapter's computation (web/src/site/chapters/qkv/model.js) on the
// built package, against NumPy longdouble references (tests/fixtures/qkv.txt).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { ARTICLE_WORDS, drawWeights, qkvAttention } from '../../web/src/site/chapters/qkv/model.js';
import { assertClose, loadFixture, STRICT_RELATIVE } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('qkv.txt');

test("seed 42 draws the article's W_Q, W_K, W_V", () => {
  const { WQ, WK, WV } = drawWeights(a, 42);
  assert.deepEqual(WQ, [
    [2, 0, 2],
    [2, 0, 0],
    [2, 1, 2],
  ]);
  assert.deepEqual(WK, [
    [2, 2, 2],
    [0, 2, 1],
    [0, 1, 1],
  ]);
  assert.deepEqual(WV, [
    [1, 1, 0],
    [0, 1, 1],
    [0, 0, 0],
  ]);
});

test('the article example: output to the printed 8 decimals', () => {
  const { WQ, WK, WV } = drawWeights(a, 42);
  const r = qkvAttention(a, ARTICLE_WORDS, WQ, WK, WV);
  assert.deepEqual(r.scores.toArray(), [
    [8, 2, 10, 2],
    [4, 0, 4, 0],
    [12, 2, 14, 2],
    [10, 4, 14, 3],
  ]);
  const printed = [
    [0.98522025, 1.74174051, 0.75652026],
    [0.90965265, 1.40965265, 0.5],
    [0.99851226, 1.75849334, 0.75998108],
    [0.99560386, 1.90407309, 0.90846923],
  ];
  assert.deepEqual(
    r.output.toArray().map((row) => row.map((x) => Number(x.toFixed(8)))),
    printed,
  );
});

test('every case matches NumPy: draws exactly, products to 1e-13, weights to 1e-12 relative', () => {
  const cases = ref.get('cases').data[0];
  assert.equal(cases, 7, 'make_qkv.py writes 7 cases (a loop over none would pass)');
  for (let i = 0; i < cases; i++) {
    const get = (name) => ref.get(`case${i}.${name}`);
    const W = drawWeights(a, get('seed').data[0]);
    assert.deepEqual(W.WQ.flat(), Array.from(get('W_Q').data), `case${i} W_Q`);
    assert.deepEqual(W.WK.flat(), Array.from(get('W_K').data), `case${i} W_K`);
    assert.deepEqual(W.WV.flat(), Array.from(get('W_V').data), `case${i} W_V`);
    const r = qkvAttention(a, get('words'), W.WQ, W.WK, W.WV);
    for (const name of ['Q', 'K', 'V', 'scores', 'output']) {
      assertClose(r[name].data, get(name).data, 1e-13, { label: `case${i} ${name}` });
    }
    // A weight's relative error is about the absolute error of its scaled score (|score| * 1e-16).
    assertClose(r.weights.data, get('weights').data, 1e-12, { floor: STRICT_RELATIVE, label: `case${i} weights` });
    for (let row = 0; row < r.weights.rows; row++) {
      assertClose([r.weights.row(row).reduce((s, x) => s + x, 0)], [1], 1e-15, { label: `case${i} row ${row} sum` });
    }
  }
});

test('the model frees its generators: 5000 draws do not grow memory', () => {
  drawWeights(a, 1);
  const before = a.memoryBytes();
  for (let i = 0; i < 5000; i++) drawWeights(a, i);
  assert.ok(a.memoryBytes() - before <= 4 * 2 ** 20);
});
