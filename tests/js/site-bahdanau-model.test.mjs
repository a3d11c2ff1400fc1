// The Bahdanau chapter's model (web/src/site/chapters/bahdanau/model.js)
// against NumPy (tests/fixtures/additive.txt) and the article's printed numbers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCell } from '../../web/src/site/numpy-format.js';
import { loadAttention } from '../../dist/lib/index.js';
import { SCHEMA, bahdanauAttention, setupLines } from '../../web/src/site/chapters/bahdanau/model.js';
import { storyForFigures, Trace } from '../../web/src/site/explain/trace.js';
import { readState } from '../../web/src/site/url-state.js';
import { assertClose, loadFixture } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('additive.txt');

test('the article (seed 42, 5, 16, 10): draws bit for bit, scores and context to 1e-12', () => {
  const state = readState(SCHEMA, new URLSearchParams(''));
  assert.deepEqual(state, { seed: 42, inputLength: 5, hiddenSize: 16, attentionSize: 10 });
  const r = bahdanauAttention(a, state);
  assert.deepEqual(Array.from(r.encoderStates.data), Array.from(ref.get('case0.encoder_states').data));
  assert.deepEqual(Array.from(r.layer1.data), Array.from(ref.get('case0.W1').data));
  assertClose(r.scores, ref.get('case0.scores').data, 1e-12, { label: 'scores' });
  assertClose(r.context, ref.get('case0.context').data, 1e-12, { label: 'context' });
  assert.deepEqual(
    Array.from(r.scores, (x) => Number(x.toFixed(4))),
    [4.3579, 5.9237, 4.1867, 2.1144, 0.9577],
  );
  assert.match(setupLines(state), /^np\.random\.seed\(42\)\nencoder_states = np\.random\.randn\(5, 16\)/);
});

test('every fixture case matches NumPy to 1e-12', () => {
  for (let i = 0; ref.has(`case${i}.config`); i++) {
    const [seed, inputLength, hiddenSize, attentionSize] = ref.get(`case${i}.config`).data;
    const r = bahdanauAttention(a, { seed, inputLength, hiddenSize, attentionSize });
    assertClose(r.weights, ref.get(`case${i}.weights`).data, 1e-12, { label: `case${i} weights` });
    assertClose(r.context, ref.get(`case${i}.context`).data, 1e-12, { label: `case${i} context` });
  }
});

test("schema: sizes are clamped to the fields' bounds, junk falls back", () => {
  const s = readState(SCHEMA, new URLSearchParams('seed=abc&len=100000&hidden=0&att=1e9'));
  assert.deepEqual(s, { seed: 42, inputLength: 20, hiddenSize: 1, attentionSize: 10 });
});

test('provenance: every computed cell explains itself with the numbers it came from', () => {
  const sizes = { seed: 42, inputLength: 5, hiddenSize: 16, attentionSize: 10 };
  const r = bahdanauAttention(a, sizes);
  // Pre-activations are X W1, checked with a plain loop.
  for (let i = 0; i < 5; i++)
    for (let k = 0; k < 10; k++) {
      let sum = 0;
      for (let j = 0; j < 32; j++) sum += r.inputs.get(i, j) * r.layer1.get(j, k);
      assert.ok(Math.abs(sum - r.preActivations.get(i, k)) < 1e-12);
      assert.ok(Math.abs(Math.tanh(sum) - r.activations.get(i, k)) < 1e-12);
    }
  const trace = new Trace();
  bahdanauAttention(a, sizes, trace); // the computation of `r`, through the trace
  const explain = (name, i, j) => {
    const story = trace.explain(name, i, j);
    return { text: story.text, sources: Object.fromEntries(story.sources.map((x) => [x.tensor, x.cells])) };
  };
  const score = explain('scores', 2, 0);
  assert.match(
    score.text,
    /^e3 = a3 · w2 = (\(?−?[\d.e-]+\)?·\(?−?[\d.e-]+\)? \+ ){9}\(?−?[\d.e-]+\)?·\(?−?[\d.e-]+\)? = /,
  );
  assert.ok(score.text.endsWith(`= ${formatCell(r.scores[2]).replace('-', '−')}`));
  assert.equal(score.sources.activations.length, 10);

  // An activation tells tanh of its hidden pre-activation, then that x1 · W1 column (32 products, folded).
  const figures = Object.fromEntries(['encoder', 'decoder', 'inputs', 'layer1', 'activations'].map((n) => [n, n]));
  const activation = storyForFigures(trace, figures)('activations')(0, 3);
  assert.match(
    activation.text,
    /^A\[1\]\[4\] = tanh\(z\[1\]\[4\]\) = tanh\(−?[\d.]+\) = −?[\d.]+; z\[1\]\[4\] = x1 · W1\[:, 4\] = .* \(32 products\) = −?[\d.]+$/,
  );
  assert.deepEqual(activation.sources.map((x) => [x.figure, x.cells.length]).sort(), [
    ['inputs', 32],
    ['layer1', 32],
  ]);

  assert.equal(
    explain('inputs', 1, 0).text,
    `X[2][1] = H[2][1] = ${formatCell(r.encoderStates.get(1, 0)).replace('-', '−')} (column 1 is column 1 of H)`,
  );
  assert.deepEqual(explain('inputs', 1, 17).sources, { decoder: [[0, 1]] });

  const weight = explain('weights', 0, 0);
  assert.match(weight.text, /^α1 = (1|e\^\(.*\)) \/ \(.*\) = [\d.]+$/);
  assert.equal((weight.text.match(/ \+ /g) ?? []).length, 4); // five scores in the denominator
  assert.equal(weight.sources.scores.length, 5); // the scores column

  const context = explain('context', 0, 5);
  let c5 = 0;
  for (let i = 0; i < 5; i++) c5 += r.weights[i] * r.encoderStates.get(i, 5);
  assert.ok(Math.abs(c5 - r.context[5]) < 1e-12);
  assert.equal(context.sources.encoder.length, 5);
  const dot = storyForFigures(trace, { encoder: 'encoder', decoder: 'decoder', weights: 'weights' })('compare')(1, 0);
  assert.match(
    dot.text,
    /^compare\[2\]\[1\] = α\(dot\)1 = [\d.]+ \(row 2 is α\(dot\)\); α\(dot\)1 = .*; s·h1 = s · h1 = .*$/,
  );
  assert.deepEqual(dot.sources.map((x) => x.figure).sort(), ['decoder', 'encoder']);
});
