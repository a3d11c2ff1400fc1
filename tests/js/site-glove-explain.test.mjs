// The GloVe chapter's masking, cosine toggle and provenance readouts
// (web/src/site/chapters/glove-model.js), against tests/fixtures/glove_cosine.txt
// (NumPy in long double, from tests/fixtures/make_glove_cosine.py).
// Two tables: one built from the fixture's own float32 vectors (the same inputs
// as NumPy: tolerance 1e-9, float64 rounding only) and the shipped int12 one
// (within max|v| / 4094 of the published values: tolerance 1e-3, as for the chapter).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import {
  additiveAttention,
  additiveHidden,
  explainAdditiveWeight,
  explainDotWeight,
  explainTrainableWeight,
  presentMask,
  sameWordMatches,
  sentencesAttention,
  strongestPairs,
  trainableAttention,
  vectorText,
} from '../../web/src/site/chapters/glove-model.js';
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
    assertClose(additiveHidden(ad, 0, 1), ref.get(`${name}.additive.hidden01`).data, 1e-9, { label: 'hidden' });
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

test('readouts: a trainable weight shows the projected rows, the scaled score and the softmax, with the live numbers', () => {
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
  const story = explainTrainableWeight(r, t, i, j);
  assert.match(
    story.text,
    /^q′ = W_q·q \+ b_q = \[.*, … \(16 numbers\)\], k′ = W_k·k \+ b_k = \[.*\]; q′·k′\/√16 = \(.* \(16 products\)\) \/ 4 = (−?[\d.e+-]+); weight 'teacher' → 'student' = .* = 0\.\d+$/,
  );
  // The score it quotes is the plain-JS dot product of the projected rows / 4, and the API's.
  const qi = t.queries.row(i);
  const kj = t.keys.row(j);
  const js = qi.reduce((s, x, c) => s + x * kj[c], 0) / 4;
  assert.ok(Math.abs(js - t.scaled.get(i, j)) < 1e-12);
  assert.ok(story.text.includes(vectorText(qi)));
  assert.equal(story.sources.queryEmbed.length, 100);
  assert.deepEqual(story.sources.keyEmbed[0], [0, j]);
  // Eight key tokens with a vector in the softmax ("A" is masked): seven " + " between its terms.
  const softmax = story.text.slice(story.text.indexOf("weight 'teacher'"));
  assert.equal((softmax.match(/ \+ /g) ?? []).length, 7);
});

test('readouts: an additive weight shows tanh(W_q·q + b_q + W_k·k + b_k), w_sᵀ·tanh(…) + b_s and the softmax', () => {
  const [q, k] = CASES.notebook;
  const r = sentencesAttention(a, exact, q, k);
  const additive = a.createAdditiveAttention({
    inFeatures: 100,
    hiddenFeatures: 16,
    params: layerParams(['Wq', 'Wk', 'Ws']),
  });
  const ad = additiveAttention(a, additive, r);
  const story = explainAdditiveWeight(r, ad, 0, 1);
  assert.match(
    story.text,
    /^tanh\(W_q·q \+ b_q \+ W_k·k \+ b_k\) = \[.*, … \(16 numbers\)\]; score = w_sᵀ·tanh\(…\) \+ b_s = .* \(16 products\) \+ .* = (.*); weight 'The' → 'student' = .* = 0\.\d+$/,
  );
  // w_s · hidden + b_s, in plain JS from the hidden activations, is the API's score.
  const h = additiveHidden(ad, 0, 1);
  const ws = ad.params.Ws.weight.data;
  const score = h.reduce((s, x, c) => s + x * ws[c], 0) + ad.params.Ws.bias[0];
  assert.ok(Math.abs(score - ad.scores.get(0, 1)) < 1e-12, `${score} vs ${ad.scores.get(0, 1)}`);
});

test('readouts: a masked weight says why it is 0; a cosine weight shows q·k / (‖q‖·‖k‖)', () => {
  const [q, k] = CASES.notebook;
  const r = sentencesAttention(a, exact, q, k);
  const story = explainDotWeight(r, r.qTokens.indexOf('a'), 2);
  assert.equal(
    story.text,
    "weight 'a' → 'asked' = 0: 'a' has no vector in these embeddings, so it is masked (no row or column weight).",
  );
  const cos = sentencesAttention(a, exact, q, k, { cosine: true });
  const i = cos.qTokens.indexOf('she');
  const j = cos.kTokens.indexOf('her');
  const text = explainDotWeight(cos, i, j).text;
  assert.match(
    text,
    /^cos = q·k \/ \(‖q‖·‖k‖\) = .* \/ \(.*·.*\) = 0\.\d+; weight 'she' → 'her' = .*, over the cosines of every key token$/,
  );
  // Its numbers: the norms are those of the vectors, the cosine NumPy's.
  const she = ref.get('vector.she').data;
  const norm = Math.sqrt(she.reduce((s, x) => s + x * x, 0));
  assert.ok(Math.abs(cos.qNorms[i] - norm) < 1e-12);
  const cosines = ref.get('notebook.cosine.scores');
  assert.ok(Math.abs(cos.scaled.get(i, j) - cosines.data[i * cosines.cols + j]) < 1e-12);
});
