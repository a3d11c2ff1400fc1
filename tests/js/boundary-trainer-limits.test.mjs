// Issue 27, "work bound misses batch" and "limits that do not hold": one call's
// work counts every option that multiplies it, options whose single step
// cannot run are refused when the trainer is made, the largest admitted sizes
// train a step, evaluate() is bounded too, a checkpoint's step count is
// range-checked, and null is not taken for an absent option.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';

const a = await loadAttention();
const LARGEST = { layers: 6, heads: 16, dModel: 256, dFF: 1024 };

/** Asserts `call` throws a RangeError whose message starts with `fn` and matches `pattern`; returns the message. */
function rangeError(call, fn, pattern) {
  let message;
  assert.throws(call, (error) => {
    assert.ok(error instanceof RangeError, `${error?.constructor?.name}: ${error?.message}`);
    assert.ok(error.message.startsWith(fn), error.message);
    assert.match(error.message, pattern);
    message = error.message;
    return true;
  });
  return message;
}

test('train(100000) with tiny sizes but batch 512 is refused (was: accepted, ~4,000 s and ~800 s in one call)', () => {
  const t = new a.TransformerTrainer({ layers: 1, heads: 1, dModel: 2, dFF: 1, batch: 512 });
  rangeError(
    () => t.train(100000),
    'TransformerTrainer.train',
    /batch 512, layers 1, heads 1, dModel 2 and dFF 1 is more work than one call may do/,
  );
  t.delete();
  const s = new a.Seq2SeqTrainer({ hidden: 1, embedding: 1, batch: 512 });
  rangeError(
    () => s.train(100000),
    'Seq2SeqTrainer.train',
    /batch 512, hidden 1 and embedding 1 is more work than one call may do/,
  );
  s.delete();
});

test('the largest sizes: batch 512 is refused when the trainer is made; the largest batch admitted trains a step', () => {
  const before = a.memoryBytes();
  const message = rangeError(
    () => new a.TransformerTrainer({ ...LARGEST, batch: 512 }),
    'TransformerTrainer',
    /is more than one training step may do \(at most batch \d+ with these sizes\)/,
  );
  assert.ok(a.memoryBytes() - before < 2 ** 27, 'refused before allocating');
  const most = Number(/at most batch (\d+)/.exec(message)[1]);
  assert.ok(most >= 1 && most < 512, `at most batch ${most}`);
  rangeError(() => new a.TransformerTrainer({ ...LARGEST, batch: most + 1 }), 'TransformerTrainer', /at most batch/);
  const t = new a.TransformerTrainer({ ...LARGEST, batch: most });
  const [loss] = t.train(1).losses;
  assert.ok(Number.isFinite(loss) && loss > 0, `loss ${loss}`);
  assert.equal(t.steps, 1);
  // The documented evaluate(1000) is bounded at these sizes (was: 74 s in one call).
  rangeError(
    () => t.evaluate(1000),
    'TransformerTrainer.evaluate',
    /is more work than one call may do \(at most \d+ examples/,
  );
  t.delete();
  assert.deepEqual(Array.from(a.softmax([0, 0])), [0.5, 0.5]);
});

test('tiny d_model with a wide feed-forward: the workspace bound refuses batch 512, the largest admitted batch trains', () => {
  const wide = { layers: 6, heads: 1, dModel: 2, dFF: 1024 };
  const message = rangeError(
    () => new a.TransformerTrainer({ ...wide, batch: 512 }),
    'TransformerTrainer',
    /at most batch/,
  );
  const most = Number(/at most batch (\d+)/.exec(message)[1]);
  const t = new a.TransformerTrainer({ ...wide, batch: most });
  assert.equal(t.train(1).losses.length, 1);
  t.delete();
});

test('Seq2SeqTrainer: hidden 256, embedding 256, batch 512 is refused when made (one step took a minute and 1.2 GB)', () => {
  rangeError(
    () => new a.Seq2SeqTrainer({ hidden: 256, embedding: 256, batch: 512 }),
    'Seq2SeqTrainer',
    /batch 512, hidden 256 and embedding 256 is more than one training step may do/,
  );
});

/** FNV-1a (32-bit) of `bytes`, the checkpoint's checksum (cpp/models/checkpoint_io.h). */
function fnv1a(bytes) {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}

test('a checkpoint whose step count is 2^64 - 1 is refused (was: loaded, and one step wrapped it to 0)', () => {
  const t = new a.TransformerTrainer();
  t.train(2);
  const bytes = t.save();
  t.delete();
  const view = new DataView(bytes.buffer);
  // magic, version, task 'dates', schedule 'warmup', six i32, two f64, u32 seed, then u64 steps.
  const at = 4 + 4 + (4 + 5) + (4 + 6) + 6 * 4 + 2 * 8 + 4;
  assert.equal(view.getBigUint64(at, true), 2n, 'the step count is where the layout says');
  view.setBigUint64(at, 2n ** 64n - 1n, true);
  view.setUint32(bytes.length - 4, fnv1a(bytes.subarray(0, bytes.length - 4)), true);
  rangeError(
    () => a.TransformerTrainer.load(bytes),
    'TransformerTrainer.load',
    /step count 18446744073709551615 is more than 2\^53 - 1/,
  );
  // 2^53 - 1 loads; training on would pass it, so train refuses.
  view.setBigUint64(at, 2n ** 53n - 1n, true);
  view.setUint32(bytes.length - 4, fnv1a(bytes.subarray(0, bytes.length - 4)), true);
  const u = a.TransformerTrainer.load(bytes);
  assert.equal(u.steps, 2 ** 53 - 1);
  rangeError(() => u.train(1), 'TransformerTrainer.train', /cannot grow past 2\^53 - 1/);
  u.delete();
});

test('null is not an absent option: factories refuse it', () => {
  for (const [make, options, name] of [
    [a.createTrainableAttention, { inFeatures: null }, 'inFeatures'],
    [a.createTrainableAttention, { outFeatures: null }, 'outFeatures'],
    [a.createAdditiveAttention, { hiddenFeatures: null }, 'hiddenFeatures'],
    [a.createAdditiveAttention, { seed: null }, 'seed'],
  ]) {
    assert.throws(() => make(options), {
      name: 'TypeError',
      message: new RegExp(`${name} must be a number, got null`),
    });
  }
});
