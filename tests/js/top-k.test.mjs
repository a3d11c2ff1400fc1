// Top-k (web/src/api/model/top-k.js): a bounded selection, O(vocab log k), the same order
// as a full sort (most likely first, ties to the lower id), and k checked where it is used.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { topK } from '../../web/src/api/model/top-k.js';
import { fixtureFiles } from './gpt2-files.js';
import { generator } from './seeded.js';

/** The reference: every entry sorted, then the first k. */
const sorted = (p, k) =>
  Array.from(p, (value, id) => ({ id, p: value }))
    .sort((x, y) => y.p - x.p || x.id - y.id)
    .slice(0, k);

test('topK equals a full sort on 300 seeded vectors with many ties, every k from 1 to n', () => {
  const g = generator(34);
  for (let t = 0; t < 300; t++) {
    const n = g.int(1, 60);
    const levels = g.int(1, 6); // few distinct values: ties everywhere
    const p = Float64Array.from({ length: n }, () => g.int(0, levels) / levels);
    for (const k of [1, g.int(1, n), n]) assert.deepEqual(topK(p, k), sorted(p, k), `n ${n} k ${k}`);
  }
});

test("topK with k = GPT-2's 50,257 tokens: the whole vocabulary in order", () => {
  const g = generator(50257);
  const p = Float64Array.from({ length: 50257 }, () => Math.floor(g.next() * 1000) / 1000);
  const all = topK(p, p.length);
  assert.equal(all.length, p.length);
  assert.deepEqual(all, sorted(p, p.length));
  assert.deepEqual(topK(p, 10), sorted(p, 10));
});

test('topK refuses a k outside [1, n] with a RangeError naming the function and options.k', () => {
  const p = [0.5, 0.25, 0.25];
  for (const k of [0, -1, 4, 1.5, NaN, Infinity])
    assert.throws(() => topK(p, k, 'Gpt2Model.runIds'), {
      name: 'RangeError',
      message: new RegExp(`^Gpt2Model\\.runIds: options\\.k must be an integer in \\[1, 3\\].*got ${k}$`),
    });
});

test('runIds with k = vocab_size gives every token once, most likely first', async () => {
  const a = await loadAttention();
  const m = await a.openModel(fixtureFiles());
  const V = m.config.vocab_size;
  const { next } = m.runIds([1, 2, 3], { k: V });
  assert.equal(next.length, V);
  assert.equal(new Set(next.map((t) => t.id)).size, V);
  for (let i = 1; i < V; i++)
    assert.ok(next[i - 1].p > next[i].p || (next[i - 1].p === next[i].p && next[i - 1].id < next[i].id));
  assert.throws(() => m.runIds([1], { k: V + 1 }), { name: 'RangeError', message: /options\.k/ });
  m.delete();
});
