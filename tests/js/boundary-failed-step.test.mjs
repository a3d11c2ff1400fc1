// Issue 27: a training step that runs out of wasm memory frees its workspace,
// so a failed trainer does not keep the memory other calls need (was: the
// largest Transformer kept ~1.7 GB and softmax failed until it was deleted).
// (Its own file: node:test runs each file in a fresh process, and a wasm heap never shrinks.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { fillHeap } from './boundary-canaries.js';

const a = await loadAttention();
// ~34 MB each (hidden 256, embedding 256: about a million parameters, with Adam's moments).
const FILLER = { hidden: 256, embedding: 256, batch: 1 };
const ROOM = 6; // fillers freed before the step: ~200 MB, less than its ~400 MB workspace

test('a step that does not fit fails with a RangeError and gives its workspace back', () => {
  // Workspace-heavy sizes at their largest admitted batch (boundary-trainer-limits.test.mjs).
  const wide = { layers: 6, heads: 1, dModel: 2, dFF: 1024 };
  let most;
  try {
    new a.TransformerTrainer({ ...wide, batch: 512 }).delete();
  } catch (error) {
    most = Number(/at most batch (\d+)/.exec(error.message)[1]);
  }
  const t = new a.TransformerTrainer({ ...wide, batch: most });
  const fillers = fillHeap(a, FILLER);
  assert.ok(fillers.length > ROOM, `only ${fillers.length} fillers fit`);
  for (let i = 0; i < ROOM; i++) fillers.pop().delete();

  assert.throws(() => t.train(1), { name: 'RangeError', message: /^TransformerTrainer\.train: .*does not fit/ });
  assert.equal(t.steps, 0);
  // The room the step failed to fill is free again while the trainer lives on.
  for (let i = 0; i < ROOM; i++) fillers.push(new a.Seq2SeqTrainer(FILLER));
  assert.deepEqual(Array.from(a.softmax([0, 0])), [0.5, 0.5]);

  for (const f of fillers) f.delete();
  assert.equal(t.train(1).losses.length, 1); // with the room back, the same trainer trains
  t.delete();
});
