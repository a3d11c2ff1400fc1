// Assembles the npm package files (dist/lib, dist/classic, dist/elements) and
// the static site (dist/site) from web/ and the wasm module built by CMake (build/wasm).
import { writeDemoModel } from './build-demo-model.mjs';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, transformSync } from 'esbuild';
import { writeOembed } from './build-oembed.mjs';
import { buildSite, katexFromDataScript, lazyChapters, registryCode } from './build-site.mjs';
import { chapterMetas, chapterUnion } from './chapters.mjs';
import { packThreadedModule, packWasmModule, wasmDataKey } from './pack-wasm.mjs';
import { writeKatexFonts } from './build-katex-fonts.mjs';
import {
  writeNmtCheckpoint,
  writeLessonWorker,
  writeNmtWorkerSource,
  writeTransformerCheckpoint,
} from './build-nmt-worker.mjs';

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
    plugins: [...(options.plugins ?? []), bundledModelModules],
  });

/**
 * Plugin: CSS imported as text (the elements' shadow styles) without its comments and
 * white space. The site's stylesheets are copied the same way (minifiedCss).
 */
const minifiedCss = (file) => transformSync(readFileSync(file, 'utf8'), { loader: 'css', minifyWhitespace: true }).code;
const cssAsMinifiedText = {
  name: 'css-as-minified-text',
  setup(b) {
    b.onLoad({ filter: /\.css$/ }, ({ path }) => ({ contents: minifiedCss(path), loader: 'text' }));
  },
};

// The bundles (classic scripts, the site) cannot import the threaded module
// from beside their chunks (its worker file would not be there): they import it
// from the absolute URL in globalThis.attentionLabThreadedCore when a page set
// one (the site's model worker on a cross-origin isolated page:
// lesson-kit/model-proxy.js, the package's dist/lib copy), else run one thread.
// dist/lib (unbundled, or bundled by the user's bundler) imports it beside itself.
const bundledModelModules = {
  name: 'bundled-model-modules',
  setup(b) {
    b.onLoad({ filter: /[\\/]model[\\/]modules\.js$/ }, ({ path }) => ({
      contents:
        "import createModelCore from './model_core.mjs';\n" +
        'const threadedUrl = globalThis.attentionLabThreadedCore;\n' +
        "export const importThreadedCore = typeof threadedUrl === 'string' ? () => import(threadedUrl) : null;\n" +
        'export const importModelCore = () => Promise.resolve({ default: createModelCore });\n',
      loader: 'js',
      resolveDir: dirname(path),
    }));
  },
};

const wasmModule = at('build/wasm/attention_core.mjs');
// The model families' module (CMake's model_wasm), shipped beside the reader as dist/lib/model/<this name>.
const MODEL_MODULE = 'model_core.mjs';
const modelModule = at('build/wasm', MODEL_MODULE);
const trainerModule = at('build/wasm/trainer_core.mjs');
for (const module of [wasmModule, modelModule, trainerModule, at('build/wasm/model_core_threads.mjs')])
  if (!existsSync(module)) throw new Error(`missing ${module}: run the wasm build first (scripts/build.sh)`);

// dist/lib: the package. Plain ES modules plus the single-file wasm module (pack-wasm.mjs).
rmSync(at('dist/lib'), { recursive: true, force: true });
rmSync(at('dist/classic'), { recursive: true, force: true });
mkdirSync(at('dist/lib'), { recursive: true });
// The modules lose their comments and white space (names stay, so stack traces
// read): a page that loads them unbundled from node_modules gets 17 KiB gzip
// instead of 30 (issue 13's first load). The commented source is web/src/api/.
// Subfolders (model/, tokenizer/) keep their place.
for (const file of readdirSync(at('web/src/api'), { recursive: true })) {
  if (file.endsWith('.d.ts')) cpSync(at('web/src/api', file), at('dist/lib', file));
  else if (file.endsWith('.js')) {
    mkdirSync(dirname(at('dist/lib', file)), { recursive: true });
    const { code } = transformSync(readFileSync(at('web/src/api', file), 'utf8'), {
      format: 'esm',
      target: 'esnext',
      minifyWhitespace: true,
      minifySyntax: true,
    });
    writeFileSync(
      at('dist/lib', file),
      `// attention-lab: web/src/api/${file} in the repository, minus comments.\n${code}`,
    );
  }
}
packWasmModule(wasmModule, at('dist/lib/attention_core.mjs')); // the binary gzip-compressed inside
// The model module, next to its reader (model/open.js imports it on the first openModel call).
packWasmModule(modelModule, at('dist/lib/model', MODEL_MODULE));
// Its threaded build and the pthread workers' startup script (model/core.js, model/modules.js).
packThreadedModule(at('build/wasm/model_core_threads.mjs'), at('dist/lib/model/model_core_threads.mjs'));
// The model families' registry (model/open.js imports it): one static import per
// folder web/src/api/model/families/<family>/ (its index.js is the family's row),
// so a new family adds a folder and edits no shared list.
const families = readdirSync(at('web/src/api/model/families'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(at('web/src/api/model/families', d.name, 'index.js')))
  .map((d) => d.name)
  .sort();
writeFileSync(
  at('dist/lib/model/families/index.js'),
  '// attention-lab: the model families, one per folder of web/src/api/model/families/ (written by the build).\n' +
    families.map((f, i) => `import f${i} from './${f}/index.js';\n`).join('') +
    `export const FAMILIES = [${families.map((_, i) => `f${i}`).join(', ')}];\n`,
);
// Its types: every family's types.d.ts, whose declarations add the family to
// ModelFamilies (openModel's result) and its tokenizer files to ModelFiles.
writeFileSync(
  at('dist/lib/model/families/index.d.ts'),
  "// attention-lab: the model families' types, one per folder of web/src/api/model/families/ (written by the build).\n" +
    families.map((f) => `export * from './${f}/types.js';\n`).join(''),
);
// The trainers' module, next to trainers.js (imported on the first loadTrainers call).
packWasmModule(trainerModule, at('dist/lib/trainer_core.mjs'));

// dist/classic: the API as one classic script for pages that cannot load
// modules: <script src="attention-lab.js"> defines window.AttentionLab. The
// folder's package.json says "commonjs", so Node and bundlers read the file as
// CommonJS (require/import of 'attention-lab/classic' gets the same object)
// instead of as an ES module without exports.
/** A classic script's stand-in for import.meta.url: `file` resolved against the script's own src. */
const classicModuleUrl = (name, file) =>
  `var ${name} = typeof document !== "undefined" && document.currentScript && document.currentScript.src ? ` +
  `new URL(${JSON.stringify(file)}, document.currentScript.src).href : undefined;`;
// `0 && (module.exports = { a, b })` (never run) names the exports for Node's
// CommonJS lexer, so that `import { loadAttention } from 'attention-lab/classic'` works
// in Node as the types (classic-api.d.ts) promise; `keys` are the module's.
const commonJsFooter = (name, keys) => ({
  js:
    `if (typeof module === 'object' && module && module.exports) {` +
    ` module.exports = ${name}; 0 && (module.exports = { ${keys.join(', ')} }); }`,
});
const exportNames = async (file) => Object.keys(await import(pathToFileURL(file).href));
// The wasm binaries ship once, in dist/lib/<name>.wasm.js (pack-wasm.mjs), which the ES
// modules import. In a classic script, each wasm module's factory (dist/lib/**/*_core.mjs)
// first loads that data script (scripts/classic-wasm-loader.js) and the import is dropped.
const classicWasmLoader = at('scripts/classic-wasm-loader.js');
const classicWasm = {
  name: 'classic-wasm-data',
  setup(b) {
    b.onResolve({ filter: /\.wasm\.js$/ }, ({ path, kind }) =>
      // the loader's import() stays (a path from dist/classic/); the glue's static import goes
      kind === 'dynamic-import' ? { path, external: true } : { path, namespace: 'classic-wasm-dropped' },
    );
    b.onLoad({ filter: /.*/, namespace: 'classic-wasm-dropped' }, () => ({ contents: '', loader: 'js' }));
    b.onResolve({ filter: /_core\.mjs$/ }, ({ path, resolveDir, namespace }) => {
      const file = resolve(resolveDir, path);
      return namespace === 'classic-wasm' ? { path: file } : { path: file, namespace: 'classic-wasm' };
    });
    b.onLoad({ filter: /.*/, namespace: 'classic-wasm' }, ({ path }) => {
      const name = relative(at('dist/lib'), path)
        .split('\\')
        .join('/')
        .replace(/\.mjs$/, '');
      return {
        contents:
          `import factory from ${JSON.stringify(path)};\n` +
          `import { loadWasmData } from ${JSON.stringify(classicWasmLoader)};\n` +
          `export default (options) => loadWasmData(${JSON.stringify(wasmDataKey(name.split('/').pop()))}, ` +
          `${JSON.stringify(`${name}.wasm.js`)}, () => import(${JSON.stringify(`../lib/${name}.wasm.js`)}))` +
          `.then(() => factory(options));\n`,
        loader: 'js',
        resolveDir: dirname(path),
      };
    });
  },
};
/** Copies a classic script into the site, reading the wasm data scripts from the site's wasm/ folder. */
function copyClassicToSite(file) {
  const text = readFileSync(at('dist/classic', file), 'utf8');
  const marker = '../lib/#wasm-dir';
  if (text.includes('_core.wasm.js') && !text.includes(marker)) throw new Error(`build-web: ${file} lost ${marker}`);
  writeFileSync(at('dist/site', file), text.replaceAll(marker, 'wasm/#wasm-dir'));
}
/** The wasm data scripts (dist/lib/**\/*.wasm.js) copied to dist/site/wasm/, for the site's classic scripts. */
function copyWasmDataToSite() {
  // (not the threaded model module's: the classic scripts run one thread)
  const forSite = (f) => f.endsWith('.wasm.js') && !f.endsWith('_threads.wasm.js');
  for (const file of readdirSync(at('dist/lib'), { recursive: true }).filter(forSite)) {
    mkdirSync(dirname(at('dist/site/wasm', file)), { recursive: true });
    cpSync(at('dist/lib', file), at('dist/site/wasm', file));
  }
}
// The model reader and its wasm module (model/open.js, model/model_core.mjs) are a
// dynamic import in dist/lib, loaded on the first openModel call, so no lesson's
// first load carries them (issue 13's 300 KiB). The classic script keeps them out
// too, and loads them the way a classic script can from file:// as well: as the
// data script attention-lab-model.js next to its own address (built below;
// scripts/classic-lazy-loader.js), where import() of a module would be refused.
const MODEL_DATA_KEY = 'attention-lab-model';
const modelReaderAsDataScript = {
  name: 'model-reader-as-data-script',
  setup(b) {
    b.onLoad({ filter: /dist[\\/]lib[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const lazy = /\bimport\((["'])\.\/model\/open\.js\1\)/;
      if (!lazy.test(source))
        throw new Error(`build-web: ${args.path} no longer loads the reader with import('./model/open.js')`);
      return { contents: trainersAsDataScript(source.replace(lazy, '__attentionLabLoadModel()')), loader: 'js' };
    });
  },
};
// The trainers likewise (web/src/api/trainers.js with trainer_core.mjs, imported by
// loadTrainers): the data script attention-lab-trainers.js beside the classic API
// (scripts/classic-lazy-loader.js); Node, which has no script elements, imports
// the package's ES module (../lib/trainers.js from dist/classic/).
const TRAINERS_DATA_KEY = 'attention-lab-trainers';
function trainersAsDataScript(source) {
  const lazy = /\bimport\((["'])\.\/trainers\.js\1\)/;
  if (!lazy.test(source))
    throw new Error("build-web: dist/lib/index.js no longer loads the trainers with import('./trainers.js')");
  return source.replace(lazy, '__attentionLabLoadTrainers()');
}
const classicLazyLoader = readFileSync(at('scripts/classic-lazy-loader.js'), 'utf8')
  .replace('__MODEL_DATA_KEY__', MODEL_DATA_KEY)
  .replace('__TRAINERS_DATA_KEY__', TRAINERS_DATA_KEY);

// The classic API. It also registers as the data script 'attention-lab' (data-script.js): the
// site loads it that way. Its import.meta.url is the address dist/lib/index.js has next to it (from the
// script's own src), so loadDefaultEmbeddings() finds ../lib/embeddings/ (the site
// names its own copy).
await bundle({
  entryPoints: [at('dist/lib/index.js')],
  outfile: at('dist/classic/attention-lab.js'),
  format: 'iife',
  plugins: [modelReaderAsDataScript, classicWasm],
  banner: {
    js:
      `${classicModuleUrl('__attentionLabApiUrl', '../lib/index.js')}\n` +
      'var __attentionLabScript = typeof document !== "undefined" && document.currentScript ? document.currentScript.src : undefined;\n' +
      classicLazyLoader,
  },
  globalName: 'AttentionLab',
  define: { 'import.meta.url': '__attentionLabApiUrl' },
  footer: {
    js:
      `${commonJsFooter('AttentionLab', await exportNames(at('dist/lib/index.js'))).js}\n` +
      'if (typeof globalThis === "object") (globalThis.attentionLabData = globalThis.attentionLabData || {})["attention-lab"] = AttentionLab;',
  },
});
// The model reader (its wasm module loads from ../lib/) as one data script (MODEL_DATA_KEY), for the classic API.
await bundle({
  entryPoints: [at('dist/lib/model/open.js')],
  outfile: at('dist/classic/attention-lab-model.js'),
  format: 'iife',
  plugins: [classicWasm],
  globalName: '__attentionLabModel',
  footer: {
    js: `(globalThis.attentionLabData = globalThis.attentionLabData || {})[${JSON.stringify(MODEL_DATA_KEY)}] = __attentionLabModel;`,
  },
});
// Its body kept as a function under another key too, run at once: the model chapter starts its
// worker from that function's source text (lesson-kit/model-proxy.js), so the site ships no copy.
{
  const file = at('dist/classic/attention-lab-model.js');
  writeFileSync(
    file,
    `(globalThis.attentionLabData = globalThis.attentionLabData || {})['attention-lab-model-source'] = function () {\n` +
      `${readFileSync(file, 'utf8')}\n};\nglobalThis.attentionLabData['attention-lab-model-source']();\n`,
  );
}
// The trainers with their wasm module as one data script (TRAINERS_DATA_KEY), for the
// classic API. Their matrices are the classic API's Matrix (one class per page).
await bundle({
  entryPoints: [at('dist/lib/trainers.js')],
  outfile: at('dist/classic/attention-lab-trainers.js'),
  format: 'iife',
  globalName: '__attentionLabTrainers',
  plugins: [
    classicWasm,
    {
      name: 'classic-api-matrix',
      setup(b) {
        const real = at('dist/lib/matrix.js');
        b.onResolve({ filter: /[\\/]matrix\.js$/ }, ({ namespace }) =>
          namespace === 'classic-api' ? { path: real } : { path: 'matrix', namespace: 'classic-api' },
        );
        b.onLoad({ filter: /.*/, namespace: 'classic-api' }, () => ({
          contents:
            `export * from ${JSON.stringify(real)};\n` +
            `export const Matrix = globalThis.attentionLabData['attention-lab'].Matrix;\n`,
          loader: 'js',
          resolveDir: at('dist/lib'),
        }));
      },
    },
  ],
  footer: {
    js: `(globalThis.attentionLabData = globalThis.attentionLabData || {})[${JSON.stringify(TRAINERS_DATA_KEY)}] = __attentionLabTrainers;`,
  },
});
// KaTeX's code as a data script ('katex'), for the classic builds' formulas that
// were not typeset at build time (web/src/site/katex-loader.js): the classic
// elements load it from here, the site its copy (then this one).
await bundle({
  stdin: {
    contents: `import katex from 'katex';\n(globalThis.attentionLabData = globalThis.attentionLabData || {}).katex = katex;\n`,
    resolveDir: root,
    sourcefile: 'katex-data-script.js',
  },
  outfile: at('dist/classic/katex.js'),
  format: 'iife',
});
writeFileSync(
  at('dist/classic/package.json'),
  `${JSON.stringify({ type: 'commonjs', description: 'classic scripts (IIFE): see README' }, null, 2)}\n`,
);

// The API module as a module script storing its exports under attentionLabData (the
// classic elements load it so, without import(): web/src/site/elements/api-import.js).
writeFileSync(
  at('dist/lib/as-data-script.js'),
  "// attention-lab: the API module's exports in attentionLabData['attention-lab-module'], for the classic elements.\n" +
    "import * as api from './index.js';\n(globalThis.attentionLabData = globalThis.attentionLabData || {})['attention-lab-module'] = api;\n",
);

// require('attention-lab') from CommonJS: a clear error instead of Node's
// "No exports main defined" (the package is ES modules only).
writeFileSync(
  at('dist/lib/esm-only.cjs'),
  `'use strict';\nthrow new Error("attention-lab is ESM only: use import('attention-lab') (or import ... from 'attention-lab' in an ES module)");\n`,
);
writeFileSync(
  at('dist/lib/esm-only.d.cts'),
  "// attention-lab is ESM only: use import('attention-lab'). require() throws, and this\n" +
    '// empty module makes a static import in CommonJS TypeScript fail at type-check\n' +
    '// (TS2305: no exported member) instead of at run time.\nexport {};\n',
);

// dist/elements: the custom elements as an ES module that imports the API
// from ../lib (so a page that also imports 'attention-lab' shares one wasm
// instance) and runs the classic elements script (built after the site, below),
// KaTeX's woff2 fonts beside it, and a tiny host stylesheet (the
// elements carry their own styles in their shadow roots).
const katexFonts = writeKatexFonts(root);
const sharedApi = {
  name: 'attention-lab-external',
  setup(b) {
    b.onResolve({ filter: /^attention-lab$/ }, () => ({ path: '../lib/index.js', external: true }));
  },
};
// The data scripts elements/assets.js imports (checkpoints, the demo model) are written next to the bundle (below).
const besideElements = {
  name: 'attention-lab-beside-elements',
  setup(b) {
    b.onResolve({ filter: /^\.\/((nmt|transformer)-checkpoint|gpt2-demo)\.js$/ }, ({ path }) => ({
      path,
      external: true,
    }));
  },
};
rmSync(at('dist/elements'), { recursive: true, force: true });
mkdirSync(at('dist/elements/fonts'), { recursive: true });
for (const file of katexFonts) cpSync(at('node_modules/katex/dist/fonts', file), at('dist/elements/fonts', file));
// The lessons' worker (a module importing ../lib/index.js) and the checkpoints, loaded when a lesson opens.
await writeLessonWorker(at('dist/elements'), '../lib/with-trainers.js'); // the API with the trainers, no import()
writeNmtCheckpoint(at('dist/elements'));
writeTransformerCheckpoint(at('dist/elements'));
writeDemoModel(at('dist/elements'));
writeFileSync(
  at('dist/elements/attention-lab.css'),
  '/* attention-lab elements: optional. The elements style themselves (shadow DOM); this only\n' +
    '   reserves their block box before the script upgrades them (no layout shift). */\n' +
    'attention-lesson,attention-heatmap{display:block}\nattention-lesson:not(:defined){min-height:12rem}\n',
);
// The AttentionChapter union is written from the chapters' metas (chapters/*/meta.js).
const CHAPTER_TYPE = /^export type AttentionChapter = .*;$/m;
const elementTypes = readFileSync(at('web/src/site/elements.d.ts'), 'utf8');
if (!CHAPTER_TYPE.test(elementTypes)) throw new Error('build-web: elements.d.ts declares no AttentionChapter type');
writeFileSync(
  at('dist/elements/attention-lab-elements.d.ts'),
  elementTypes.replace(CHAPTER_TYPE, `export type AttentionChapter = ${chapterUnion(await chapterMetas())};`),
);
cpSync(at('web/src/site/elements-css.d.ts'), at('dist/elements/attention-lab-css.d.ts'));
cpSync(at('web/src/site/anywidget.d.ts'), at('dist/elements/anywidget.d.ts'));
// The classic scripts' types: CommonJS (dist/classic/package.json), module.exports = the API / the elements.
cpSync(at('web/src/site/classic-api.d.ts'), at('dist/classic/attention-lab.d.ts'));
cpSync(at('web/src/site/classic-elements.d.ts'), at('dist/classic/attention-lab-elements.d.ts'));
// 'attention-lab/anywidget': the Jupyter (anywidget) front end, one self-contained
// file for heatmaps; lessons import attention-lab-elements.js from where it is served.
await bundle({
  entryPoints: [at('web/src/site/anywidget.js')],
  outfile: at('dist/elements/anywidget.js'),
  format: 'esm',
  plugins: [cssAsMinifiedText],
});
// 'attention-lab/react': JSX typings only (an empty module at run time).
cpSync(at('web/src/site/elements-react.d.ts'), at('dist/elements/react.d.ts'));
writeFileSync(at('dist/elements/react.js'), '// Types only: see react.d.ts.\nexport {};\n');

// The elements' code ships once: as the classic script dist/classic/attention-lab-elements.js
// (below), which the ES module elements run too. The host is what a run by the ES module
// gets instead of the classic script's own URLs: `globalThis.attentionLabElementsHost`
// (web/src/site/elements/module-host.js), read when it is needed.
const HOST = 'globalThis.attentionLabElementsHost';

// The elements as a classic script for platforms where pages cannot contain
// module scripts: dist/classic/attention-lab-elements.js. It loads the API
// module (dist/lib/index.js) with a module script (elements/api-import.js), and finds
// its assets (fonts, workers, the vectors, KaTeX's code for a formula not typeset
// at build time: ../classic/katex.js) from its own address, as if it were
// dist/elements/attention-lab-elements.js. Its chapters are the site's classic
// chapter scripts (../site/chapters/<id>.js, one copy in the package for all),
// injected when a lesson shows one; they read the modules they share with the
// shell from globalThis.attentionLabModules, which this script fills with its own
// (`site`: what buildSite returned). Run by the ES module elements, it takes all of
// those from their host instead (HOST). Built after the site.
async function buildClassicElements(site) {
  const siteApi = at('web/src/site/site-api.js');
  const apiImport = at('web/src/site/elements/api-import.js');
  const elementsSource = at('web/src/site/elements.js');
  // Its exports, named for Node's CommonJS lexer (the footer).
  const { metafile } = await build({ entryPoints: [elementsSource], bundle: false, write: false, metafile: true });
  const names = Object.values(metafile.outputs)[0].exports;
  await bundle({
    stdin: {
      contents: `import './classic-elements-registry';\nexport * from ${JSON.stringify(elementsSource)};\n`,
      resolveDir: at('web/src/site'),
      sourcefile: 'classic-elements.js',
    },
    outfile: at('dist/classic/attention-lab-elements.js'),
    format: 'iife',
    globalName: 'AttentionLabElements',
    alias: { 'attention-lab': apiImport },
    define: { 'import.meta.url': '__attentionLabModuleUrl', ATTENTION_LAB_CLASSIC: 'true' },
    plugins: [
      cssAsMinifiedText,
      besideElements,
      katexFromDataScript(`[${HOST} ? ${HOST}.katex() : new URL('../classic/katex.js', import.meta.url)]`),
      // (no address when inlined, as in a notebook: then the page inlined the chapter too)
      lazyChapters(site.needShared, (file) => {
        const name = JSON.stringify(file);
        return `(${HOST} ? () => ${HOST}.script(${name}) : import.meta.url ? new URL(${JSON.stringify(`../site/${file}`)}, import.meta.url).href : '')`;
      }),
      {
        name: 'classic-elements-registry',
        setup(b) {
          b.onResolve({ filter: /^\.\/classic-elements-registry$/ }, () => ({
            path: 'registry',
            namespace: 'ce-registry',
          }));
          b.onLoad({ filter: /.*/, namespace: 'ce-registry' }, () => ({
            contents: registryCode(site.chaptersRead),
            resolveDir: at('web/src/site'),
          }));
          // The site's API module is, here, the elements' (the page's classic API or ../lib/).
          b.onResolve({ filter: /site-api\.js$/ }, ({ path, resolveDir }) =>
            resolve(resolveDir, path) === siteApi ? { path: apiImport } : undefined,
          );
        },
      },
    ],
    banner: { js: classicModuleUrl('__attentionLabModuleUrl', '../elements/attention-lab-elements.js') },
    footer: {
      js:
        `${commonJsFooter('AttentionLabElements', names).js}\n` +
        `(globalThis.attentionLabData = globalThis.attentionLabData || {})["attention-lab-elements"] = AttentionLabElements;`,
    },
  });
  return names;
}

// The elements as an ES module, dist/elements/attention-lab-elements.js: the host
// (dist/elements/attention-lab-elements-host.js, from elements/module-host.js: the
// API module, assets, fonts, KaTeX's code and each chapter script, with
// import('../site/chapters/<id>.js'), as literals every bundler follows), then the
// classic script for its side effect, whose elements it exports. `names`: the
// classic script's exports.
const CHAPTER_SCRIPT = /^\.\.\/site\/chapters\/[\w-]+\.js$/;
async function buildElements(site, names) {
  const files = ['chapters/shared.js', ...site.ids.map((id) => `chapters/${id}.js`)];
  await bundle({
    entryPoints: [at('web/src/site/elements/module-host.js')],
    outfile: at('dist/elements/attention-lab-elements-host.js'),
    format: 'esm',
    define: { ATTENTION_LAB_CLASSIC: 'false' },
    plugins: [
      sharedApi,
      besideElements,
      {
        name: 'elements-chapter-scripts',
        setup(b) {
          b.onResolve({ filter: /^attention-lab:chapter-scripts$/ }, () => ({ path: 'list', namespace: 'el-ch' }));
          b.onLoad({ filter: /.*/, namespace: 'el-ch' }, () => ({
            contents: `export default {\n${files.map((f) => `  ${JSON.stringify(f)}: () => import(${JSON.stringify(`../site/${f}`)}),\n`).join('')}};\n`,
            resolveDir: at('web/src/site/elements'),
          }));
          b.onResolve({ filter: CHAPTER_SCRIPT }, ({ path }) => ({ path, external: true }));
        },
      },
    ],
  });
  if (!names.includes('loadAttention')) throw new Error('build-web: the elements no longer export loadAttention');
  const exported = names.filter((n) => n !== 'loadAttention');
  writeFileSync(
    at('dist/elements/attention-lab-elements.js'),
    '// attention-lab elements (ES module): the classic script run with the host of this folder\n' +
      '// (attention-lab-elements-host.js), so that the package holds the elements once.\n' +
      "import './attention-lab-elements-host.js';\nimport '../classic/attention-lab-elements.js';\n" +
      "const elements = globalThis.attentionLabData['attention-lab-elements'];\n" +
      exported.map((n) => `export const ${n} = elements.${n};\n`).join('') +
      // One module for the page's import 'attention-lab' and the lessons: one wasm instance.
      "export const loadAttention = (options) => import('../lib/index.js').then((api) => api.loadAttention(options));\n",
  );
}

// dist/site: classic scripts (module scripts do not load from file://): the
// shell app.js and one script per chapter, loaded when it opens (build-site.mjs);
// the page, its styles and KaTeX's stylesheet and fonts. Nothing from a CDN.
rmSync(at('dist/site'), { recursive: true, force: true });
mkdirSync(at('dist/site/vendor/katex'), { recursive: true });
const site = await buildSite(at('dist/site')); // app.js + one classic script per chapter (chapters/<id>.js)
// The elements (which load those chapter scripts): the classic script, then the ES module running it.
await buildElements(site, await buildClassicElements(site));
copyClassicToSite('attention-lab.js'); // the API (site-api.js)
copyClassicToSite('attention-lab-model.js'); // its model reader, beside it
copyClassicToSite('attention-lab-trainers.js'); // its trainers
copyWasmDataToSite(); // their wasm binaries (the package's site reads ../lib/ instead)
cpSync(at('dist/classic/katex.js'), at('dist/site/katex.js')); // formulas missing from a chapter's map (math.js)
writeNmtCheckpoint(at('dist/site'));
writeTransformerCheckpoint(at('dist/site'));
writeDemoModel(at('dist/site'), ['gpt2-demo', 'llama-demo']);
await writeNmtWorkerSource(at('dist/site'));
cpSync(at('web/index.html'), at('dist/site/index.html'));
const publicAddress = writeOembed(at('dist/site')); // oembed/<id>.json + the discovery link, given a public URL
// The stylesheets without comments and white space (the commented source is web/).
writeFileSync(at('dist/site/styles.css'), minifiedCss(at('web/styles.css')));
writeFileSync(at('dist/site/components.css'), minifiedCss(at('web/components.css')));
writeFileSync(at('dist/site/katex-classes.css'), minifiedCss(at('web/src/site/formulas/katex-classes.css'))); // the formulas' classes
cpSync(at('web/favicon.svg'), at('dist/site/favicon.svg'));
cpSync(at('THIRD-PARTY-NOTICES.md'), at('dist/site/THIRD-PARTY-NOTICES.txt')); // linked from the footer
const katexDist = at('node_modules/katex/dist');
// KaTeX's stylesheet with woff2 fonts only (every browser the site supports reads woff2).
writeFileSync(
  at('dist/site/vendor/katex/katex.min.css'),
  readFileSync(join(katexDist, 'katex.min.css'), 'utf8')
    // only the faces the formulas can select ship (build-katex-fonts.mjs)
    .replace(/@font-face\s*\{[^}]*\}/g, (face) =>
      katexFonts.some((file) => face.includes(`fonts/${file})`)) ? face : '',
    )
    .replace(
      /src:url\((fonts\/[\w-]+\.woff2)\) format\("woff2"\)[^;}]*/g,
      // then the package's copy (the site hosted from node_modules/attention-lab/dist/site/)
      (_, file) => `src:url(${file}) format("woff2"),url(../../../elements/${file}) format("woff2")`,
    ),
);
mkdirSync(at('dist/site/vendor/katex/fonts'), { recursive: true });
for (const file of katexFonts) cpSync(join(katexDist, 'fonts', file), at('dist/site/vendor/katex/fonts', file));
console.log(
  `build-web: dist/lib, dist/classic, dist/elements and dist/site written (${publicAddress ? `oEmbed for ${publicAddress}` : 'no oEmbed: ATTENTION_LAB_PUBLIC_URL unset'})`,
);
