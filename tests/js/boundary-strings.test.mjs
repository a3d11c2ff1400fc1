// Issue 27 (found while fixing it): Embind copies a string argument into the
// heap from _malloc without checking for 0, so with a full heap a long string
// was written from address 0 over the core's static data (a 12 MB word trapped
// the whole module: "memory access out of bounds" from then on). Each string
// that crosses is now checked to fit first: a RangeError, and the module works.
// (Its own file: node:test runs each file in a fresh process, and a wasm heap never shrinks.)
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { fillCoreHeap, fillHeap, makeCanaries } from './boundary-canaries.js';

const a = await loadAttention();
const canaries = await makeCanaries(a);
const table = await a.loadEmbeddings('the 1 2\nteacher 3 4\n');
const trainer = new a.TransformerTrainer();
const fillers = [];
after(() => {
  for (const object of [...fillers, table, trainer]) object.delete();
  canaries.delete();
});

test('with the heap full, a long string is a RangeError naming the argument, and nothing else changes', async () => {
  for (const options of [{ hidden: 256, embedding: 256, batch: 1 }, {}]) fillHeap(a, options, fillers);
  await fillCoreHeap(a, fillers); // the core's heap too: the trainers' is their module's own
  const long = '\u4e00'.repeat(2 ** 22); // 12 MiB of UTF-8
  const refused = (call, fn, arg) =>
    assert.throws(call, (error) => {
      assert.ok(error instanceof RangeError, `${error?.constructor?.name}: ${error?.message}`);
      assert.match(
        error.message,
        new RegExp(
          `^${fn.replace('.', '\\.')}: ${arg.replace(/[[\]]/g, '\\$&')} \\(\\d+ bytes of UTF-8\\) does not fit`,
        ),
      );
      return true;
    });
  refused(() => table.has(long), 'Embeddings.has', 'word');
  refused(() => table.vector(long), 'Embeddings.vector', 'word');
  refused(() => table.lookup(['the', long]), 'Embeddings.lookup', 'tokens[1]');
  refused(() => table.toBinary({ info: long }), 'Embeddings.toBinary', 'options.info');
  refused(() => a.tokenize(long), 'tokenize', 'sentence');
  refused(() => trainer.translate(long), 'TransformerTrainer.translate', 'input');
  await assert.rejects(a.loadEmbeddings('the 1 2\n', { vocabulary: [long] }), RangeError);
  for (const f of fillers.splice(0)) f.delete();
  canaries.check('long strings into a full heap');
  assert.equal(table.has('teacher'), true);
});
