// Bahdanau additive attention and matmul through the built package: the
// article's printed numbers (seed 42) and NumPy longdouble references
// (tests/fixtures/additive.txt).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention, Matrix } from '../../dist/lib/index.js';
import { assertClose, loadFixture, STRICT_RELATIVE, testBadInputs } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('additive.txt');

/** The article: np.random.seed(seed), then its four randn draws in order. */
function articleDraws(seed, n, h, att) {
  const rs = new a.RandomState(seed);
  try {
    return { enc: rs.randn(n, h), dec: rs.randn(1, h), W1: rs.randn(2 * h, att), w2: rs.randn(att, 1) };
  } finally {
    rs.delete();
  }
}

const PRINTED_SCORES = [4.35790943, 5.92373433, 4.18673175, 2.11437202, 0.95767155];
const PRINTED_CONTEXT = [
  -0.63514569, 0.04917298, -0.43930867, -0.9268003, 1.01903919, -0.43181409, 0.13365099, -0.84746874, -0.37572203,
  0.18279832, -0.90452701, 0.17872958, -0.58015282, -0.58294027, -0.75457577, 1.32985756,
];

test('article: seed 42 scores [4.35790943 5.92373433 4.18673175 2.11437202 0.95767155] to the printed digits', () => {
  const d = articleDraws(42, 5, 16, 10);
  const scores = a.concatScores(d.enc, d.dec, d.W1, d.w2);
  assert.ok(scores instanceof Float64Array);
  assert.deepEqual(
    Array.from(scores, (x) => Number(x.toFixed(8))),
    PRINTED_SCORES,
  );
  assertClose(scores, PRINTED_SCORES, 5e-9, { label: 'scores vs printed' });
});

test('article: seed 42 context vector equals the 16 printed numbers', () => {
  const d = articleDraws(42, 5, 16, 10);
  const r = a.concatAttention(d.enc, d.dec, d.W1, d.w2);
  assert.deepEqual(
    Array.from(r.context, (x) => Number(x.toFixed(8))),
    PRINTED_CONTEXT,
  );
  assertClose(r.context, PRINTED_CONTEXT, 5e-9, { label: 'context vs printed' });
  // The steps the chapter shows, with the article's asserted shapes.
  assert.ok(r.inputs instanceof Matrix);
  assert.deepEqual([r.inputs.rows, r.inputs.cols], [5, 32]);
  assert.deepEqual([r.activations.rows, r.activations.cols], [5, 10]);
  assert.deepEqual([r.weighted.rows, r.weighted.cols], [5, 16]);
  assert.equal(r.weights.length, 5);
  assertClose([r.weights.reduce((s, x) => s + x, 0)], [1], 1e-15, { label: 'sum of weights' });
});

test('RandomState draws exactly the fixture inputs, and every step matches NumPy', () => {
  const cases = ref.get('cases').data[0];
  assert.ok(cases >= 5);
  for (let i = 0; i < cases; i++) {
    const get = (name) => ref.get(`case${i}.${name}`);
    const [seed, n, h, att] = get('config').data;
    const d = articleDraws(seed, n, h, att);
    assert.deepEqual(d.enc.data, get('encoder_states').data, `case${i} encoder states`);
    assert.deepEqual(d.dec.data, get('decoder_state').data, `case${i} decoder state`);
    assert.deepEqual(d.W1.data, get('W1').data, `case${i} W1`);
    assert.deepEqual(d.w2.data, get('w2').data, `case${i} w2`);
    // Inputs from the fixture, passed in every accepted form.
    const r = a.concatAttention(
      get('encoder_states'),
      get('decoder_state').data,
      get('W1'),
      Array.from(get('w2').data),
    );
    assert.deepEqual(r.inputs.data, get('inputs').data, `case${i} inputs (a copy: exact)`);
    assertClose(r.activations.data, get('activations').data, 1e-13, { label: `case${i} activations` });
    assertClose(r.scores, get('scores').data, 1e-12, { label: `case${i} scores` });
    assertClose(r.weights, get('weights').data, 1e-11, { floor: STRICT_RELATIVE, label: `case${i} weights` });
    assertClose(r.weighted.data, get('weighted').data, 1e-12, { label: `case${i} weighted` });
    assertClose(r.context, get('context').data, 1e-12, { label: `case${i} context` });
    assert.deepEqual(a.concatScores(d.enc, d.dec.row(0), d.W1, d.w2.transpose()), r.scores);
  }
});

test('matmul matches NumPy longdouble references', () => {
  const cases = ref.get('matmul_cases').data[0];
  assert.equal(cases, 7, 'make_additive.py writes 7 matmul cases (a loop over none would pass)');
  for (let i = 0; i < cases; i++) {
    const A = ref.get(`matmul${i}.a`);
    const B = ref.get(`matmul${i}.b`);
    const want = ref.get(`matmul${i}.out`);
    const got = a.matmul(A, B);
    assert.deepEqual([got.rows, got.cols], [want.rows, want.cols]);
    assertClose(got.data, want.data, 1e-13, { label: `matmul${i}` });
  }
  assert.deepEqual(
    a
      .matmul(
        [
          [1, 0, 0],
          [1, 1, 0],
        ],
        [
          [2, 0, 2],
          [2, 0, 0],
          [2, 1, 2],
        ],
      )
      .toArray(),
    [
      [2, 0, 2],
      [4, 0, 2],
    ],
  );
});

const d = articleDraws(42, 5, 16, 10);
const badInputs = [
  [
    'decoder size',
    () => a.concatScores(d.enc, d.dec.data.slice(0, 15), d.W1, d.w2),
    RangeError,
    'concatScores: decoderState has 15 entries but encoderStates has 16 columns (encoderStates is 5x16)',
  ],
  [
    'W1 rows',
    () => a.concatAttention(d.enc, d.dec, d.enc, d.w2),
    RangeError,
    'concatAttention: W1 has 5 rows but needs 2 x hidden = 32 (W1 is 5x16, encoderStates is 5x16)',
  ],
  [
    'w2 length',
    () => a.concatScores(d.enc, d.dec, d.W1, [1, 2, 3]),
    RangeError,
    'concatScores: w2 has 3 entries but W1 has 10 columns (W1 is 32x10)',
  ],
  [
    'w2 not a line',
    () => a.concatScores(d.enc, d.dec, d.W1, d.W1),
    RangeError,
    'concatScores: w2 is 32x10 but must be a vector (one row or one column)',
  ],
  [
    'NaN in W1',
    () =>
      a.concatScores(d.enc, d.dec, { rows: 32, cols: 10, data: d.W1.data.map((x, i) => (i === 13 ? NaN : x)) }, d.w2),
    RangeError,
    'concatScores: W1[1][3] is NaN',
  ],
  [
    'string encoder states',
    () => a.concatScores('enc', d.dec, d.W1, d.w2),
    TypeError,
    'concatScores: encoderStates must be a number[][] or {rows, cols, data}, got a string',
  ],
  ['missing w2', () => a.concatAttention(d.enc, d.dec, d.W1), TypeError, 'concatAttention: w2 must be a number[]'],
  [
    'matmul shapes',
    () => a.matmul([[1, 2, 3]], [[1, 2, 3]]),
    RangeError,
    "matmul: a is 1x3 and b is 1x3; a's columns (3) must equal b's rows (1)",
  ],
  ['matmul empty', () => a.matmul([], [[1]]), RangeError, 'matmul: a is empty (0 rows)'],
  ['matmul Infinity', () => a.matmul([[1]], [[Infinity]]), RangeError, 'matmul: b[0][0] is Infinity'],
];

testBadInputs(test, badInputs, () => assertClose(a.concatScores(d.enc, d.dec, d.W1, d.w2), PRINTED_SCORES, 5e-9));

test('failing calls free their inputs: 300 rejected 8 MB calls do not grow memory', () => {
  const big = { rows: 500, cols: 2000, data: new Float64Array(1e6) }; // 8 MB per copy
  assert.throws(() => a.matmul(big, big), RangeError);
  const before = a.memoryBytes();
  for (let i = 0; i < 300; i++) assert.throws(() => a.matmul(big, big), RangeError);
  assert.ok(a.memoryBytes() - before <= 16 * 2 ** 20, `memory grew from ${before} to ${a.memoryBytes()}`);
});
