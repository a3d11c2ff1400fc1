// The two model modules (model/core.js picks one).
//
// The one-thread module (model_core.mjs) is a static import: a bundler puts it
// in the bundle of whatever loads the reader, workers included (a literal
// import() would split a chunk, and a bundler's classic worker refuses chunks:
// Vite's iife workers stop the build). A page on threads so also fetches it,
// without instantiating it.
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
// (scripts/build-web.mjs): no threads.
import createModelCore from './model_core.mjs';

export const importThreadedCore = () => import(new URL('./model_core_threads.mjs', import.meta.url).href);
export const importModelCore = () => Promise.resolve({ default: createModelCore });
