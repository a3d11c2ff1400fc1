// attention-lab: attention mechanisms computed in WebAssembly.
//
//   import { loadAttention } from 'attention-lab';
//   const a = await loadAttention();
//   a.softmax([927, 397, 148, 929]);
//
// One module per operation of the core (softmax, gemm, attention, random
// state) and per model built from them (projections, embeddings);
// this file instantiates the wasm core once and assembles the public object.
// The trainers (./trainers.js) and the GPT-2 reader (./model/) are wasm modules
// of their own, loaded on first use.
import createAttentionCore from './attention_core.mjs';
import { attentionApi } from './attention.js';
import { embeddingsApi } from './embeddings.js';
import { readOptions, requireBoolean } from './errors.js';
import { gemmApi } from './gemm.js';
import { Matrix } from './matrix.js';
import { projectionsApi } from './projections.js';
import { randomStateApi } from './random_state.js';
import { softmaxApi } from './softmax.js';

export { Matrix };

/**
 * The GPT-2 reader and its wasm module (./model/), imported when openModel is
 * first called. A variable, not a literal, so that bundlers leave it alone: a
 * chunk of its own breaks apps that bundle their workers as one script (Vite's
 * worker.format 'iife'). Unbundled (dist/lib as published) it loads next to
 * this file.
 */
let reader = './model/open.js';
/** Imports the reader (the classic script loads its classic copy instead: build-web.mjs). */
const loadReader = () => import(reader);
/** @type {any} the reader once loaded (it owns the GPT-2 wasm module) */
let model;

/**
 * The trainers and their wasm module (./trainers.js), imported by loadTrainers() (the
 * classic script loads its classic copy instead: build-web.mjs). A literal, unlike `reader`:
 * loadAttention() loads them by default, so bundlers must follow it (a chunk of its own, or
 * inlined where they bundle one script, as Vite's iife workers).
 */
const importTrainers = () => import('./trainers.js');
/** @type {any} { Seq2SeqTrainer, TransformerTrainer, memoryBytes } once loaded */
let trainers;
/** @type {Promise<any> | undefined} */
let trainersLoading;

/** A trainer class; before loadTrainers() a TypeError that says so. */
function trainerClass(name) {
  if (!trainers) {
    throw new TypeError(
      `${name}: the trainers are not loaded: await a.loadTrainers() first (loadAttention({ trainers: false }) leaves them out)`,
    );
  }
  return trainers[name];
}

/** @type {Promise<any> | undefined} */
let loading;

/**
 * Instantiates the WebAssembly core (once; later calls share it) and returns
 * the API object; with the trainers (their own wasm module) unless
 * options.trainers is false, which leaves them to a.loadTrainers().
 * @param {{ trainers?: boolean }} [options]
 */
export function loadAttention(options) {
  let withTrainers;
  try {
    const given = readOptions(options, ['trainers'], 'loadAttention');
    withTrainers = given.trainers === undefined ? true : requireBoolean(given.trainers, 'loadAttention', 'trainers');
  } catch (error) {
    return Promise.reject(error);
  }
  loading ??= createAttentionCore().then(assemble);
  return withTrainers ? loading.then((api) => api.loadTrainers()) : loading;
}

/** The public object over the instantiated core. */
function assemble(core) {
  const { RandomState, withRandomState } = randomStateApi(core);
  const api = Object.freeze({
    Matrix,
    /** Current size of the wasm memories in bytes (the core's, plus the trainers' and GPT-2's once loaded). */
    memoryBytes: () => core.HEAPF64.buffer.byteLength + (trainers?.memoryBytes() ?? 0) + (model?.memoryBytes() ?? 0),
    ...softmaxApi(core),
    ...gemmApi(core),
    ...attentionApi(core),
    RandomState,
    ...projectionsApi(core, withRandomState),
    ...embeddingsApi(core),
    /** Loads the trainers' module (once); resolves to this object. */
    loadTrainers: () => {
      if (!trainersLoading) {
        trainersLoading = importTrainers()
          .then((m) => m.openTrainers())
          .then((t) => {
            trainers = t;
            return api;
          });
        trainersLoading.catch(() => (trainersLoading = undefined)); // a later call tries again
      }
      return trainersLoading;
    },
    get Seq2SeqTrainer() {
      return trainerClass('Seq2SeqTrainer');
    },
    get TransformerTrainer() {
      return trainerClass('TransformerTrainer');
    },
    /** A GPT-2 from Hugging Face files; its reader (./model/) loads on first use (the classic bundles hold it). */
    openModel: (files, options) =>
      loadReader().then((r) => {
        model = r;
        return r.openModel(files, options);
      }),
  });
  return api;
}
