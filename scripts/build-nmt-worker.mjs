// Builds the NMT chapter's Web Worker (web/src/site/chapters/nmt/worker.js) and
// its data scripts, which the chapter loads only when it opens (see
// web/src/site/data-script.js):
//   site:     nmt-worker-source.js   the worker bundled, as text, without the wasm
//                                   binaries: the page puts its own data scripts'
//                                   values before it (SITE_WORKER_WASM, one download)
//                                   and starts it from a Blob URL (pages opened from
//                                   file:// cannot start a worker from a file)
//   elements: lesson-worker.js       an ES module worker importing ../lib/with-trainers.js
//                                   (the API with the trainers imported statically), so
//                                   the wasm is the page's own file (one download);
//                                   it also loads the GloVe lesson's own files
//   both:     nmt-checkpoint.js      the shipped checkpoint (base64)
//             transformer-checkpoint.js  the trained Transformer chapter's (the same worker trains both)
// Called by scripts/build-web.mjs after dist/lib is assembled.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'web/src/site/chapters/nmt/worker.js');
const common = {
  entryPoints: [entry],
  bundle: true,
  target: 'es2020',
  minify: true,
  logLevel: 'warning',
  logOverride: { 'empty-import-meta': 'silent' },
};

/** A data script storing `value` under globalThis.attentionLabData[key]. */
export const dataScript = (key, value, comment) =>
  `// ${comment}\nglobalThis.attentionLabData = globalThis.attentionLabData || {};\n` +
  `globalThis.attentionLabData[${JSON.stringify(key)}] = ${JSON.stringify(value)};\n`;

// The characters a plane with few distinct bytes is written in, one per byte: printable
// ASCII that a JSON string holds as is, minus '<' (a page may inline the script).
const PLANE_CHARS = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))
  .filter((c) => !'"\\<'.includes(c))
  .join('');

/**
 * A JS expression whose value is the base64 string `base64` (float32 weights). Inside, the
 * bytes are stored as four planes (byte 0 of every 4, then byte 1, …) and put back in order
 * when it runs: the floats' sign and exponent bytes repeat, so gzip packs the planes ~10%
 * smaller (the package and a compressing server send that). A plane with at most
 * PLANE_CHARS.length distinct bytes (the exponents) is written one character per byte
 * (its distinct bytes in base64, then each byte as the character of its index): gzip packs
 * that as tightly as the bytes, where base64's 6-bit characters cut across them. The others are
 * base64. Checked at build time: the expression gives `base64` back.
 */
export function planesExpression(base64) {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.toString('base64') !== base64) throw new Error('build-nmt-worker: not canonical base64');
  const planes = [0, 1, 2, 3].map((lane) => {
    const plane = [];
    for (let i = lane; i < bytes.length; i += 4) plane.push(bytes[i]);
    return Buffer.from(plane);
  });
  const encoded = planes.map((plane) => {
    const alphabet = [...new Set(plane)].sort((a, b) => a - b);
    if (alphabet.length > PLANE_CHARS.length) return JSON.stringify(plane.toString('base64'));
    const char = new Map(alphabet.map((b, i) => [b, PLANE_CHARS[i]]));
    const text = Array.from(plane, (b) => char.get(b)).join('');
    return `[${JSON.stringify(Buffer.from(alphabet).toString('base64'))}, ${JSON.stringify(text)}]`;
  });
  const expression =
    `(function (n, planes, chars) {\n` +
    `  var bytes = new Uint8Array(n), text = '';\n` +
    `  for (var lane = 0; lane < 4; lane++) {\n` +
    `    var p = planes[lane], table = null;\n` +
    `    if (typeof p === 'string') p = atob(p);\n` +
    `    else {\n` +
    `      var alphabet = atob(p[0]);\n` +
    `      table = new Uint8Array(128);\n` +
    `      for (var c = 0; c < alphabet.length; c++) table[chars.charCodeAt(c)] = alphabet.charCodeAt(c);\n` +
    `      p = p[1];\n` +
    `    }\n` +
    `    for (var i = lane, k = 0; i < n; i += 4, k++) bytes[i] = table ? table[p.charCodeAt(k)] : p.charCodeAt(k);\n` +
    `  }\n` +
    `  for (var j = 0; j < n; j += 32768) text += String.fromCharCode.apply(null, bytes.subarray(j, j + 32768));\n` +
    `  return btoa(text);\n` +
    `})(${bytes.length}, [\n${encoded.join(',\n')}\n], ${JSON.stringify(PLANE_CHARS)})`;
  if (runInNewContext(expression, { atob, btoa }) !== base64)
    throw new Error('build-nmt-worker: the planes do not give the checkpoint back');
  return expression;
}

/** A data script storing the base64 string `base64` (a checkpoint) under `key`, in planes (planesExpression). */
export const planesDataScript = (key, base64, comment) =>
  `// ${comment} (bytes in four planes: build-nmt-worker.mjs)\n` +
  `(globalThis.attentionLabData = globalThis.attentionLabData || {})[${JSON.stringify(key)}] = ${planesExpression(base64)};\n`;

/** Writes the checkpoint data script into `dir`. */
export function writeNmtCheckpoint(dir) {
  const base64 = readFileSync(join(root, 'web/assets/seq2seq-dates.b64.txt'), 'utf8').trim();
  writeFileSync(
    join(dir, 'nmt-checkpoint.js'),
    planesDataScript(
      'seq2seq-dates',
      base64,
      'The NMT chapter’s shipped checkpoint (base64): npm run train-checkpoint',
    ),
  );
}

/** Writes the Transformer chapter's checkpoint data script into `dir`. */
export function writeTransformerCheckpoint(dir) {
  const base64 = readFileSync(join(root, 'web/assets/transformer-dates.b64.txt'), 'utf8').trim();
  writeFileSync(
    join(dir, 'transformer-checkpoint.js'),
    planesDataScript(
      'transformer-dates',
      base64,
      'The trained Transformer chapter’s shipped checkpoint (base64): npm run train-transformer-checkpoint',
    ),
  );
}

/**
 * The site's worker: one classic script stored as text in a data script. Its API is
 * with-trainers.js (no model reader: the worker opens no model). The wasm binaries'
 * data scripts (dist/lib/*.wasm.js) are left out: the glue reads
 * globalThis.attentionLabData['wasm:<name>'], which the page defines first
 * (lesson-kit/engine-connection.js, from the site's wasm/ copies).
 */
export async function writeNmtWorkerSource(dir) {
  const result = await build({
    ...common,
    format: 'iife',
    write: false,
    alias: { 'attention-lab': join(root, 'dist/lib/with-trainers.js') },
    plugins: [
      {
        name: 'wasm-from-the-page',
        setup(b) {
          b.onResolve({ filter: /\.wasm\.js$/ }, ({ path }) => ({ path, namespace: 'page-wasm' }));
          b.onLoad({ filter: /.*/, namespace: 'page-wasm' }, () => ({ contents: '', loader: 'js' }));
        },
      },
    ],
  });
  if (/base64,(AGFzbQ|H4sI)/.test(result.outputFiles[0].text))
    throw new Error('build-nmt-worker: the site worker holds a wasm binary of its own');
  writeFileSync(
    join(dir, 'nmt-worker-source.js'),
    dataScript('nmt-worker', result.outputFiles[0].text, 'The NMT chapter’s Web Worker, started from a Blob URL'),
  );
}

/**
 * The elements' one worker (web/src/site/elements/lesson-worker.js: this engine, the
 * GloVe file loader and the model lesson's model): an ES module that imports the API from
 * `apiPath` and the model reader ('attention-lab/model') from `readerPath` (relative to it).
 */
export async function writeLessonWorker(dir, apiPath, readerPath = '../lib/model/open.js') {
  await build({
    ...common,
    entryPoints: [join(root, 'web/src/site/elements/lesson-worker.js')],
    format: 'esm',
    outfile: join(dir, 'lesson-worker.js'),
    plugins: [
      {
        name: 'shared-api',
        setup(b) {
          b.onResolve({ filter: /^attention-lab$/ }, () => ({ path: apiPath, external: true }));
          b.onResolve({ filter: /^attention-lab\/model$/ }, () => ({ path: readerPath, external: true }));
        },
      },
    ],
  });
}
