// The 'sort' task (5-10 digits -> the same digits ascending) through the built
// package: both trainers accept it, its held-out examples are what the task
// says, and the default TransformerTrainer (seed 0) learns it to >= 90% exact
// match on all 1000 held-out examples within a bounded number of steps.
// (Task generation is checked in tests/cpp/test_seq2seq.cpp; time to 99% is
// measured by scripts/bench-transformer.mjs, what the heads do by
// scripts/inspect-sort-heads.mjs.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';

const a = await loadAttention();

const sorted = (s) => [...s].sort().join('');

/** The trainer's options, a few held-out samples checked against the task's definition, and input validation. */
function checkTaskSurface(t, name) {
  assert.equal(t.options.task, 'sort');
  assert.equal(t.inputAlphabet, '0123456789');
  assert.equal(t.maxInputLength, 10);
  assert.equal(t.heldOutSize, 1000);
  for (let i = 0; i < 20; i++) {
    const { input, target } = t.sample();
    assert.match(input, /^\d{5,10}$/, `${name} sample input ${input}`);
    assert.equal(target, sorted(input), `${name} sample target of ${input}`);
  }
  assert.throws(
    () => t.translate('12a'),
    (e) =>
      e instanceof RangeError && /input has ['"]a['"] at position 2, which the sort task does not know/.test(e.message),
  );
  assert.throws(() => t.translate('1'.repeat(11)), /input has 11 characters but the sort task allows at most 10/);
}

test('Seq2SeqTrainer (RNN with attention) accepts sort: samples, validation, training, maps, checkpoint', () => {
  const t = new a.Seq2SeqTrainer({ task: 'sort', hidden: 16, embedding: 8, batch: 8, seed: 1 });
  try {
    checkTaskSurface(t, 'Seq2SeqTrainer');
    const first = t.train(5).loss;
    assert.ok(Number.isFinite(first));
    const r = t.translate('3141592653');
    assert.match(r.output, /^\d{0,10}$/);
    assert.equal(r.attention.cols, 10);
    const copy = a.Seq2SeqTrainer.load(t.save());
    try {
      assert.equal(copy.options.task, 'sort');
      assert.deepEqual(copy.translate('3141592653').output, r.output);
    } finally {
      copy.delete();
    }
    const accuracy = t.evaluate(100);
    assert.ok(accuracy >= 0 && accuracy <= 1);
  } finally {
    t.delete();
  }
});

// Trained with the defaults in chunks of CHUNK steps, evaluated on all 1000
// held-out examples after each; exact match is brittle (one wrong digit of ten
// fails the example) and swings between chunks while the rate is high, so the
// test asks for the target within MAX_STEPS rather than at one step. Measured
// on this build (wasm, seed 0): 33.6% after 250 steps, 88.7% after 500, 73.9%
// after 750, 91.1% after 1000 - the first chunk >= 90% - about 20 s CPU.
const CHUNK = 250;
const MAX_STEPS = 2000;
const TARGET = 0.9;

test(`TransformerTrainer (defaults, seed 0) sorts >= ${TARGET * 100}% of the 1000 held-out examples within ${MAX_STEPS} steps`, () => {
  const t = new a.TransformerTrainer({ task: 'sort' });
  try {
    checkTaskSurface(t, 'TransformerTrainer');
    const history = [];
    let accuracy = 0;
    while (t.steps < MAX_STEPS && accuracy < TARGET) {
      t.train(CHUNK);
      accuracy = t.evaluate(1000);
      history.push(`${t.steps}: ${accuracy}`);
    }
    assert.ok(accuracy >= TARGET, `held-out exact match after each chunk: ${history.join(', ')}`);
    // Long inputs with repeated digits, none of them seen as such in training.
    for (const input of ['9876543210', '5550001112', '31415']) {
      const r = t.translate(input);
      assert.equal(r.cross[0][0].cols, input.length);
      assert.equal(r.cross[0][0].rows, r.output.length + 1);
    }
    const r = t.translate('9876543210');
    assert.equal(r.output, '0123456789', 'a reversed run of all ten digits');
  } finally {
    t.delete();
  }
});
