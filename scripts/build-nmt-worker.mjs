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

/**
 * A data script storing the base64 string `base64` (a checkpoint: float32 weights) under
 * `key`. Inside, its bytes are stored as four planes (byte 0 of every 4, then byte 1, …)
 * and put back in order when the script runs: the floats' sign and exponent bytes repeat,
 * so gzip packs the planes ~10% smaller (the package and a compressing server send that).
 */
export function planesDataScript(key, base64, comment) {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.toString('base64') !== base64) throw new Error(`build-nmt-worker: ${key} is not canonical base64`);
  const planes = Buffer.alloc(bytes.length);
  let k = 0;
  for (let lane = 0; lane < 4; lane++) for (let i = lane; i < bytes.length; i += 4) planes[k++] = bytes[i];
  return (
    `// ${comment} (bytes in four planes: build-nmt-worker.mjs)\n` +
    `(function (planes) {\n` +
    `  var n = planes.length, bytes = new Uint8Array(n), k = 0, text = '';\n` +
    `  for (var lane = 0; lane < 4; lane++) for (var i = lane; i < n; i += 4) bytes[i] = planes.charCodeAt(k++);\n` +
    `  for (var j = 0; j < n; j += 32768) text += String.fromCharCode.apply(null, bytes.subarray(j, j + 32768));\n` +
    `  (globalThis.attentionLabData = globalThis.attentionLabData || {})[${JSON.stringify(key)}] = btoa(text);\n` +
    `})(atob(${JSON.stringify(planes.toString('base64'))}));\n`
  );
}

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
