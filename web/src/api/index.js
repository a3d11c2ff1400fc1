// attention-lab: attention mechanisms computed in WebAssembly.
//
//   import { loadAttention } from 'attention-lab';
//   const a = await loadAttention();
//   a.softmax([927, 397, 148, 929]);
//
// api.js assembles the public object over the wasm core; this entry tells it
// how to import the trainers and the model reader, wasm modules of their own:
// literal import()s, which every bundler and dev server follows (a variable path
// was a 404 in Vite), each loaded on first use, so no first load carries them.
import { createLoader } from './api.js';

export { Matrix } from './matrix.js';
// Pure JS (no wasm, no loadAttention): the tokenizers of Hugging Face's tokenizer.json.
export { loadTokenizer } from './tokenizer/index.js';

/**
 * Instantiates the WebAssembly core (once; later calls share it) and returns
 * the API object, with the trainers unless options.trainers is false.
 * The package's workers, which a bundler may make one script of (no import()
 * there), use with-trainers.js instead. The classic script loads classic copies
 * of both (build-web.mjs).
 */
export const loadAttention = createLoader({
  importTrainers: () => import('./trainers.js'),
  importReader: () => import('./model/open.js'),
});
