// Public API of the trained Transformer: the encoder-decoder of "Attention is
// all you need" (pre-LN), trained in WebAssembly on the NMT chapter's tasks.
//
//   const t = new a.TransformerTrainer({ task: 'dates', seed: 0 });
//   t.train(100);                  // { step, loss (their mean), losses } of 100 mini-batches
//   t.evaluate(1000);              // exact-match accuracy on held-out dates
//   t.translate('21 Nov 2026');    // { output, encoderSelf, decoderSelf, cross }
//   const bytes = t.save();        // Uint8Array checkpoint
//   t.delete();
//
// The C++ trainer (cpp/models/transformer_trainer.h) is an Embind object; the
// shared trainer class of trainer.js owns it and frees it in delete() or when
// dropped. This file adds what only the Transformer trainer has. The core
// checks the option values, once, in validateTransformerOptions.
import { requireInteger } from './errors.js';
import { rawOf } from './handle.js';
import { withHeap } from './heap.js';
import { TRANSFORMER_OPTIONS } from './trainer-options.js';
import { INT32, trainerClass, translationDetails } from './trainer.js';

/** @param {any} core the instantiated Emscripten module */
export function transformerTrainerApi(core) {
  const Trainer = trainerClass(core, {
    name: 'TransformerTrainer',
    Raw: core._TransformerTrainer,
    options: TRANSFORMER_OPTIONS,
    evaluateCount: 1000,
    evaluateRange: () => INT32,
  });
  const USES = ['encoderSelf', 'decoderSelf', 'cross'];

  /**
   * new TransformerTrainer(options?: { task, layers, heads, dModel, dFF, batch, schedule,
   *   learningRate, warmup, labelSmoothing, seed }) (the table TRANSFORMER_OPTIONS);
   * save()'s checkpoint starts with the magic number "A2TF".
   */
  class TransformerTrainer extends Trainer {
    /** The learning rate Adam uses at `step` (1-based) under the options' schedule. */
    learningRateAt(step) {
      const raw = rawOf(this, 'learningRateAt');
      requireInteger(step, 'TransformerTrainer.learningRateAt', 'step', 1, Number.MAX_SAFE_INTEGER);
      return raw.rateAt(step);
    }

    /**
     * The sinusoidal positional encoding the model adds to its embeddings, one
     * row per position it can read or write (maxLength x dModel):
     * PE(t, 2i) = sin(t / 10000^(2i/dModel)), PE(t, 2i+1) = cos(same angle).
     */
    positionalEncoding() {
      const fn = 'TransformerTrainer.positionalEncoding';
      const raw = rawOf(this, 'positionalEncoding');
      return withHeap(core, fn, (heap) => {
        const out = heap.output(raw.positionRows(), raw.options().dModel, 'encoding');
        raw.copyPositionalEncoding(out);
        return heap.readMatrix(out);
      });
    }

    /**
     * translate()'s details: every attention map, each an array over layers
     * of arrays over heads of Matrix (rows sum to 1), and the queries and keys
     * (per use, per layer) they were computed from, with what each projection
     * read and applied (queryInputs x, queryWeights W_q, queryBiases b_q: Q = x W_q + b_q;
     * likewise for the keys; cross-attention's keys read the encoder's output). With n input characters
     * and m output characters: encoderSelf (n x n); decoderSelf (m+1 x m+1,
     * zero above the diagonal; keys <start>, y1..ym); cross (m+1 x n). Row t
     * is the step that produced output character t (row m produced the end token).
     */
    [translationDetails](raw, fn) {
      const { layers, heads } = raw.options();
      const details = {};
      USES.forEach((use, u) => {
        details[use] = Array.from({ length: layers }, (_, layer) =>
          Array.from({ length: heads }, (_, head) =>
            withHeap(core, fn, (heap) => {
              const out = heap.output(raw.mapRows(u, layer, head), raw.mapCols(u, layer, head), use);
              raw.copyMap(u, layer, head, out);
              return heap.readMatrix(out);
            }),
          ),
        );
      });
      // Per use, per layer: the projected queries and keys each use's maps came from
      // (rows x dModel), and what each projection read and applied (x, W, b of x W + b).
      const perLayer = (name, rows, cols, copy) =>
        Object.fromEntries(
          USES.map((use, u) => [
            use,
            Array.from({ length: layers }, (_, layer) =>
              withHeap(core, fn, (heap) => {
                const out = heap.output(rows(u, layer), cols(u, layer), name);
                copy(u, layer, out);
                return heap.readMatrix(out);
              }),
            ),
          ]),
        );
      const projections = (which, name) =>
        perLayer(
          name,
          (u, layer) => raw.projectionRows(u, layer, which),
          (u, layer) => raw.projectionCols(u, layer, which),
          (u, layer, out) => raw.copyProjection(u, layer, which, out),
        );
      const sources = (which, part, name) =>
        perLayer(
          name,
          (u, layer) => raw.sourceRows(u, layer, which, part),
          (u, layer) => raw.sourceCols(u, layer, which, part),
          (u, layer, out) => raw.copySource(u, layer, which, part, out),
        );
      details.queries = projections(0, 'queries');
      details.keys = projections(1, 'keys');
      details.queryInputs = sources(0, 0, 'queryInputs');
      details.keyInputs = sources(1, 0, 'keyInputs');
      details.queryWeights = sources(0, 1, 'queryWeights');
      details.keyWeights = sources(1, 1, 'keyWeights');
      details.queryBiases = sources(0, 2, 'queryBiases');
      details.keyBiases = sources(1, 2, 'keyBiases');
      return details;
    }
  }

  return { TransformerTrainer };
}
