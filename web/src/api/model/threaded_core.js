// The threaded model module (model_core_threads.mjs, CMake's model_wasm_threads),
// imported only when a page can run it (model/core.js). Its pthread workers
// start from model_core_threads.worker.js beside it, which the glue names with
// new Worker(new URL('model_core_threads.worker.js', import.meta.url)): the
// form bundlers follow. The package's own bundles (the classic scripts, the
// site) replace this file with `null` (scripts/build-web.mjs): one thread there.
export const importThreadedCore = () => import('./model_core_threads.mjs');
