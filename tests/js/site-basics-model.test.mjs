// The Attention Basics chapter's model (web/src/site/chapters/basics-model.js)
// against the notebook's NumPy numbers (tests/fixtures/basics.txt).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { basicsAttention, DEFAULTS, SCHEMA } from '../../web/src/site/chapters/basics-model.js';
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
