// Bundled into each classic script that instantiates a wasm module
// (dist/classic/attention-lab.js, -trainers.js, -model.js; build-web.mjs): the
// binary is not inside but in the package's data script dist/lib/<name>.wasm.js
// (scripts/pack-wasm.mjs), which the ES modules import too, so the package holds
// each binary once. A classic script loads it before the module's factory runs:
//   a page:   a <script> from WASM_DIR beside the classic script's own address
//             (classic scripts load from file:// too);
//   a worker: importScripts, from WASM_DIR beside the worker (the site's workers
//             sit beside its scripts, and dist/site/ beside dist/classic/);
//   else:     import() of dist/lib/<name>.wasm.js, a literal path that Node (from
//             dist/classic/) and bundlers (which then bundle the file) resolve.
// A page that inlines the classic script (a notebook's output) inlines the data
// script before it: nothing is fetched then.
/* global document, importScripts, self */

// The classic script's own address, read while it runs.
const script = typeof document !== 'undefined' && document.currentScript ? document.currentScript.src : '';
// '../lib/' in dist/classic/; the site's copies read their own folder (build-web.mjs rewrites the marker).
const WASM_DIR = '../lib/#wasm-dir'.split('#')[0];

const pending = new Map();

function check(key, url) {
  if (globalThis.attentionLabData?.[key] === undefined)
    throw new Error(`attention-lab: ${url} did not define the wasm binary ${key}`);
}

function inject(url, key) {
  return new Promise((resolve, reject) => {
    const tag = document.createElement('script');
    tag.src = url;
    tag.onload = () => {
      tag.remove();
      try {
        check(key, url);
        resolve();
      } catch (error) {
        reject(error);
      }
    };
    tag.onerror = () => {
      tag.remove();
      reject(new Error(`attention-lab: cannot load ${url}`));
    };
    document.head.append(tag);
  });
}

/**
 * Resolves once the data script of `key` (`file`, relative to dist/lib/) has run;
 * `importer` imports it with a literal path (build-web.mjs writes it).
 */
export function loadWasmData(key, file, importer) {
  if (globalThis.attentionLabData?.[key] !== undefined) return Promise.resolve();
  if (!pending.has(key)) {
    const path = WASM_DIR + file;
    let loading;
    // A bundler's bundle has an address too, with no dist/lib/ beside it: then the import.
    if (script)
      loading = inject(new URL(path, script).href, key).catch((error) => importer().catch(() => Promise.reject(error)));
    else if (typeof importScripts === 'function') {
      loading = new Promise((resolve) => {
        const url = new URL(path, self.location.href).href;
        importScripts(url);
        check(key, url);
        resolve();
      });
    } else {
      loading = importer().then(
        () => check(key, file),
        (error) => {
          if (typeof document === 'undefined') throw error;
          throw new Error(
            `attention-lab: this classic script has no address (inlined?): inline dist/lib/${file} before it`,
          );
        },
      );
    }
    pending.set(key, loading);
    loading.catch(() => pending.delete(key)); // a later call tries again
  }
  return pending.get(key);
}
