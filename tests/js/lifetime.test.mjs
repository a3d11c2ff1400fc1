// Every wasm-backed object shares one lifetime (web/src/api/handle.js):
// delete() frees it, `Symbol.dispose` frees it, a deleted object throws
// TypeError, and an object dropped without delete() is freed by the
// FinalizationRegistry once it is garbage-collected.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadAttention } from '../../dist/lib/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const a = await loadAttention();
const tinyTable = (await a.loadEmbeddings('x 1 2\ny 3 4\n')).toBinary();

const makers = {
  RandomState: () => new a.RandomState(1),
  Embeddings: () => a.embeddingsFromBinary(tinyTable),
  Seq2SeqTrainer: () => new a.Seq2SeqTrainer({ hidden: 4, embedding: 2, batch: 2 }),
  TransformerTrainer: () => new a.TransformerTrainer({ layers: 1, heads: 1, dModel: 4, dFF: 4, batch: 2 }),
};

for (const [kind, make] of Object.entries(makers)) {
  test(`${kind}: delete() frees, twice is harmless, use after delete is a TypeError naming the method`, () => {
    const x = make();
    assert.equal(x.deleted, false);
    x.delete();
    x.delete();
    assert.equal(x.deleted, true);
    const use = {
      RandomState: () => x.randn(1, 1),
      Embeddings: () => x.has('x'),
      Seq2SeqTrainer: () => x.train(1),
      TransformerTrainer: () => x.train(1),
    }[kind];
    assert.throws(
      use,
      (e) => e instanceof TypeError && new RegExp(`^${kind}\\.\\w+: this ${kind} was deleted$`).test(e.message),
    );
  });

  test(`${kind}: Symbol.dispose frees it (using blocks)`, () => {
    const x = make();
    x[Symbol.dispose]();
    assert.equal(x.deleted, true);
  });
}

/** Lets FinalizationRegistry callbacks run: collect, then yield to the event loop. */
async function collect() {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

test('objects dropped without delete() are freed: 1200 default-size trainers (2.3 MB each) fit a 2 GiB heap', async () => {
  const bytesEach = (() => {
    const before = a.memoryBytes();
    const keep = Array.from({ length: 20 }, () => new a.Seq2SeqTrainer());
    const grown = a.memoryBytes() - before;
    keep.forEach((t) => t.delete());
    return grown / 20;
  })();
  await collect();
  const start = a.memoryBytes();
  for (let round = 0; round < 24; round++) {
    for (let i = 0; i < 50; i++) new a.Seq2SeqTrainer(); // dropped at once
    await collect();
  }
  const grown = a.memoryBytes() - start;
  // Without the registry 1200 trainers need 1200 x ~2.3 MB > 2 GiB and the
  // constructor fails; with it the heap stays within a few rounds' worth.
  assert.ok(
    grown < 300 * 2 ** 20,
    `heap grew by ${(grown / 2 ** 20).toFixed(0)} MiB (about ${(bytesEach / 2 ** 20).toFixed(2)} MiB per trainer)`,
  );
  assert.equal(a.dot([5, 1, 20], [3, 12, 45]), 927);
});

test('a refused huge request leaves the module working: thousands in a row, then a normal call', () => {
  const tall = { rows: 65536, cols: 1, data: new Float64Array(65536) };
  const wide = { rows: 8193, cols: 1, data: new Float64Array(8193) };
  for (let i = 0; i < 2000; i++) {
    assert.throws(
      () => a.attentionScores(tall, wide),
      (e) => e instanceof RangeError && /^attentionScores: scores \(65536x8193\) needs 4\.0 GiB/.test(e.message),
    );
  }
  assert.throws(
    () =>
      a.matmul(
        { rows: 12000, cols: 1, data: new Float64Array(12000) },
        { rows: 1, cols: 12000, data: new Float64Array(12000) },
      ),
    {
      name: 'RangeError',
      message: 'matmul: result (12000x12000) needs 1.1 GiB, more than the 1.0 GiB one call may use',
    },
  );
  assert.equal(a.dot([5, 1, 20], [3, 12, 45]), 927);
});
