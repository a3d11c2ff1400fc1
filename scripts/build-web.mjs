// Assembles the npm package files (dist/lib, dist/classic, dist/elements) and
// the static site (dist/site) from web/ and the wasm module built by CMake (build/wasm).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => join(root, ...parts);

/**
 * esbuild with the options every output shares. The wasm glue reads
 * import.meta.url, which classic (iife) scripts lack; it is unused there
 * because the wasm is embedded, so that warning is silenced.
 */
const bundle = (options) =>
  build({
    bundle: true,
    target: 'es2020',
    minify: true,
    alias: { 'attention-lab': at('dist/lib/index.js') },
    logLevel: 'warning',
    logOverride: { 'empty-import-meta': 'silent' },
    ...options,
  });

const wasmModule = at('build/wasm/attention_core.mjs');
if (!existsSync(wasmModule)) throw new Error(`missing ${wasmModule}: run the wasm build first (scripts/build.sh)`);

// dist/lib: the package. Plain ES modules plus the single-file wasm module.
rmSync(at('dist/lib'), { recursive: true, force: true });
rmSync(at('dist/classic'), { recursive: true, force: true });
mkdirSync(at('dist/lib'), { recursive: true });
for (const file of readdirSync(at('web/src/api'))) {
  if (/\.(js|d\.ts)$/.test(file)) cpSync(at('web/src/api', file), at('dist/lib', file));
}
cpSync(wasmModule, at('dist/lib/attention_core.mjs'));

// Chapter Web Workers, bundled to text that their chapters import (see each script).
await (await import('./build-nmt-worker.mjs')).buildNmtWorker();

// dist/classic: the API as one classic script for pages that cannot load
// modules: <script src="attention-lab.js"> defines window.AttentionLab.
await bundle({
  entryPoints: [at('dist/lib/index.js')],
  outfile: at('dist/classic/attention-lab.js'),
  format: 'iife',
  globalName: 'AttentionLab',
});

// dist/elements: custom elements for other sites, as one ES module, plus one
// stylesheet (components + KaTeX) and KaTeX's fonts beside it.
rmSync(at('dist/elements'), { recursive: true, force: true });
mkdirSync(at('dist/elements'), { recursive: true });
await bundle({
  entryPoints: [at('web/src/site/elements.js')],
  outfile: at('dist/elements/attention-lab-elements.js'),
  format: 'esm',
});
writeFileSync(
  at('dist/elements/attention-lab.css'),
  `${readFileSync(at('node_modules/katex/dist/katex.min.css'), 'utf8')}\n${readFileSync(at('web/components.css'), 'utf8')}`,
);
cpSync(at('node_modules/katex/dist/fonts'), at('dist/elements/fonts'), { recursive: true });
cpSync(at('web/src/site/elements.d.ts'), at('dist/elements/attention-lab-elements.d.ts'));

// dist/site: one classic script (module scripts do not load from file://),
// the page, its styles and KaTeX's stylesheet and fonts. Nothing from a CDN.
rmSync(at('dist/site'), { recursive: true, force: true });
mkdirSync(at('dist/site/vendor/katex'), { recursive: true });
await bundle({
  entryPoints: [at('web/src/site/app.js')],
  outfile: at('dist/site/app.js'),
  format: 'iife',
  sourcemap: true,
  legalComments: 'linked',
});
cpSync(at('web/index.html'), at('dist/site/index.html'));
cpSync(at('web/styles.css'), at('dist/site/styles.css'));
cpSync(at('web/components.css'), at('dist/site/components.css'));
cpSync(at('web/favicon.svg'), at('dist/site/favicon.svg'));
const katexDist = at('node_modules/katex/dist');
cpSync(join(katexDist, 'katex.min.css'), at('dist/site/vendor/katex/katex.min.css'));
cpSync(join(katexDist, 'fonts'), at('dist/site/vendor/katex/fonts'), { recursive: true });
console.log('build-web: dist/lib, dist/classic, dist/elements and dist/site written');
