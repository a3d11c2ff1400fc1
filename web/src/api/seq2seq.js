// Public API of the "Neural machine translation with attention" chapter: a
// character-level encoder-decoder with attention, trained in WebAssembly.
//
//   const t = new a.Seq2SeqTrainer({ task: 'dates', attention: 'luong-general', seed: 0 });
//   t.train(100);                  // { step, loss (their mean), losses } of 100 mini-batches
//   t.evaluate(500);               // exact-match accuracy on held-out dates
//   t.translate('21 Nov 2026');    // { output: '2026-11-21', attention: Matrix, ... }
//   const bytes = t.save();        // Uint8Array checkpoint
//   t.delete();
//
// The C++ trainer (cpp/models/seq2seq_trainer.h) is an Embind object; the
// shared trainer class of trainer.js owns it and frees it in delete() or when
// dropped. This file adds what only the seq2seq trainer has.
import { rawOf } from './handle.js';
import { withHeap } from './heap.js';
import { SEQ2SEQ_OPTIONS } from './trainer-options.js';
import { checkInput, trainerClass, translationDetails } from './trainer.js';

/** @param {any} core the instantiated Emscripten module */
export function seq2seqApi(core) {
  const Trainer = trainerClass(core, {
    name: 'Seq2SeqTrainer',
    Raw: core._Seq2SeqTrainer,
    options: SEQ2SEQ_OPTIONS,
    evaluateCount: 500,
    evaluateRange: (raw) => [1, raw.heldOutSize()],
  });
  const DETAILS = ['attention', 'encoderOutputs', 'decoderStates', 'scores', 'probabilities'];

  /**
   * new Seq2SeqTrainer(options?: { task, attention, hidden, embedding, batch, learningRate, seed });
   * save()'s checkpoint starts with the magic number "A2S2".
   */
  class Seq2SeqTrainer extends Trainer {
    /**
     * Every character an output may contain; column k + 2 of translate()'s
     * probabilities is character k (columns 0 and 1: the end and start symbols).
     */
    get outputAlphabet() {
      return rawOf(this, 'outputAlphabet').outputAlphabet();
    }

    // Checked here so the message can name the task and list its alphabet.
    [checkInput](input, fn, raw) {
      const chars = Array.from(input);
      const alphabet = raw.inputAlphabet();
      const most = raw.maxInputLength();
      const task = raw.options().task;
      if (chars.length === 0) throw new RangeError(`${fn}: input is empty`);
      if (chars.length > most) {
        throw new RangeError(`${fn}: input has ${chars.length} characters but the ${task} task allows at most ${most}`);
      }
      for (let i = 0; i < chars.length; i++) {
        if (!alphabet.includes(chars[i])) {
          throw new RangeError(
            `${fn}: input has ${JSON.stringify(chars[i])} at position ${i}, which the ${task} task does not know (allowed: ${alphabet})`,
          );
        }
      }
    }

    /**
     * translate()'s details. attention: (output length x input length), rows
     * sum to 1; scores: (output length x input length), the scores whose row
     * softmax is attention; encoderOutputs: (input length x hidden);
     * decoderStates: (output length x hidden); probabilities: (output length x
     * (2 + outputAlphabet.length)), p(y_t) over <end>, <start>, then the output
     * alphabet (the emitted character is each row's largest).
     */
    [translationDetails](raw, fn) {
      const details = {};
      DETAILS.forEach((name, which) => {
        details[name] = withHeap(core, fn, (heap) => {
          const out = heap.output(raw.detailRows(which), raw.detailCols(which), name);
          raw.copyDetail(which, out);
          return heap.readMatrix(out);
        });
      });
      return details;
    }
  }

  return { Seq2SeqTrainer };
}
