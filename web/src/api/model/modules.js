// The two model modules (model/core.js picks one), each imported only when
// chosen, so a page fetches one.
//
// The threaded one (model_core_threads.mjs, CMake's model_wasm_threads) starts
// its pthread workers from model_core_threads.worker.js beside it, a classic
// worker that import()s the module again. Bundlers would follow a static
// import of it into the glue's new Worker(new URL(...)) and fail on that worker
// (Vite: code splitting in an iife worker), so it is named as an asset URL and
// import()ed at run time: served as the package ships it (node_modules,
// npx attention-lab, an import map) its neighbours are there and threads run;
// a bundler copies the file alone, the import fails, and model/core.js falls
// back to one thread before any worker starts.
// The package's own bundles (the classic scripts, the site) replace this file
// (scripts/build-web.mjs): no threads, and model_core.mjs as a static import,
// evaluated while the classic script still knows its own address.
const THREADED = new URL('./model_core_threads.mjs', import.meta.url);
export const importThreadedCore = () => import(THREADED.href);
export const importModelCore = () => import('./model_core.mjs');
