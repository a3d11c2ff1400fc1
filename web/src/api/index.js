// attention-lab: attention mechanisms computed in WebAssembly.
//
//   import { loadAttention } from 'attention-lab';
//   const a = await loadAttention();
//   a.softmax([927, 397, 148, 929]);
//
// One module per operation of the core (softmax, gemm, attention, random
// state) and per model built from them (projections, embeddings, seq2seq, transformer trainer);
// this file instantiates the wasm core once and assembles the public object.
import createAttentionCore from './attention_core.mjs';
import { attentionApi } from './attention.js';
import { embeddingsApi } from './embeddings.js';
import { gemmApi } from './gemm.js';
import { Matrix } from './matrix.js';
import { projectionsApi } from './projections.js';
import { randomStateApi } from './random_state.js';
import { seq2seqApi } from './seq2seq.js';
import { softmaxApi } from './softmax.js';
import { transformerTrainerApi } from './transformer_trainer.js';

export { Matrix };

/**
 * The model reader and its wasm module (./model/), imported when openModel is
 * first called. A variable, not a literal, so that bundlers leave it alone: a
 * chunk of its own breaks apps that bundle their workers as one script (Vite's
 * worker.format 'iife'). Unbundled (dist/lib as published) it loads next to
 * this file.
 */
let reader = './model/open.js';
/** Imports the reader (the classic script loads its classic copy instead: build-web.mjs). */
const loadReader = () => import(reader);
/** @type {any} the reader once loaded (it owns the model wasm module) */
let model;

/** @type {Promise<any> | undefined} */
let loading;

/**
 * Instantiates the WebAssembly core (once; later calls share it) and returns
 * the API object.
 */
export function loadAttention() {
  loading ??= createAttentionCore().then((core) => {
    const { RandomState, withRandomState } = randomStateApi(core);
    return Object.freeze({
      Matrix,
      /** Current size of the wasm memories in bytes (the core's, plus the model module's once loaded). */
      memoryBytes: () => core.HEAPF64.buffer.byteLength + (model?.memoryBytes() ?? 0),
      ...softmaxApi(core),
      ...gemmApi(core),
      ...attentionApi(core),
      RandomState,
      ...projectionsApi(core, withRandomState),
      ...embeddingsApi(core),
      ...seq2seqApi(core),
      ...transformerTrainerApi(core),
      /** A model (GPT-2, BERT, ...) from Hugging Face files; its reader (./model/) loads on first use (the classic bundles hold it). */
      openModel: (files, options) =>
        loadReader().then((r) => {
          model = r;
          return r.openModel(files, options);
        }),
    });
  });
  return loading;
}
