// The GloVe chapter's masking, cosine toggle and provenance readouts
// (web/src/site/chapters/glove/model.js), against tests/fixtures/glove_cosine.txt
// (NumPy in long double, from tests/fixtures/make_glove_cosine.py).
// Two tables: one built from the fixture's own float32 vectors (the same inputs
// as NumPy: tolerance 1e-9, float64 rounding only) and the shipped int12 one
// (within max|v| / 4094 of the published values: tolerance 1e-3, as for the chapter).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import {
  additiveAttention,
  presentMask,
  sameWordMatches,
  sentencesAttention,
  strongestPairs,
  trainableAttention,
} from '../../web/src/site/chapters/glove/model.js';
import { storyForFigures, Trace } from '../../web/src/site/explain/trace.js';
import { assertArithmetic } from './story-arithmetic.js';
import { assertClose, loadFixture } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('glove_cosine.txt');
const CASES = {
  notebook: ['The teacher praised a student because she improved', 'A student asked the teacher to help her improving'],
  pronouns: ['she thanked her teacher', 'a teacher helped her and she smiled'],
  family: ['her brother asked why', 'you asked why her son and brother left'],
};

/** A GloVe text file of the fixture's vectors (repr doubles of float32 values: exact). */
async function fixtureTable() {
  const lines = [...ref.keys()]
    .filter((k) => k.startsWith('vector.'))
    .map((k) => `${k.slice('vector.'.length)} ${Array.from(ref.get(k).data).join(' ')}`);
  return a.loadEmbeddings(lines.join('\n'));
}

const layerParams = (names) =>
  Object.fromEntries(
    names.map((n) => [n, { weight: ref.get(`params.${n}.weight`), bias: ref.get(`params.${n}.bias`).data }]),
  );

/** The chapter's readout of map `name` (dot.weights, train.weights, add.weights) from a trace of `record`. */
function readout(record, name, i, j) {
  const trace = new Trace();
  record(trace);
  const figures = { queryEmbed: 'queryEmbed', keyEmbed: 'keyEmbed' };
  const story = storyForFigures(trace, figures)(name)(i, j);
  return {
    ...story,
    parts: story.text.split('; '),
    trace,
    sources: Object.fromEntries(story.sources.map((x) => [x.figure, x.cells])),
  };
}

const exact = await fixtureTable();
const shipped = await a.loadDefaultEmbeddings();

test('missing words are masked: the mask, zero rows and columns, rows of present words summing to 1', () => {
  const [q, k] = CASES.notebook;
  const r = sentencesAttention(a, exact, q, k);
  assert.deepEqual(Array.from(r.mask.data), Array.from(ref.get('notebook.mask').data));
  const a_ = r.qTokens.indexOf('a');
  const A = r.kTokens.indexOf('A');
  for (let j = 0; j < r.kTokens.length; j++) assert.equal(r.dot.weights.get(a_, j), 0);
  for (let i = 0; i < r.qTokens.length; i++) {
    assert.equal(r.dot.weights.get(i, A), 0);
    const sum = r.dot.weights.row(i).reduce((s, x) => s + x, 0);
    assert.ok(Math.abs(sum - (i === a_ ? 0 : 1)) < 1e-12, `row ${i} sums to ${sum}`);
  }
  assert.deepEqual(presentMask([false, true], [true, false, false]).data, Float64Array.from([0, 1, 1, 0, 0, 0]));
});

for (const [name, [q, k]] of Object.entries(CASES)) {
  test(`${name}: masked dot-product and cosine weights and outputs match NumPy (1e-9 exact table, 1e-3 shipped)`, () => {
    for (const [E, tol] of [
      [exact, 1e-9],
      [shipped, 1e-3],
    ]) {
      const dot = sentencesAttention(a, E, q, k);
      assertClose(dot.dot.weights.data, ref.get(`${name}.dot.weights`).data, tol, { label: 'dot weights' });
      assertClose(dot.dot.output.data, ref.get(`${name}.dot.output`).data, tol * 10, { label: 'dot output' });
      const cos = sentencesAttention(a, E, q, k, { cosine: true });
      assert.equal(cos.cosine, true);
      assertClose(cos.scaled.data, ref.get(`${name}.cosine.scores`).data, tol, { label: 'cosines' });
      assertClose(cos.dot.weights.data, ref.get(`${name}.cosine.weights`).data, tol, { label: 'cosine weights' });
      assertClose(cos.dot.output.data, ref.get(`${name}.cosine.output`).data, tol * 10, { label: 'cosine output' });
      // The toggle changes the weights (by far more than the tolerance).
      const moved = Math.max(...cos.dot.weights.data.map((x, i) => Math.abs(x - dot.dot.weights.data[i])));
      assert.ok(moved > 0.01, `cosine moved the weights by only ${moved}`);
    }
  });

  test(`${name}: trainable and additive attention with given projections, masked, match NumPy within 1e-9`, () => {
    const r = sentencesAttention(a, exact, q, k);
    const trainable = a.createTrainableAttention({
      inFeatures: 100,
      outFeatures: 16,
      params: layerParams(['Wq', 'Wk', 'Wv']),
    });
    const t = trainableAttention(a, trainable, r);
    assertClose(t.weights.data, ref.get(`${name}.trainable.weights`).data, 1e-9, { label: 'trainable weights' });
    assertClose(t.output.data, ref.get(`${name}.trainable.output`).data, 1e-9, { label: 'trainable output' });
    const additive = a.createAdditiveAttention({
      inFeatures: 100,
      hiddenFeatures: 16,
      params: layerParams(['Wq', 'Wk', 'Ws']),
    });
    const ad = additiveAttention(a, additive, r);
    assertClose(ad.scores.data, ref.get(`${name}.additive.scores`).data, 1e-9, { label: 'additive scores' });
    assertClose(ad.weights.data, ref.get(`${name}.additive.weights`).data, 1e-9, { label: 'additive weights' });
    assertClose(ad.output.data, ref.get(`${name}.additive.output`).data, 1e-9, { label: 'additive output' });
    // The tanh terms the additive readout writes out: tanh(q′_0 + k′_1), against NumPy's hidden layer.
    const hidden01 = Float64Array.from(ad.queries.row(0), (x, c) => Math.tanh(x + ad.keys.get(1, c)));
    assertClose(hidden01, ref.get(`${name}.additive.hidden01`).data, 1e-9, { label: 'hidden' });
  });
}

test('the same word does not always win with raw vectors ("brother" → "son", "why" → "you"); with cosines it does', () => {
  const [q, k] = CASES.family;
  const r = sentencesAttention(a, exact, q, k);
  const raw = sameWordMatches(r);
  assert.deepEqual(
    raw.filter((m) => !m.self),
    [
      { word: 'brother', winner: 'son', self: false },
      { word: 'why', winner: 'you', self: false },
    ],
  );
  // NumPy agrees: the largest weight of the row of "brother" is at "son".
  const w = ref.get('family.dot.weights');
  const row = Array.from(w.data.slice(1 * w.cols, 2 * w.cols));
  assert.equal(k.split(' ')[row.indexOf(Math.max(...row))], 'son');
  const cos = sameWordMatches(sentencesAttention(a, exact, q, k, { cosine: true }));
  assert.equal(cos.length, 4);
  assert.ok(
    cos.every((m) => m.self),
    JSON.stringify(cos),
  );
  assert.deepEqual(
    strongestPairs(r.dot.weights, r).map((p) => p.to),
    ['her', 'son', 'asked', 'you'],
  );
});

test('readouts: a trainable weight shows its softmax, scaled score and q′·k′ of the projected rows, with the live numbers', () => {
  const [q, k] = CASES.notebook;
  const r = sentencesAttention(a, exact, q, k);
  const trainable = a.createTrainableAttention({
    inFeatures: 100,
    outFeatures: 16,
    params: layerParams(['Wq', 'Wk', 'Wv']),
  });
  const t = trainableAttention(a, trainable, r);
  const i = r.qTokens.indexOf('teacher');
  const j = r.kTokens.indexOf('student');
  const story = readout(
    (trace) => {
      // The computation of `r` and `t`, through the trace.
      trainableAttention(a, trainable, sentencesAttention(a, exact, q, k, { trace }), trace);
    },
    'train.weights',
    i,
    j,
  );
  const [softmax, masked, scaled, raw] = story.parts;
  const cell = `[${i + 1}][${j + 1}]`.replace(/[[\]]/g, '\\$&');
  assert.match(softmax, new RegExp(`^weight${cell} \\(teacher → student\\) = e\\^.* = 0\\.\\d+$`));
  assert.equal(masked, '1 masked key left out'); // "A" has no vector
  // Eight key tokens with a vector in the softmax: seven " + " between its terms.
  assert.equal((softmax.match(/ \+ /g) ?? []).length, 7);
  assertArithmetic(softmax, t.weights.get(i, j));
  assert.match(scaled, new RegExp(`^scaled${cell} \\(teacher → student\\) = q′·k′${cell} / √16 = `));
  assertArithmetic(scaled, t.scaled.get(i, j));
  // The score it quotes is the plain-JS dot product of the projected rows, and the API's.
  assert.match(
    raw,
    new RegExp(
      `^q′·k′${cell} \\(teacher → student\\) = q′${i + 1} \\(teacher\\) · k′${j + 1} \\(student\\) = .* \\(16 products\\) = `,
    ),
  );
  const qi = t.queries.row(i);
  const kj = t.keys.row(j);
  const js = qi.reduce((sum, x, c) => sum + x * kj[c], 0);
  assert.ok(Math.abs(js / 4 - t.scaled.get(i, j)) < 1e-12);
  assert.ok(raw.endsWith(`= ${String(Number(js.toPrecision(4))).replace('-', '−')}`), raw);
  // Outlined: the query token's embedding column, and the key tokens' (every score of the row is in the softmax).
  assert.equal(story.sources.queryEmbed.length, 100);
  assert.ok(story.sources.queryEmbed.every(([, c]) => c === i));
  assert.ok(story.sources.keyEmbed.some(([row, c]) => row === 0 && c === j));
});

test('readouts: an additive weight shows its softmax and w_s · tanh(q′ + k′) + b_s with the live numbers', () => {
  const [q, k] = CASES.notebook;
  const r = sentencesAttention(a, exact, q, k);
  const additive = a.createAdditiveAttention({
    inFeatures: 100,
    hiddenFeatures: 16,
    params: layerParams(['Wq', 'Wk', 'Ws']),
  });
  const ad = additiveAttention(a, additive, r);
  const story = readout(
    (trace) => {
      // The computation of `r` and `ad`, through the trace.
      additiveAttention(a, additive, sentencesAttention(a, exact, q, k, { trace }), trace);
    },
    'add.weights',
    0,
    1,
  );
  const [softmax, , score] = story.parts;
  assertArithmetic(softmax, ad.weights.get(0, 1));
  assert.match(
    score,
    /^score\[1\]\[2\] \(The → student\) = w_s · tanh\(q′1 \(The\) \+ k′2 \(student\)\) \+ b_s = .*·tanh\(.* \(16 terms\) \+ .* = (.*)$/,
  );
  // w_s · tanh(q′ + k′) + b_s in plain JS is the API's score, and the one printed.
  const [qi, kj, ws] = [ad.queries.row(0), ad.keys.row(1), ad.params.Ws.weight.data];
  const js = qi.reduce((sum, x, c) => sum + ws[c] * Math.tanh(x + kj[c]), 0) + ad.params.Ws.bias[0];
  assert.ok(Math.abs(js - ad.scores.get(0, 1)) < 1e-12, `${js} vs ${ad.scores.get(0, 1)}`);
  assert.ok(score.endsWith(`= ${String(Number(js.toPrecision(4))).replace('-', '−')}`), score);
});

test('readouts: a masked weight says why it is 0; a cosine weight shows q·k / (‖q‖·‖k‖)', () => {
  const [q, k] = CASES.notebook;
  const r = sentencesAttention(a, exact, q, k);
  const i = r.qTokens.indexOf('a');
  const masked = readout((trace) => sentencesAttention(a, exact, q, k, { trace }), 'dot.weights', i, 2); // `r`, traced
  assert.equal(
    masked.text,
    "weight[4][3] (a → asked) = 0: 'a' has no vector in these embeddings, so it is masked (no row or column weight).",
  );
  const cos = sentencesAttention(a, exact, q, k, { cosine: true });
  const si = cos.qTokens.indexOf('she');
  const hj = cos.kTokens.indexOf('her');
  const story = readout((trace) => sentencesAttention(a, exact, q, k, { cosine: true, trace }), 'dot.weights', si, hj);
  const cosine = story.parts.find((p) => p.startsWith('cos['));
  assert.match(
    cosine,
    /^cos\[\d+\]\[\d+\] \(she → her\) = q·k\[\d+\]\[\d+\] \/ \(‖q‖·‖k‖\) = .* \/ \(.*·.*\) = 0\.\d+$/,
  );
  assertArithmetic(cosine, cos.scaled.get(si, hj));
  assertArithmetic(story.parts[0], cos.dot.weights.get(si, hj));
  // Its numbers: the norms are those of the vectors, the cosine NumPy's.
  const she = ref.get('vector.she').data;
  const norm = Math.sqrt(she.reduce((sum, x) => sum + x * x, 0));
  assert.ok(Math.abs(cos.qNorms[si] - norm) < 1e-12);
  const cosines = ref.get('notebook.cosine.scores');
  assert.ok(Math.abs(cos.scaled.get(si, hj) - cosines.data[si * cosines.cols + hj]) < 1e-12);
});
