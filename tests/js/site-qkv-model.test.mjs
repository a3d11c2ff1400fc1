// The Q/K/V chapter's model (web/src/site/chapters/qkv-model.js): permalink
// state, and scores/weights through the API's attention (tests/fixtures/qkv.txt).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { ARTICLE_WORDS, isWhole, qkvAttention, resolveWeights, SCHEMA } from '../../web/src/site/chapters/qkv-model.js';
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
