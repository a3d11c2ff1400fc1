// Builds the NMT chapter's Web Worker (web/src/site/chapters/nmt-worker.js) and
// its data scripts, which the chapter loads only when it opens (see
// web/src/site/data-script.js):
//   site:     nmt-worker-source.js   the worker bundled with the wasm core, as text
//                                   (started from a Blob URL: pages opened from
//                                   file:// cannot start a worker from a file)
//   elements: lesson-worker.js       an ES module worker importing ../lib/index.js,
//                                   so the wasm is the page's own file (one download);
//                                   it also loads the GloVe lesson's own files
//   both:     nmt-checkpoint.js      the shipped checkpoint (base64)
//             transformer-checkpoint.js  the trained Transformer chapter's (the same worker trains both)
// Called by scripts/build-web.mjs after dist/lib is assembled.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'web/src/site/chapters/nmt-worker.js');
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

/** Writes the checkpoint data script into `dir`. */
export function writeNmtCheckpoint(dir) {
  const base64 = readFileSync(join(root, 'web/assets/seq2seq-dates.b64.txt'), 'utf8').trim();
  writeFileSync(
    join(dir, 'nmt-checkpoint.js'),
    dataScript('seq2seq-dates', base64, 'The NMT chapter’s shipped checkpoint (base64): npm run train-checkpoint'),
  );
}

/** Writes the Transformer chapter's checkpoint data script into `dir`. */
export function writeTransformerCheckpoint(dir) {
  const base64 = readFileSync(join(root, 'web/assets/transformer-dates.b64.txt'), 'utf8').trim();
  writeFileSync(
    join(dir, 'transformer-checkpoint.js'),
    dataScript(
      'transformer-dates',
      base64,
      'The trained Transformer chapter’s shipped checkpoint (base64): npm run train-transformer-checkpoint',
    ),
  );
}

/**
 * Plugin: dist/lib/index.js's import of the trainers (a variable, which a Blob
 * URL's worker could not resolve) as a literal, so the worker carries them.
 */
const trainersInline = {
  name: 'trainers-inline',
  setup(b) {
    b.onLoad({ filter: /dist[\\/]lib[\\/]index\.js$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8');
      const lazy = /\bimport\(trainerModule\)/;
      if (!lazy.test(source)) throw new Error(`build-nmt-worker: ${path} no longer imports import(trainerModule)`);
      return { contents: source.replace(lazy, "import('./trainers.js')"), loader: 'js' };
    });
  },
};

/** The site's worker: one classic script with the wasm core inlined, stored as text in a data script. */
export async function writeNmtWorkerSource(dir) {
  const result = await build({
    ...common,
    format: 'iife',
    write: false,
    alias: { 'attention-lab': join(root, 'dist/lib/index.js') },
    plugins: [trainersInline],
  });
  writeFileSync(
    join(dir, 'nmt-worker-source.js'),
    dataScript('nmt-worker', result.outputFiles[0].text, 'The NMT chapter’s Web Worker, started from a Blob URL'),
  );
}

/**
 * The elements' one worker (web/src/site/elements/lesson-worker.js: this engine and the
 * GloVe file loader): an ES module that imports the API from `apiPath` (relative to it).
 */
export async function writeLessonWorker(dir, apiPath) {
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
        },
      },
    ],
  });
}
