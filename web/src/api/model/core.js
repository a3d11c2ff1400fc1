// The model module of a page: one of two builds of the same core, instantiated
// once, on the first openModel call, and never both.
//   model_core.mjs          one thread; everywhere (file://, iframes, Node);
//   model_core_threads.mjs  a pool of threads sharing the wasm memory, only
//                           where the page is cross-origin isolated (COOP and
//                           COEP headers: SharedArrayBuffer and shared wasm
//                           memory exist) and workers can be made.
// Node has SharedArrayBuffer but no crossOriginIsolated: it gets one thread
// (Emscripten 3.1.6's threads in Node need ENVIRONMENT=node, whose ES module
// output still calls require() and a CommonJS worker file).
// The pool belongs to the module, so the page's models share it: each openModel
// sets it to its own count and m.threads reports the count in use.
import { importModelCore, importThreadedCore } from './modules.js';

/** Most threads 'auto' takes: memory bandwidth, not cores, bounds a forward pass beyond it. */
const AUTO_MOST = 8;

/** True where the threaded module can run: a cross-origin isolated page with workers. */
export function canUseThreads() {
  return (
    importThreadedCore !== null &&
    globalThis.crossOriginIsolated === true &&
    typeof SharedArrayBuffer === 'function' &&
    typeof Worker === 'function'
  );
}

/** The threads a checked request (undefined: 'auto') gets on this page. */
export function threadsFor(threads) {
  if (!canUseThreads()) return 1;
  if (threads === undefined || threads === 'auto')
    return Math.max(1, Math.min(AUTO_MOST, Math.floor(globalThis.navigator?.hardwareConcurrency ?? 1)));
  return threads;
}

/** @type {Promise<any> | undefined} */
let loading;
/** @type {any} the module once instantiated */
let instance;
/** Threads the module can run: 1, or its pool's workers and the calling thread. */
let most = 1;

/** The model module (instantiated on the first call, threaded if `threads` > 1), with its pool set to `threads` (at most what it has). */
export async function modelCoreWith(threads) {
  const createModelCore = () => importModelCore().then(({ default: create }) => create());
  loading ??= (
    threads > 1 && importThreadedCore
      ? importThreadedCore().then(
          ({ default: create }) => {
            most = threads;
            return create({ attentionLabWorkers: threads - 1 });
          },
          () => createModelCore(), // the threaded file is missing (a bundle left it out): one thread
        )
      : createModelCore()
  ).then((core) => (instance = core));
  const core = await loading;
  core.setThreadCount(Math.min(threads, most));
  return core;
}

/** The model module once instantiated, else undefined. */
export const modelCore = () => instance;
