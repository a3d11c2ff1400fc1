// A heap that is really full: allocations inside the C++ core fail with
// std::bad_alloc, which the binding layer turns into a status and the JS layer
// into a RangeError. Thousands of such failures in a row leave the module
// working. (Its own file: node:test runs each file in a fresh process, and a
// wasm heap never shrinks.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';

const a = await loadAttention();

test('a full heap: the core fails with a RangeError, thousands of times in a row, then works again', () => {
  const kept = [];
  let failure;
  // Default trainers (~2.3 MB each) until the 2 GiB heap refuses one.
  for (let i = 0; i < 2000 && !failure; i++) {
    try {
      kept.push(new a.Seq2SeqTrainer());
    } catch (error) {
      failure = error;
    }
  }
  assert.ok(failure, `the heap took ${kept.length} trainers without failing`);
  assert.ok(failure instanceof RangeError, `not a RangeError: ${failure}`);
  assert.match(failure.message, /^Seq2SeqTrainer: .*does not fit in (the wasm )?memory/);
  assert.ok(kept.length > 300, `only ${kept.length} trainers fit`);

  let errors = 0;
  for (let i = 0; i < 3000; i++) {
    try {
      new a.Seq2SeqTrainer();
    } catch (error) {
      assert.ok(error instanceof RangeError, `failure ${i} is not a RangeError: ${error}`);
      errors++;
    }
  }
  assert.equal(errors, 3000);
  assert.equal(a.dot([5, 1, 20], [3, 12, 45]), 927); // small calls still fit

  for (const t of kept) t.delete();
  const again = new a.Seq2SeqTrainer({ seed: 3 });
  assert.ok(Number.isFinite(again.train(1).loss));
  again.delete();
  assert.equal(a.dot([5, 1, 20], [3, 12, 45]), 927);
});
