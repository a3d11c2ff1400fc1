// The Attention Basics chapter's model (web/src/site/chapters/basics/model.js)
// against the notebook's NumPy numbers (tests/fixtures/basics.txt).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { basicsAttention, DEFAULTS, SCHEMA, softmaxSentence } from '../../web/src/site/chapters/basics/model.js';
import { Trace } from '../../web/src/site/explain/trace.js';
import { readState } from '../../web/src/site/url-state.js';
import { assertClose, loadFixture, STRICT_RELATIVE } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('basics.txt');

test('notebook inputs: scores exact, weights to 1e-12 relative (as tests/js/basics.test.mjs), context to 1e-12', () => {
  const r = basicsAttention(a, DEFAULTS);
  assert.equal(r.single, 927);
  assert.deepEqual(Array.from(r.scores), Array.from(ref.get('notebook.scores').data));
  assertClose(r.weights, ref.get('notebook.softmax').data, 1e-12, { floor: STRICT_RELATIVE, label: 'weights' });
  assertClose(r.logWeights, ref.get('notebook.log_softmax').data, 1e-12, { label: 'log weights' });
  assertClose(r.context, ref.get('notebook.context').data, 1e-12, { label: 'context' });
  // applied is d x n (one column per step): the transpose of NumPy's scaled rows.
  assertClose(r.applied.transpose().data, ref.get('notebook.scaled_rows').data, 1e-12, {
    label: 'weighted annotations',
  });
  assert.deepEqual([r.H.rows, r.H.cols], [3, 4]);
  assert.ok(Number.isNaN(r.naive[0]));
});

test('schema: malformed or oversized permalinks fall back to the notebook inputs', () => {
  const s = readState(SCHEMA, new URLSearchParams(`h=1,x,3&a=1,2&H=${Array(11).fill('1,2,3').join(';')}`));
  assert.deepEqual(s, DEFAULTS);
  const ok = readState(SCHEMA, new URLSearchParams('h=1,0,0&H=1,2,3;4,5,6'));
  assert.deepEqual(basicsAttention(a, ok).scores, Float64Array.from([1, 4]));
});

test('provenance: each computed cell explains itself with the live numbers and names its sources', () => {
  const r = basicsAttention(a, DEFAULTS);
  const explainer = (inputs, _result) => {
    const trace = new Trace();
    basicsAttention(a, inputs, trace); // the same computation as `result`, through the trace
    return (name, i, j) => {
      const story = trace.explain(name, i, j);
      return { text: story.text, sources: Object.fromEntries(story.sources.map((s) => [s.tensor, s.cells])) };
    };
  };
  const explain = explainer(DEFAULTS, r);
  const score = explain('scores', 0, 0);
  assert.equal(score.text, 'e1 = h · h̄1 = 5·3 + 1·12 + 20·45 = 927');
  assert.deepEqual(score.sources, {
    decoder: [
      [0, 0],
      [1, 0],
      [2, 0],
    ],
    annotations: [
      [0, 0],
      [1, 0],
      [2, 0],
    ],
  });
  // The arithmetic evaluates to the value shown (checked independently of the core).
  assert.equal(5 * 3 + 1 * 12 + 20 * 45, r.scores[0]);

  const weight = explain('weights', 0, 0);
  assert.equal(weight.text, 'α1 = e^(927 − 929) / (e^(927 − 929) + e^(397 − 929) + e^(148 − 929) + 1) = 0.1192');
  assert.ok(Math.abs(Math.exp(-2) / (Math.exp(-2) + Math.exp(-532) + Math.exp(-781) + 1) - 0.1192) < 5e-5);
  assert.deepEqual(weight.sources, {
    scores: [
      [0, 0],
      [0, 1],
      [0, 2],
      [0, 3],
    ],
  });

  const applied = explain('applied', 2, 3);
  assert.equal(applied.text, 'αh̄[3][4] = α4 · H[3][4] = 0.8808 · 45.3 = 39.9');
  assert.deepEqual(applied.sources, { weights: [[0, 3]], annotations: [[2, 3]] });

  const context = explain('context', 0, 0);
  assert.match(context.text, /^c1 = H\[1\] · α = 3·0\.1192 \+ 59·\S+ \+ 1·\S+ \+ 4·0\.8808 = 3\.881$/);
  assert.ok(Math.abs(0.11920292202211755 * 3 + 0.8807970779778823 * 4 - r.context[0]) < 1e-12);

  // Negative factors are parenthesised and use a true minus sign.
  const negative = { ...DEFAULTS, decoder: [-5, 1, 20] };
  assert.equal(
    explainer(negative, basicsAttention(a, negative))('scores', 0, 0).text,
    'e1 = h · h̄1 = (−5)·3 + 1·12 + 20·45 = 897',
  );
});

test('the softmax sentence quotes the current numbers, never the notebook’s after an edit', () => {
  assert.equal(
    softmaxSentence(basicsAttention(a, DEFAULTS)),
    'The two largest scores, 929 (step 4) and 927 (step 1), differ by 2; softmax gives them 0.8808 and 0.1192: ' +
      'e^2 ≈ 7.389 times more weight for the larger one. The other 2 steps are all but erased (together 7.95e-232).',
  );
  const edited = basicsAttention(a, { ...DEFAULTS, decoder: [6, 1, 20] });
  assert.deepEqual(Array.from(edited.scores.slice(0, 4)), [930, 456, 149, 933]);
  const sentence = softmaxSentence(edited);
  assert.match(
    sentence,
    /^The two largest scores, 933 \(step 4\) and 930 \(step 1\), differ by 3; softmax gives them 0\.9526 and 0\.04743/,
  );
  assert.ok(!sentence.includes('927') && !sentence.includes('0.1192'));
  const tie = basicsAttention(a, {
    ...DEFAULTS,
    annotations: [
      [1, 1, 1],
      [1, 1, 1],
    ],
  });
  assert.equal(
    softmaxSentence(tie),
    'Both scores tie at 26, so softmax gives steps 1 and 2 the same weight, 0.5 each.',
  );
  // Issue 35: four equal annotations tie all four scores; three of four tie the three largest.
  const ones = [1, 1, 1];
  assert.equal(
    softmaxSentence(basicsAttention(a, { ...DEFAULTS, annotations: [ones, ones, ones, ones] })),
    'All 4 scores tie at 26, so softmax gives every step the same weight, 0.25 each.',
  );
  assert.equal(
    softmaxSentence(basicsAttention(a, { ...DEFAULTS, annotations: [ones, [0, 0, 0], ones, ones] })),
    'The 3 largest scores tie at 26, so softmax gives steps 1, 3 and 4 the same weight, 0.3333 each. The other step is all but erased (together 1.70e-12).', // e^−26 / (3 + e^−26),
  );
  assert.equal(
    softmaxSentence(basicsAttention(a, { ...DEFAULTS, annotations: [[1, 2, 3]] })),
    'With a single encoder step, softmax gives it all the weight: α1 = 1.',
  );
});
