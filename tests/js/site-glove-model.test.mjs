// The GloVe chapter's model (web/src/site/chapters/glove/model.js) with the
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
} from '../../web/src/site/chapters/glove/model.js';
import { storyForFigures, Trace } from '../../web/src/site/explain/trace.js';
import { assertArithmetic } from './story-arithmetic.js';
import { readState } from '../../web/src/site/url-state.js';
import { assertClose, loadFixture } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('embeddings.txt');
const masked = loadFixture('glove_cosine.txt'); // the same sentences with "a" and "A" masked

test("the notebook's sentences: 8 × 9 dot-product weights within 1e-3 of NumPy (unmasked, and with the missing words masked)", async () => {
  const E = await a.loadDefaultEmbeddings();
  const r = sentencesAttention(a, E, DEFAULTS.query, DEFAULTS.key);
  assert.deepEqual([r.dot.weights.rows, r.dot.weights.cols], [8, 9]);
  assertClose(r.dot.weights.data, masked.get('notebook.dot.weights').data, 1e-3, { label: 'dot weights' });
  // Where no word is missing (rows of present query words, renormalised over present keys),
  // the unmasked notebook weights give the same ratios: w_ij / w_ik is e^(s_ij - s_ik) either way.
  const notebook = ref.get('sentences.dot.weights').data;
  const ratio = (w, i, j, k) => w[i * 9 + j] / w[i * 9 + k];
  assert.ok(Math.abs(ratio(r.dot.weights.data, 1, 4, 1) / ratio(notebook, 1, 4, 1) - 1) < 1e-3);
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

test('provenance: a dot-product weight is the softmax of its query row of q·k/√d, with its embedding columns', async () => {
  const E = await a.loadDefaultEmbeddings();
  const r = sentencesAttention(a, E, DEFAULTS.query, DEFAULTS.key);
  const i = r.qTokens.indexOf('teacher');
  const j = r.kTokens.indexOf('teacher');
  const trace = new Trace();
  sentencesAttention(a, E, DEFAULTS.query, DEFAULTS.key, { trace }); // the computation of `r`, through the trace
  const story = storyForFigures(trace, { queryEmbed: 'queryEmbed', keyEmbed: 'keyEmbed' })('dot.weights')(i, j);
  const [softmax, masked, scaled] = story.text.split('; ');
  assert.match(softmax, /^weight\[\d+\]\[\d+\] \(teacher → teacher\) = (1|e\^\(.*\)) \/ \(.*\) = 0\.\d+$/);
  assert.equal(masked, '1 masked key left out');
  assert.equal((softmax.match(/ \+ /g) ?? []).length, 7); // eight key tokens in the sum ("A" is masked)
  assertArithmetic(softmax, r.dot.weights.get(i, j));
  assert.match(scaled, /^scaled\[\d+\]\[\d+\] \(teacher → teacher\) = q·k\[\d+\]\[\d+\] \/ √100 = /);
  assertArithmetic(scaled, r.scaled.get(i, j));
  const sources = Object.fromEntries(story.sources.map((x) => [x.figure, x.cells]));
  assert.equal(sources.queryEmbed.length, 100);
  assert.ok(sources.keyEmbed.some(([row, c]) => row === 0 && c === j));
  // The weight it quotes is the softmax of the scaled scores, computed here with plain JS.
  const row = r.scaled.row(i).filter((_, c) => r.kTokens[c] !== 'A');
  const m = Math.max(...row);
  const sum = row.reduce((s, x) => s + Math.exp(x - m), 0);
  assert.ok(Math.abs(Math.exp(r.scaled.get(i, j) - m) / sum - r.dot.weights.get(i, j)) < 1e-12);
  E.delete();
});
