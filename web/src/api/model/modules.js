// The two model modules (model/core.js picks one), each imported only when
// chosen, so a page fetches one. The threaded one (model_core_threads.mjs,
// CMake's model_wasm_threads) starts its pthread workers from
// model_core_threads.worker.js beside it, which the glue names with
// new Worker(new URL('model_core_threads.worker.js', import.meta.url)): the
// form bundlers follow. The package's own bundles (the classic scripts, the
// site) replace this file (scripts/build-web.mjs): there importThreadedCore is
// null (one thread) and model_core.mjs is a static import, evaluated while
// the classic script still knows its own address.
export const importThreadedCore = () => import('./model_core_threads.mjs');
export const importModelCore = () => import('./model_core.mjs');
