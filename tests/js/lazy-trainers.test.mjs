// The trainers' own wasm module: loadAttention({ trainers: false }) leaves it out,
// a trainer read before a.loadTrainers() is a TypeError naming the step, and
// loadAttention() (the default) keeps the trainers ready as before the split.
// Runs first in its process: nothing else has loaded the trainers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';

test('loadAttention checks its options (rejects with a TypeError naming the option)', async () => {
  await assert.rejects(loadAttention({ trainers: 'yes' }), {
    name: 'TypeError',
    message: 'loadAttention: trainers must be true or false, got a string',
  });
  await assert.rejects(loadAttention({ trainer: true }), {
    name: 'TypeError',
    message: /^loadAttention: unknown option 'trainer' \(known: trainers, threads\)/,
  });
  await assert.rejects(loadAttention(7), {
    name: 'TypeError',
    message: /^loadAttention: options must be a plain object/,
  });
});

test('without the trainers: the core works, a trainer says to call loadTrainers(); then they work', async () => {
  const a = await loadAttention({ trainers: false });
  assert.deepEqual(a.softmax([0, 0]), Float64Array.from([0.5, 0.5]));
  const before = a.memoryBytes();
  for (const name of ['Seq2SeqTrainer', 'TransformerTrainer']) {
    assert.throws(() => a[name], {
      name: 'TypeError',
      message: new RegExp(`^${name}: the trainers are not loaded: await a\\.loadTrainers\\(\\) first`),
    });
  }
  assert.equal(Object.isFrozen(a), true);
  const loaded = await a.loadTrainers();
  assert.equal(loaded, a, 'loadTrainers resolves to the same API object');
  assert.equal(await a.loadTrainers(), a, 'a second call shares the first');
  assert.ok(a.memoryBytes() > before, 'memoryBytes counts the trainers module');
  const t = new a.Seq2SeqTrainer({ task: 'reverse', hidden: 4, embedding: 2, batch: 2, seed: 0 });
  try {
    assert.ok(t instanceof a.Seq2SeqTrainer);
    assert.equal(t.train(2).step, 2);
    const again = a.Seq2SeqTrainer.load(t.save());
    assert.equal(again.steps, 2);
    assert.ok(t.translate('12').attention instanceof a.Matrix, 'trainer results are the API Matrix');
    again.delete();
  } finally {
    t.delete();
  }
  const transformer = new a.TransformerTrainer({ layers: 1, heads: 1, dModel: 2, dFF: 2, batch: 1, seed: 0 });
  assert.equal(transformer.train(1).step, 1);
  transformer.delete();
});

test('loadAttention() without options resolves once the trainers are ready, to the same object', async () => {
  const a = await loadAttention({ trainers: false });
  assert.equal(await loadAttention(), a);
  assert.equal(typeof a.Seq2SeqTrainer, 'function');
});
