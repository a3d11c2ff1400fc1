// The public object and loadAttention(), over the wasm core: index.js (the
// package's entry) and with-trainers.js (the package's own workers) each make
// one, telling it how to import the trainers (./trainers.js) and the model
// reader (./model/open.js), wasm modules of their own loaded on first use.
// One module per operation of the core (softmax, gemm, attention, random
// state) and per model built from them (projections, embeddings).
import createAttentionCore from './attention_core.mjs';
import { attentionApi } from './attention.js';
import { embeddingsApi } from './embeddings.js';
import { readOptions, requireBoolean } from './errors.js';
import { readThreads } from './threads.js';
import { gemmApi } from './gemm.js';
import { Matrix } from './matrix.js';
import { onlineSoftmaxApi } from './online_softmax.js';
import { projectionsApi } from './projections.js';
import { randomStateApi } from './random_state.js';
import { rotaryApi } from './rotary.js';
import { softmaxApi } from './softmax.js';

/**
 * loadAttention for one entry module.
 * @param {{ importTrainers: () => Promise<any>, importReader: () => Promise<any> }} imports
 */
export function createLoader({ importTrainers, importReader }) {
  /** @type {any} the reader once loaded (it owns the model wasm module) */
  let model;
  /** @type {any} { Seq2SeqTrainer, TransformerTrainer, memoryBytes } once loaded */
  let trainers;
  /** @type {Promise<any> | undefined} */
  let trainersLoading;
  /** @type {Promise<any> | undefined} */
  let loading;
  /** @type {number | 'auto' | undefined} loadAttention's options.threads: openModel's default */
  let defaultThreads;

  /** A trainer class; before loadTrainers() a TypeError that says so. */
  function trainerClass(name) {
    if (!trainers) {
      throw new TypeError(
        `${name}: the trainers are not loaded: await a.loadTrainers() first (loadAttention({ trainers: false }) leaves them out)`,
      );
    }
    return trainers[name];
  }

  /** The public object over the instantiated core. */
  function assemble(core) {
    const { RandomState, withRandomState } = randomStateApi(core);
    const api = Object.freeze({
      Matrix,
      /** Current size of the wasm memories in bytes (the core's, plus the trainers' and the model module's once loaded). */
      memoryBytes: () => core.HEAPF64.buffer.byteLength + (trainers?.memoryBytes() ?? 0) + (model?.memoryBytes() ?? 0),
      ...softmaxApi(core),
      ...gemmApi(core),
      ...attentionApi(core),
      ...onlineSoftmaxApi(core),
      ...rotaryApi(core),
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
      /** A model (GPT-2, BERT, ...) from Hugging Face files; its reader (./model/) loads on first use (the classic bundles hold it). */
      openModel: (files, options) =>
        importReader().then((r) => {
          model = r;
          return r.openModel(files, options, defaultThreads);
        }),
    });
    return api;
  }

  /**
   * Instantiates the WebAssembly core (once; later calls share it) and returns
   * the API object; with the trainers (their own wasm module) unless
   * options.trainers is false, which leaves them to a.loadTrainers().
   * @param {{ trainers?: boolean }} [options]
   */
  return function loadAttention(options) {
    let withTrainers;
    try {
      const given = readOptions(options, ['trainers', 'threads'], 'loadAttention');
      withTrainers = given.trainers === undefined ? true : requireBoolean(given.trainers, 'loadAttention', 'trainers');
      // The models' threads (openModel's options.threads overrides it); the last call's wins.
      if (given.threads !== undefined) defaultThreads = readThreads(given.threads, 'loadAttention');
    } catch (error) {
      return Promise.reject(error);
    }
    loading ??= createAttentionCore().then(assemble);
    return withTrainers ? loading.then((api) => api.loadTrainers()) : loading;
  };
}
