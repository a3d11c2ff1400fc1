// Builds the site's scripts (dist/site): classic scripts only, because module
// scripts do not load from file://. The chapters load lazily all the same:
//   app.js               the shell (contents bar, routing, step mode) plus the
//                        modules two chapters share that the shell or the first
//                        chapter needs; it publishes them in globalThis.attentionLabModules
//   chapters/shared.js   the other modules two chapters share (the NMT engine, token
//                        lines, …), injected before the first chapter that needs them
//   chapters/<id>.js     one classic script per chapter, injected when a reader
//                        opens it (a data script, see web/src/site/data-script.js):
//                        the chapter's own modules; imports of shared modules read
//                        attentionLabModules, so there is one copy of each per page
//   attention-lab.js     the API and its wasm core: a copy of dist/classic/attention-lab.js,
//                        loaded by site-api.js (the package leaves the copy out)
//   katex.js             KaTeX's code (a copy of dist/classic/katex.js), injected only for
//                        a formula that was not typeset at build time (katex-loader.js)
// In the chapter list (scripts/chapters.mjs, from chapters/*/meta.js), each
// `load: () => import('./<id>/chapter.js')` becomes a request for chapters/<id>.js.
// Called by scripts/build-web.mjs after dist/lib is assembled.
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { CHAPTER_IMPORT, chapterListPlugin, chapterMetas } from './chapters.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const site = join(root, 'web/src/site');
const SHARED_KEY = 'chapters:shared'; // chapters/shared.js's data-script key

const common = {
  bundle: true,
  absWorkingDir: root,
  target: 'es2020',
  minify: true,
  // The API comes from the classic build, its own script (site-api.js): one wasm copy in the package.
  alias: { 'attention-lab': join(site, 'site-api.js') },
  logLevel: 'warning',
  logOverride: { 'empty-import-meta': 'silent' },
};

/** The chapter ids, in order (every chapters/<id>/meta.js). */
export async function siteChapterIds() {
  return (await chapterMetas()).map(({ id }) => id);
}

/**
 * Plugin: the chapter list with each import('./<id>/chapter.js') replaced by the
 * injected chapters/<id>.js, preceded by chapters/shared.js for the chapters in `needShared`.
 * `url` turns a file of the site ('chapters/x.js') into the expression of its URL
 * (the site: relative to the page; the classic elements: to their own address).
 */
export const lazyChapters = (needShared, url = (file) => JSON.stringify(file)) =>
  chapterListPlugin(
    (source) =>
      `import { loadDataScript as __chapterScript } from '../data-script.js';\n` +
      source.replace(CHAPTER_IMPORT, (_, id) => {
        const chapter = `__chapterScript('chapter:${id}', [${url(`chapters/${id}.js`)}])`;
        const script = needShared.has(id)
          ? `__chapterScript('${SHARED_KEY}', [${url('chapters/shared.js')}]).then(() => ${chapter})`
          : chapter;
        return `${script}.then((c) => ({ default: c }))`;
      }),
  );

/**
 * Plugin: katex-loader.js loading KaTeX from a data script (dist/classic/katex.js,
 * built by build-web.mjs) instead of a chunk, for classic-script builds. `urls` is
 * the expression of the URLs to try, in the page.
 */
export const katexFromDataScript = (urls) => ({
  name: 'katex-data-script',
  setup(b) {
    b.onLoad({ filter: /[\\/]katex-loader\.js$/ }, ({ path }) => ({
      contents:
        `import { loadDataScript } from './data-script.js';\n` +
        `export const loadKatex = () => loadDataScript('katex', ${urls});\n`,
      loader: 'js',
      resolveDir: dirname(path),
    }));
  },
});
// The site's copy, then the package's (the site hosted from node_modules/attention-lab/dist/site/).
const lazyKatex = katexFromDataScript("['katex.js', '../classic/katex.js']");

/** The input files (absolute) of a bundle of `entry`. */
async function moduleGraph(entry, plugins = []) {
  const { metafile } = await build({ ...common, entryPoints: [entry], write: false, metafile: true, plugins });
  return Object.keys(metafile.inputs).map((p) => join(root, p));
}

/** Key of a shared module in attentionLabModules: its path from the repository root. */
const keyOf = (path) => relative(root, path).split('\\').join('/');

/**
 * The registry code for `paths`: each module's exports as getters (so bindings
 * stay live; __esModule so default imports read `default`), added to
 * globalThis.attentionLabModules under keyOf(path).
 */
export const registryCode = (paths) =>
  paths.map((p, i) => `import * as m${i} from ${JSON.stringify(p)};`).join('\n') +
  `\nconst live = (ns) => Object.defineProperties({}, Object.fromEntries(['__esModule', ...Object.keys(ns)].map(` +
  `(k) => [k, { enumerable: true, get: k === '__esModule' ? () => true : () => ns[k] }])));\n` +
  `Object.assign((globalThis.attentionLabModules = globalThis.attentionLabModules || {}), {\n` +
  paths.map((p, i) => `  ${JSON.stringify(keyOf(p))}: live(m${i}),`).join('\n') +
  `\n});\n`;

/** Plugin: imports of the modules in `registered` read globalThis.attentionLabModules; the rest is bundled. */
const fromRegistry = (registered) => ({
  name: 'site-shared-modules',
  setup(b) {
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData?.resolving || args.kind === 'entry-point') return undefined;
      const found = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      });
      if (found.errors.length || !registered.has(found.path)) return undefined;
      return { path: keyOf(found.path), namespace: 'site-shared' };
    });
    b.onLoad({ filter: /.*/, namespace: 'site-shared' }, ({ path }) => ({
      contents: `module.exports = globalThis.attentionLabModules[${JSON.stringify(path)}];`,
      loader: 'js',
    }));
  },
});

/** Writes dist/site/app.js (+ .map), dist/site/chapters/shared.js and dist/site/chapters/<id>.js. */
export async function buildSite(outDir) {
  const ids = await siteChapterIds();
  const shell = new Set(await moduleGraph(join(site, 'app.js'), [lazyChapters(new Set()), lazyKatex]));
  const graphs = new Map();
  for (const id of ids) graphs.set(id, await moduleGraph(join(site, 'chapters', id, 'chapter.js'), [lazyKatex]));
  const counts = new Map();
  for (const graph of graphs.values()) for (const path of graph) counts.set(path, (counts.get(path) ?? 0) + 1);
  // Shared: the shell's modules and any module two chapters import (one copy, one state).
  const shared = new Set([...shell, ...[...counts].filter(([, n]) => n > 1).map(([p]) => p)]);
  const isJs = (p) => /\.(m?js)$/.test(p);
  // The shell carries the shared modules it or the first chapter (where readers land) needs;
  // the others (the NMT engine, token lines, …) go to chapters/shared.js, injected before the
  // first chapter that needs them, so they stay out of the first load.
  const eager = new Set([...shell, ...graphs.get(ids[0])]);
  const shellJs = [...shared].filter((p) => isJs(p) && eager.has(p)).sort();
  const laterJs = [...shared].filter((p) => isJs(p) && !eager.has(p)).sort();
  const needShared = new Set(ids.filter((id) => graphs.get(id).some((p) => laterJs.includes(p))));

  await build({
    ...common,
    stdin: {
      contents: `import './site-registry';\nimport ${JSON.stringify(join(site, 'app.js'))};\n`,
      resolveDir: site,
      sourcefile: 'site-entry.js',
    },
    outfile: join(outDir, 'app.js'),
    format: 'iife',
    sourcemap: true,
    legalComments: 'linked',
    plugins: [
      lazyChapters(needShared),
      lazyKatex,
      {
        name: 'site-registry',
        setup(b) {
          b.onResolve({ filter: /^\.\/site-registry$/ }, () => ({ path: 'site-registry', namespace: 'site-registry' }));
          b.onLoad({ filter: /.*/, namespace: 'site-registry' }, () => ({
            contents: registryCode(shellJs),
            resolveDir: site,
          }));
          // app.js exports nothing and package.json's sideEffects leaves it out: keep it.
          b.onResolve({ filter: /[\\/]app\.js$/ }, ({ path }) => ({ path, sideEffects: true }));
        },
      },
    ],
  });

  // chapters/shared.js: the later shared modules, reading the shell's from the registry.
  await build({
    ...common,
    stdin: {
      contents:
        registryCode(laterJs) +
        `(globalThis.attentionLabData = globalThis.attentionLabData || {})[${JSON.stringify(SHARED_KEY)}] = true;\n`,
      resolveDir: site,
      sourcefile: 'chapters-shared.js',
    },
    outfile: join(outDir, 'chapters', 'shared.js'),
    format: 'iife',
    plugins: [fromRegistry(new Set(shellJs)), lazyKatex],
  });

  // The chapters: shared modules come from the registry, the rest is bundled in.
  for (const id of ids) {
    await build({
      ...common,
      stdin: {
        contents:
          `import chapter from './chapters/${id}/chapter.js';\n` +
          `(globalThis.attentionLabData = globalThis.attentionLabData || {})[${JSON.stringify(`chapter:${id}`)}] = chapter;\n`,
        resolveDir: site,
        sourcefile: `chapter-${id}.js`,
      },
      outfile: join(outDir, 'chapters', `${id}.js`),
      format: 'iife',
      plugins: [fromRegistry(shared), lazyKatex],
    });
  }
  // For the classic elements, which load these chapter scripts too (build-web.mjs): the shell's
  // modules the chapters read from the registry, and the chapters that need chapters/shared.js.
  const chapterModules = new Set([...graphs.values()].flat());
  return {
    ids,
    shared: [...shellJs, ...laterJs].map(keyOf),
    chaptersRead: shellJs.filter((p) => chapterModules.has(p)),
    needShared,
  };
}
