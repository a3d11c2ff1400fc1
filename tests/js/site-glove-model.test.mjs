// The GloVe chapter's model (web/src/site/chapters/glove-model.js) with the
// shipped vectors: the notebook's sentences within 1e-3 of the float32 NumPy
// result (tests/fixtures/embeddings.txt), Python-style printing, the schema.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import {
  columnsOf,
  DEFAULTS,
  pyList,
  pyRepr,
  SCHEMA,
  sentencesAttention,
  strongest,
} from '../../web/src/site/chapters/glove-model.js';
import { readState } from '../../web/src/site/url-state.js';
import { assertClose, loadFixture } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('embeddings.txt');

test("the notebook's sentences: 8 × 9 dot-product weights within 1e-3 of NumPy", async () => {
  const E = await a.loadDefaultEmbeddings();
  const r = sentencesAttention(a, E, DEFAULTS.query, DEFAULTS.key);
  assert.deepEqual([r.dot.weights.rows, r.dot.weights.cols], [8, 9]);
  assertClose(r.dot.weights.data, ref.get('sentences.dot.weights').data, 1e-3, { label: 'dot weights' });
  assert.deepEqual(r.missing, ['a', 'A']);
  const best = strongest(r.dot.weights, r.qTokens, r.kTokens, r.qMissing);
  assert.equal(best.find((b) => b.t === 'teacher').to, 'teacher');
  const t = columnsOf(r.q.matrix);
  assert.deepEqual([t.rows, t.cols], [100, 8]);
  E.delete();
});

test('Python reprs and the schema bounds', () => {
  assert.equal(pyRepr("it's"), '"it\'s"');
  assert.equal(pyList(['a', 'b\\']), "['a', 'b\\\\']");
  const s = readState(SCHEMA, new URLSearchParams(`q=${'x'.repeat(2000)}&d=7&ts=-1`));
  assert.equal(s.query.length, 500);
  assert.equal(s.dim, 64);
  assert.equal(s.trainableSeed, 0);
});
