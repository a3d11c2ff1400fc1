// The "Attention Basics" API against the notebook's printed numbers and NumPy
// references (tests/fixtures/basics.txt), through the built package.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { assertClose, loadFixture, STRICT_RELATIVE, testBadInputs } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('basics.txt');
const decoder = [5, 1, 20];
const annotations = [
  [3, 12, 45],
  [59, 2, 5],
  [1, 43, 5],
  [4, 3, 45.3],
];

test('loadAttention instantiates once and shares the module', async () => {
  assert.equal(await loadAttention(), a);
});

test('notebook: dot score 927 and all scores [927, 397, 148, 929]', () => {
  assert.equal(a.dot(decoder, [3, 12, 45]), 927);
  assert.deepEqual(Array.from(a.dotScores(decoder, annotations)), [927, 397, 148, 929]);
});

test('notebook: softmax weights to 1e-12 relative; printed digits 0.119 / 0.881', () => {
  const w = a.softmax([927, 397, 148, 929]);
  assert.ok(w instanceof Float64Array);
  assertClose(w, ref.get('notebook.softmax').data, 1e-12, { floor: STRICT_RELATIVE, label: 'softmax' });
  assert.equal(w[0].toFixed(3), '0.119');
  assert.equal(w[3].toFixed(3), '0.881');
  assert.equal(w[1].toPrecision(3), '7.95e-232');
  assert.equal(w[2], 0); // 5.77e-340 is below the smallest double
});

test('notebook: log-softmax keeps the underflowed weight, 10^(log w / ln 10) = 5.766e-340', () => {
  const logW = a.logSoftmax([927, 397, 148, 929]);
  assertClose(logW, ref.get('notebook.log_softmax').data, 1e-12, { label: 'logSoftmax' });
  const log10 = logW[2] / Math.LN10;
  assertClose([log10], ref.get('notebook.third_weight_log10').data, 1e-12, { label: 'log10 weight' });
  const exponent = Math.floor(log10);
  assert.equal(exponent, -340);
  assert.equal((10 ** (log10 - exponent)).toFixed(4), '5.7661'); // the notebook's 5.7661442e-340
});

test('notebook: naive softmax overflows to NaN', () => {
  const w = a.naiveSoftmax([927, 397, 148, 929]);
  assert.ok(Number.isNaN(w[0]) && Number.isNaN(w[3]));
  assertClose(a.naiveSoftmax([0.5, 1, 2]), a.softmax([0.5, 1, 2]), 1e-15, { floor: STRICT_RELATIVE });
});

test('notebook: weighted annotations and context vector [3.8808, 4.0728, 45.2642] to 1e-9', () => {
  const w = a.softmax(a.dotScores(decoder, annotations));
  const applied = a.scaleRows(w, annotations);
  assert.equal(applied.rows, 4);
  assert.equal(applied.cols, 3);
  assertClose(applied.data, ref.get('notebook.scaled_rows').data, 1e-12, { label: 'scaleRows' });
  const context = a.weightedSum(w, annotations);
  assertClose(context, ref.get('notebook.context').data, 1e-9, { label: 'context' });
  assert.deepEqual(
    Array.from(context, (x) => x.toFixed(4)),
    ['3.8808', '4.0728', '45.2642'],
  );
});

test('random cases match NumPy longdouble references', () => {
  for (let i = 0; i < 6; i++) {
    const get = (name) => ref.get(`random${i}.${name}`);
    const query = get('query').data;
    const keys = get('keys');
    const scores = a.dotScores(query, keys);
    assertClose(scores, get('scores').data, 1e-12, { label: `random${i} scores` });
    const w = a.softmax(scores);
    assertClose(w, get('softmax').data, 1e-12, { floor: STRICT_RELATIVE, label: `random${i} softmax` });
    assertClose(a.logSoftmax(scores), get('log_softmax').data, 1e-12, { label: `random${i} logSoftmax` });
    assertClose(a.weightedSum(w, keys), get('context').data, 1e-12, { label: `random${i} context` });
  }
});

test('softmax edge cases: huge, masked (-Infinity), ties, single entry', () => {
  for (const name of ['huge', 'masked', 'all_equal', 'single', 'tiny_gaps', 'wide']) {
    const x = ref.get(`edge.${name}.x`).data;
    assertClose(a.softmax(x), ref.get(`edge.${name}.softmax`).data, 1e-12, { floor: STRICT_RELATIVE, label: name });
    assertClose(a.logSoftmax(x), ref.get(`edge.${name}.log_softmax`).data, 1e-12, { label: name });
  }
  assert.deepEqual(Array.from(a.softmax([-Infinity, -Infinity])), [0, 0]);
});

test('inputs: number[], Float64Array, Float32Array, number[][] and {rows, cols, data} agree', () => {
  const flat = { rows: 4, cols: 3, data: annotations.flat() };
  const expected = Array.from(a.dotScores(decoder, annotations));
  assert.deepEqual(Array.from(a.dotScores(new Float64Array(decoder), flat)), expected);
  assert.deepEqual(
    Array.from(a.dotScores(new Float32Array(decoder), { ...flat, data: new Float64Array(flat.data) })),
    expected,
  );
  assert.deepEqual(a.scaleRows([1, 1, 1, 1], flat).toArray(), annotations);
});

test('results are copies: later calls and memory growth do not change them', () => {
  const w = a.softmax([1, 2, 3]);
  const before = Array.from(w);
  const big = Array.from({ length: 2000 }, (_, i) => Array.from({ length: 300 }, (_, j) => Math.sin(i + j)));
  a.weightedSum(new Float64Array(2000).fill(1 / 2000), big); // ~5 MB through the heap
  a.softmax([9, 9, 9]);
  assert.deepEqual(Array.from(w), before);
});

const badInputs = [
  ['dot', () => a.dot([1, 2], [1, 2, 3]), RangeError, 'dot: a has 2 entries but b has 3'],
  [
    'dotScores shape',
    () => a.dotScores([1, 2], annotations),
    RangeError,
    'dotScores: query has 2 entries but keys have 3 columns (keys is 4x3)',
  ],
  [
    'ragged keys',
    () =>
      a.dotScores(decoder, [
        [1, 2, 3],
        [4, 5],
      ]),
    RangeError,
    'dotScores: keys is ragged: row 0 has 3 entries but row 1 has 2',
  ],
  ['empty vector', () => a.softmax([]), RangeError, 'softmax: x is empty'],
  ['empty matrix', () => a.dotScores(decoder, []), RangeError, 'dotScores: keys is empty (0 rows)'],
  [
    'NaN',
    () => a.softmax([1, NaN]),
    RangeError,
    'softmax: x[1] is NaN; entries must be finite or -Infinity (a masked position)',
  ],
  ['+Infinity', () => a.softmax([Infinity, 1]), RangeError, 'softmax: x[0] is Infinity'],
  [
    'NaN in matrix',
    () =>
      a.dotScores(decoder, [
        [1, 2, 3],
        [4, NaN, 6],
      ]),
    RangeError,
    'dotScores: keys[1][1] is NaN',
  ],
  ['string entry', () => a.dot([1, '2'], [1, 2]), TypeError, 'dot: a[1] is a string, expected a number'],
  [
    'string vector',
    () => a.softmax('1,2'),
    TypeError,
    'softmax: x must be a number[], Float64Array or Float32Array, got a string',
  ],
  ['undefined', () => a.softmax(undefined), TypeError, 'softmax: x must be a number[]'],
  [
    'vector as matrix',
    () => a.dotScores(decoder, [1, 2, 3]),
    TypeError,
    'dotScores: keys must be an array of rows (number[][]), but keys[0] is a number',
  ],
  [
    'bad data length',
    () => a.weightedSum([1], { rows: 2, cols: 2, data: [1, 2, 3] }),
    RangeError,
    'weightedSum: values.data has 3 entries but values is 2x2 (4 entries)',
  ],
  [
    'weights vs rows',
    () => a.weightedSum([0.5, 0.5], annotations),
    RangeError,
    'weightedSum: weights has 2 entries but values has 4 rows (values is 4x3)',
  ],
  [
    'null matrix',
    () => a.scaleRows([1], null),
    TypeError,
    'scaleRows: values must be a number[][] or {rows, cols, data}, got null',
  ],
];

testBadInputs(test, badInputs, () => assert.equal(a.dot(decoder, [3, 12, 45]), 927));

test('failing calls free their inputs: 300 rejected 8 MB calls do not grow memory', () => {
  const big = { rows: 1000, cols: 1000, data: new Float64Array(1e6) }; // 8 MB per copy
  assert.throws(() => a.dotScores([1, 2], big), RangeError); // first call may grow the heap once
  const before = a.memoryBytes();
  // Leaking 8 MB per call would need 2.4 GB: more than the 2 GiB maximum.
  for (let i = 0; i < 300; i++) assert.throws(() => a.dotScores([1, 2], big), RangeError);
  assert.ok(a.memoryBytes() - before <= 16 * 2 ** 20, `memory grew from ${before} to ${a.memoryBytes()}`);
  const w = a.softmax([927, 397, 148, 929]);
  assertClose(w, ref.get('notebook.softmax').data, 1e-12, { floor: STRICT_RELATIVE });
});
