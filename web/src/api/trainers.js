// The trainers (Seq2SeqTrainer, TransformerTrainer) and their wasm module
// (trainer_core.mjs, from cpp/trainer_bindings.cpp). index.js imports this file
// on the first loadTrainers() call (loadAttention() makes that call unless given
// { trainers: false }), so a page that trains nothing never downloads them.
import { seq2seqApi } from './seq2seq.js';
import createTrainerCore from './trainer_core.mjs';
import { transformerTrainerApi } from './transformer_trainer.js';

/** Instantiates the trainers' wasm module; resolves to the classes and the module's memory size. */
export function openTrainers() {
  return createTrainerCore().then((core) => ({
    memoryBytes: () => core.HEAPF64.buffer.byteLength,
    ...seq2seqApi(core),
    ...transformerTrainerApi(core),
  }));
}
