// The GloVe loader against hostile and careless input (issue: hostile input
// never breaks the runtime): sources that never end or never answer, aborts
// from concurrent callers, runaway lines, float32's limits, bad files, and
// unpaired surrogates. Every case here failed before the fix.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../dist/lib/index.js';

const a = await loadAttention();
const shipped = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'lib', 'embeddings');
const FLT_MAX = 3.4028234663852886e38;

/** Rejects if `promise` has not settled within `ms` (a hang is a failure, not a stuck test). */
function within(ms, promise) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function* endlessGenerator() {
  for (let i = 0; ; i++) yield `w${i} 1 2\n`;
}

test('loader: an abort stops an endless in-memory generator', async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 30);
  await within(
    5000,
    assert.rejects(a.loadEmbeddings(endlessGenerator(), { signal: controller.signal }), { name: 'AbortError' }),
  );
  assert.equal(a.dot([5, 1, 20], [3, 12, 45]), 927);
});

test('loader: an abort stops an endless ReadableStream and one that never answers', async () => {
  let i = 0;
  const endless = new ReadableStream({ pull: (c) => c.enqueue(new TextEncoder().encode(`w${i++} 1 2\n`)) });
  const c1 = new AbortController();
  setTimeout(() => c1.abort(), 30);
  await within(5000, assert.rejects(a.loadEmbeddings(endless, { signal: c1.signal }), { name: 'AbortError' }));

  const silent = new ReadableStream({ pull: () => new Promise(() => {}) });
  const c2 = new AbortController();
  setTimeout(() => c2.abort(new Error('gave up')), 30);
  await within(5000, assert.rejects(a.loadEmbeddings(silent, { signal: c2.signal }), /gave up/));
});

test('loader: a string source that takes long yields, so an abort from a timer lands', async () => {
  const text = Array.from({ length: 200_000 }, (_, k) => `w${k} 0.5 -0.25 1`).join('\n');
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 5);
  await within(
    20_000,
    assert.rejects(a.loadEmbeddings(text, { chunkBytes: 4096, signal: controller.signal }), { name: 'AbortError' }),
  );
});

test('loadDefaultEmbeddings: concurrent callers keep their own signals', async () => {
  const first = new AbortController();
  const second = new AbortController();
  const p1 = a.loadDefaultEmbeddings({ signal: first.signal });
  const p2 = a.loadDefaultEmbeddings({ signal: second.signal });
  const p3 = a.loadDefaultEmbeddings();
  second.abort(); // a later caller's abort is honoured ...
  await assert.rejects(p2, { name: 'AbortError' });
  const [t1, t3] = await Promise.all([p1, p3]); // ... and rejects nobody else
  assert.equal(t1.size, 14_000);
  assert.equal(t3.size, 14_000);
  t1.delete();
  t3.delete();

  // The first caller's abort rejects only the first caller.
  const c = new AbortController();
  const q1 = a.loadDefaultEmbeddings({ signal: c.signal });
  const q2 = a.loadDefaultEmbeddings();
  c.abort();
  await assert.rejects(q1, { name: 'AbortError' });
  const t = await q2;
  assert.equal(t.size, 14_000);
  t.delete();
});

test('loadDefaultEmbeddings: missing or unreadable files are clear errors', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'atl-'));
  try {
    await assert.rejects(a.loadDefaultEmbeddings({ url: new URL(`file://${dir}/missing.bin`) }), {
      message: `loadDefaultEmbeddings: cannot read ${dir}/missing.bin: no such file`,
    });
    await assert.rejects(a.loadDefaultEmbeddings({ url: new URL(`file://${dir}`) }), {
      message: `loadDefaultEmbeddings: cannot read ${dir}: it is a directory, not a file`,
    });
  } finally {
    rmSync(dir, { recursive: true });
  }
  await assert.rejects(a.loadDefaultEmbeddings({ onProgress: 5 }), TypeError);
  await assert.rejects(a.loadDefaultEmbeddings({ signal: { aborted: false } }), TypeError);
  const table = await a.loadDefaultEmbeddings({ url: new URL(`file://${shipped}/glove.6B.100d.14k.bin`) });
  assert.equal(table.dim, 100);
  table.delete();
});

test("loader: float32's maximum as NumPy prints it is in range; beyond rounding to infinity is not", async () => {
  const t = await a.loadEmbeddings('big 3.4028235e38 -3.4028235e38\n');
  assert.deepEqual(Array.from(t.vector('big')), [FLT_MAX, -FLT_MAX]);
  t.delete();
  await assert.rejects(a.loadEmbeddings('x 3.4028236e38 1\n'), {
    name: 'SyntaxError',
    message: "loadEmbeddings: line 1: value 1 '3.4028236e38' is out of range for float32",
  });
});

test('loader: a runaway line is an error naming the line, not a giant vector', async () => {
  const before = a.memoryBytes();
  await assert.rejects(a.loadEmbeddings('a' + ' 1'.repeat(5000) + '\n'), {
    name: 'SyntaxError',
    message: 'loadEmbeddings: line 1: more than 4096 values after the word; vectors have at most 4096',
  });
  await assert.rejects(a.loadEmbeddings('the 1 2\n' + 'x'.repeat(50 << 20) + ' 1 2\n', { chunkBytes: 1 << 26 }), {
    name: 'SyntaxError',
    message: 'loadEmbeddings: line 2 is longer than 1 MiB: not a GloVe text file?',
  });
  assert.ok(a.memoryBytes() - before < 200 << 20, `heap grew by ${(a.memoryBytes() - before) >> 20} MiB`);
  const wide = await a.loadEmbeddings('w' + ' 0.5'.repeat(4096) + '\n');
  assert.equal(wide.dim, 4096);
  wide.delete();
});

test('text: unpaired surrogates become U+FFFD, as TextEncoder does, and swallow nothing', async () => {
  assert.deepEqual(a.tokenize('ab\uD800cd ef'), ['ab\uFFFDcd', 'ef']);
  assert.deepEqual(a.tokenize('x\uDC00 \uD83D\uDE00'), ['x\uFFFD', '\uD83D\uDE00']);
  const t = await a.loadEmbeddings('\u{10061} 1 2\n\uFFFDa 3 4\n');
  assert.equal(t.has('\u{10061}'), true);
  assert.deepEqual(Array.from(t.vector('\uD800a')), [3, 4]); // the replacement character's row, not U+10061's
  assert.deepEqual(Array.from(t.lookup(['\uDBFFa']).matrix.data), [3, 4]);
  t.delete();
  const kept = await a.loadEmbeddings('\uFFFDb 1 2\nc 3 4\n', { vocabulary: ['\uD800b'] });
  assert.equal(kept.size, 1);
  kept.delete();
});
