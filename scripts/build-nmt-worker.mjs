// Bundles the NMT chapter's Web Worker (web/src/site/chapters/nmt-worker.js,
// with the wasm core inlined) into build/nmt-worker.txt, which the chapter
// imports as a string (esbuild's default text loader) and starts from a Blob
// URL: a page opened from file:// cannot start a worker from a file.
// Called by scripts/build-web.mjs after dist/lib is assembled.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function buildNmtWorker() {
  mkdirSync(join(root, 'build'), { recursive: true });
  await build({
    entryPoints: [join(root, 'web/src/site/chapters/nmt-worker.js')],
    outfile: join(root, 'build/nmt-worker.txt'),
    bundle: true,
    format: 'iife',
    target: 'es2020',
    minify: true,
    alias: { 'attention-lab': join(root, 'dist/lib/index.js') },
    logLevel: 'warning',
    logOverride: { 'empty-import-meta': 'silent' },
  });
}
