// attention-lab: attention mechanisms computed in WebAssembly.
//
//   import { loadAttention } from 'attention-lab';
//   const a = await loadAttention();
//   a.softmax([927, 397, 148, 929]);
//
// Each chapter's functions live in their own module (basics.js, ...); this
// file instantiates the wasm core once and assembles the public object.
import createAttentionCore from './attention_core.mjs';
import { basicsApi } from './basics.js';
// ---- chapter modules: one import per line ----
import { embeddingsApi } from './embeddings.js';
import { randomStateApi } from './random_state.js';
import { additiveApi } from './additive.js';
import { transformerApi } from './transformer.js';
import { seq2seqApi } from './seq2seq.js';
import { Matrix } from './matrix.js';

export { Matrix };

/** @type {Promise<any> | undefined} */
let loading;

/**
 * Instantiates the WebAssembly core (once; later calls share it) and returns
 * the API object.
 */
export function loadAttention() {
  loading ??= createAttentionCore().then((core) =>
    Object.freeze({
      Matrix,
      /** Current size of the wasm memory in bytes (it grows, never shrinks). */
      memoryBytes: () => core.HEAPF64.buffer.byteLength,
      ...basicsApi(core),
      // ---- chapter APIs: one spread per line ----
      ...embeddingsApi(core),
      ...randomStateApi(core),
      ...additiveApi(core),
      ...transformerApi(core),
      ...seq2seqApi(core),
    }),
  );
  return loading;
}
