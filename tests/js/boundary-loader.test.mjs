// Issue 27, "loader": options.vocabulary given as an endless iterable is
// bounded by the count it may produce and honours the abort signal (was: ~1 GB
// of heap, then an uncaught WebAssembly.Exception, and no way to stop it), and
// the default-embeddings download cache is bounded (was: every URL's bytes kept).
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadAttention } from '../../dist/lib/index.js';
import { cachedDefaultFiles, MAX_CACHED_FILES, MAX_VOCABULARY_WORDS } from '../../dist/lib/embeddings.js';

const a = await loadAttention();
const shipped = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'dist',
  'lib',
  'embeddings',
  'glove.6B.100d.14k.bin',
);

function* endlessWords() {
  for (let i = 0; ; i++) yield `w${i}`;
}

test('an endless vocabulary is refused with a RangeError after MAX_VOCABULARY_WORDS words', async () => {
  const before = a.memoryBytes();
  await assert.rejects(a.loadEmbeddings('the 1 2\n', { vocabulary: endlessWords() }), (error) => {
    assert.ok(error instanceof RangeError, `${error?.constructor?.name}: ${error}`);
    assert.match(
      error.message,
      new RegExp(`^loadEmbeddings: options.vocabulary gives more than ${MAX_VOCABULARY_WORDS} words`),
    );
    return true;
  });
  assert.ok(a.memoryBytes() - before < 2 ** 30, `the heap grew by ${a.memoryBytes() - before} bytes`);
  assert.equal(a.dot([5, 1, 20], [3, 12, 45]), 927);
  const e = await a.loadEmbeddings('the 1 2\n', { vocabulary: ['the'] });
  assert.equal(e.size, 1);
  e.delete();
});

test('an abort stops the vocabulary loop', async () => {
  const controller = new AbortController();
  let given = 0;
  function* counting() {
    for (;;) {
      given++;
      if (given === 1000) setTimeout(() => controller.abort(), 0);
      yield `w${given}`;
    }
  }
  await assert.rejects(a.loadEmbeddings('the 1 2\n', { vocabulary: counting(), signal: controller.signal }), {
    name: 'AbortError',
  });
  assert.ok(given < MAX_VOCABULARY_WORDS, `${given} words were read after the abort`);
});

test('the default-embeddings cache keeps at most MAX_CACHED_FILES files', async () => {
  for (let i = 0; i < 3 * MAX_CACHED_FILES; i++) {
    const url = `${pathToFileURL(shipped).href}?copy=${i}`;
    const e = await a.loadDefaultEmbeddings({ url });
    e.delete();
    assert.ok(cachedDefaultFiles().files <= MAX_CACHED_FILES, `${cachedDefaultFiles().files} files cached`);
  }
  assert.equal(cachedDefaultFiles().files, MAX_CACHED_FILES);
});
