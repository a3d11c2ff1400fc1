// attention-lab: attention mechanisms computed in WebAssembly.
//
//   import { loadAttention } from 'attention-lab';
//   const a = await loadAttention();
//   a.softmax([927, 397, 148, 929]);
//
// api.js assembles the public object over the wasm core; this entry tells it
// how to import the trainers and the model reader, wasm modules of their own.
import { createLoader } from './api.js';

export { Matrix } from './matrix.js';
// Pure JS (no wasm, no loadAttention): the tokenizers of Hugging Face's tokenizer.json.
export { loadTokenizer } from './tokenizer/index.js';

/**
 * The model reader and its wasm module (./model/), imported when openModel is
 * first called. A variable, not a literal, so that bundlers leave it alone: a
 * chunk of its own breaks apps that bundle their workers as one script (Vite's
 * worker.format 'iife'). Unbundled (dist/lib as published) it loads next to
 * this file.
 */
let reader = './model/open.js';

/**
 * Instantiates the WebAssembly core (once; later calls share it) and returns
 * the API object, with the trainers unless options.trainers is false.
 * The trainers (./trainers.js) are a literal import(): loadAttention() loads them
 * by default, so bundlers must follow it (the package's workers, which a bundler
 * may make one script of, use with-trainers.js instead). The classic script
 * loads classic copies of both (build-web.mjs).
 */
export const loadAttention = createLoader({
  importTrainers: () => import('./trainers.js'),
  importReader: () => import(reader),
});
