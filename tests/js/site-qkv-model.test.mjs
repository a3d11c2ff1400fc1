// The Q/K/V chapter's model (web/src/site/chapters/qkv/model.js): permalink
// state, and scores/weights through the API's attention (tests/fixtures/qkv.txt).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { ARTICLE_WORDS, isWhole, qkvAttention, resolveWeights, SCHEMA } from '../../web/src/site/chapters/qkv/model.js';
import { Trace } from '../../web/src/site/explain/trace.js';
import { readState, stateEntries } from '../../web/src/site/url-state.js';
import { assertClose, loadFixture, STRICT_RELATIVE } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('qkv.txt');

test("default permalink: the article's draws; scaled scores and weights match NumPy (1e-13, 1e-12 relative)", () => {
  const state = readState(SCHEMA, new URLSearchParams(''));
  const W = resolveWeights(a, state);
  assert.equal(W.custom, false);
  const r = qkvAttention(a, state.words, W.WQ, W.WK, W.WV);
  assert.deepEqual(state.words, ARTICLE_WORDS);
  assertClose(
    r.scaled.data,
    Array.from(ref.get('case0.scores').data, (x) => x / Math.sqrt(3)),
    1e-13,
    { label: 'scaled' },
  );
  assertClose(r.weights.data, ref.get('case0.weights').data, 1e-12, { floor: STRICT_RELATIVE, label: 'weights' });
  assert.ok(isWhole(W.WQ));
});

test('typed weights win over the seed; malformed ones are ignored', () => {
  const state = readState(
    SCHEMA,
    new URLSearchParams('WV=1,1,0;0,1,1;0,0,5&WQ=1,2;3&X=' + Array(9).fill('1,0,0').join(';')),
  );
  const W = resolveWeights(a, state);
  assert.equal(W.custom, true);
  assert.deepEqual(W.WV, [
    [1, 1, 0],
    [0, 1, 1],
    [0, 0, 5],
  ]);
  assert.deepEqual(W.WQ, [
    [2, 0, 2],
    [2, 0, 0],
    [2, 1, 2],
  ]);
  assert.deepEqual(state.words, ARTICLE_WORDS, 'more than 8 words falls back');
  assert.deepEqual(stateEntries(SCHEMA, { ...state, WQ: null, WK: null }), {
    seed: null,
    X: null,
    WQ: null,
    WK: null,
    WV: '1,1,0;0,1,1;0,0,5',
  });
});

test('provenance: projections, scores, weights and outputs written out with their numbers', () => {
  const W = resolveWeights(a, readState(SCHEMA, new URLSearchParams('')));
  const r = qkvAttention(a, ARTICLE_WORDS, W.WQ, W.WK, W.WV);
  // Every number in these strings is checked against a plain JS recomputation.
  const trace = new Trace();
  qkvAttention(a, ARTICLE_WORDS, W.WQ, W.WK, W.WV, trace); // the computation of `r`, through the trace
  const explain = (name, i, j) => {
    const story = trace.explain(name, i, j);
    return { text: story.text, sources: Object.fromEntries(story.sources.map((s) => [s.tensor, s.cells])) };
  };
  const q = explain('Q', 2, 1);
  const q21 = ARTICLE_WORDS[2].reduce((sum, x, j) => sum + x * W.WQ[j][1], 0);
  assert.equal(q.text, `Q[3][2] = x3 · W_Q[:, 2] = 1·${W.WQ[0][1]} + 1·${W.WQ[1][1]} + 0·${W.WQ[2][1]} = ${q21}`);
  assert.deepEqual(q.sources, {
    words: [
      [2, 0],
      [2, 1],
      [2, 2],
    ],
    WQ: [
      [0, 1],
      [1, 1],
      [2, 1],
    ],
  });

  const s = explain('scores', 0, 1);
  const s01 = [0, 1, 2].reduce((sum, k) => sum + r.Q.get(0, k) * r.K.get(1, k), 0);
  assert.equal(
    s.text,
    `S[1][2] = q1 · k2 = ${[0, 1, 2].map((k) => `${r.Q.get(0, k)}·${r.K.get(1, k)}`).join(' + ')} = ${s01}`,
  );

  const w = explain('weights', 0, 0);
  assert.match(w.text, /^A\[1\]\[1\] = .* \/ \(.*\) = 0\.\d+, over row 1 of S\/√3$/);
  assert.deepEqual(w.sources, {
    scores: [
      [0, 0],
      [0, 1],
      [0, 2],
      [0, 3],
    ],
  });

  const o = explain('output', 1, 2);
  const o12 = [0, 1, 2, 3].reduce((sum, j) => sum + r.weights.get(1, j) * r.V.get(j, 2), 0);
  assert.ok(Math.abs(o12 - r.output.get(1, 2)) < 1e-12);
  assert.match(o.text, /^out\[2\]\[3\] = Σ_j A\[2\]\[j\] · V\[j\]\[3\] = .* = [\d.]+$/);
});
