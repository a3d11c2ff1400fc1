// Public API of the trained Transformer: the encoder-decoder of "Attention is
// all you need" (pre-LN), trained in WebAssembly on the NMT chapter's tasks.
//
//   const t = new a.TransformerTrainer({ task: 'dates', seed: 0 });
//   t.train(100);                  // the loss of each of 100 mini-batches
//   t.evaluate(1000);              // exact-match accuracy on held-out dates
//   t.translate('21 Nov 2026');    // { output, encoderSelf, decoderSelf, cross }
//   const bytes = t.save();        // Uint8Array checkpoint
//   t.delete();
//
// The C++ trainer (cpp/models/transformer_trainer.h) is an Embind object; this
// class owns it (OwnedHandle) and frees it in delete() or when dropped. JS
// checks types (and what must fit int32/uint32 to cross unchanged); the core
// checks the values, once, in validateTransformerOptions.
import { describe, readOptions, requireInteger, requireNumber, requireString, throwForStatus } from './errors.js';
import { OwnedHandle } from './handle.js';
import { readBytes, withHeap } from './heap.js';

const DEFAULTS = Object.freeze({
  task: 'dates',
  layers: 2,
  heads: 4,
  dModel: 32,
  dFF: 64,
  batch: 32,
  schedule: 'warmup',
  learningRate: 1,
  warmup: 200,
  labelSmoothing: 0,
  seed: 0,
});
const OPTION_NAMES = Object.keys(DEFAULTS);
const INTEGER_OPTIONS = ['layers', 'heads', 'dModel', 'dFF', 'batch', 'warmup'];
const MAX_STEPS = 100000;
const INT32 = [-(2 ** 31), 2 ** 31 - 1];
const USES = ['encoderSelf', 'decoderSelf', 'cross'];

function readTrainerOptions(options) {
  const fn = 'TransformerTrainer';
  const o = { ...DEFAULTS };
  const given = readOptions(options, OPTION_NAMES, fn);
  for (const key of OPTION_NAMES) if (given[key] !== undefined) o[key] = given[key];
  requireString(o.task, fn, 'task');
  requireString(o.schedule, fn, 'schedule');
  for (const key of INTEGER_OPTIONS) requireInteger(o[key], fn, key, ...INT32);
  requireInteger(o.seed, fn, 'seed', 0, 2 ** 32 - 1);
  requireNumber(o.learningRate, fn, 'learningRate');
  requireNumber(o.labelSmoothing, fn, 'labelSmoothing');
  return o;
}

/** @param {any} core the instantiated Emscripten module */
export function transformerTrainerApi(core) {
  /** Frees a raw trainer if `body` throws. */
  function guarded(raw, body) {
    try {
      return body();
    } catch (error) {
      raw.delete();
      throw error;
    }
  }

  // Carries a raw trainer from load() into the constructor; not exported.
  class RawHandle {
    constructor(raw) {
      this.raw = raw;
    }
  }

  class TransformerTrainer extends OwnedHandle {
    /**
     * @param {object} [options] { task, layers, heads, dModel, dFF, batch, schedule,
     *   learningRate, warmup, labelSmoothing, seed }
     */
    constructor(options) {
      let raw;
      if (options instanceof RawHandle) {
        raw = options.raw;
      } else {
        const o = readTrainerOptions(options);
        raw = new core._TransformerTrainer();
        guarded(raw, () => throwForStatus(core, raw.init(o), 'TransformerTrainer'));
      }
      super(raw, 'TransformerTrainer');
    }

    /** Rebuilds a trainer from save()'s bytes (Uint8Array or ArrayBuffer). */
    static load(bytes) {
      const fn = 'TransformerTrainer.load';
      if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
      if (!(bytes instanceof Uint8Array)) {
        throw new TypeError(`${fn}: bytes must be a Uint8Array or ArrayBuffer, got ${describe(bytes)}`);
      }
      if (bytes.length === 0) throw new RangeError(`${fn}: bytes is empty`);
      const raw = new core._TransformerTrainer();
      guarded(raw, () =>
        withHeap(core, fn, (heap) => throwForStatus(core, raw.load(heap.bytes(bytes, 'bytes'), bytes.length), fn)),
      );
      return new TransformerTrainer(new RawHandle(raw));
    }

    /** The options the trainer was built with (defaults filled in). */
    get options() {
      const raw = this.raw('options');
      return Object.freeze({
        task: raw.task(),
        layers: raw.layers(),
        heads: raw.heads(),
        dModel: raw.dModel(),
        dFF: raw.dFF(),
        batch: raw.batch(),
        schedule: raw.schedule(),
        learningRate: raw.learningRate(),
        warmup: raw.warmup(),
        labelSmoothing: raw.labelSmoothing(),
        seed: raw.seed(),
      });
    }

    /** Mini-batches trained so far (carried over by save/load). */
    get steps() {
      return this.raw('steps').steps();
    }

    /** Every character an input may contain. */
    get inputAlphabet() {
      return this.raw('inputAlphabet').inputAlphabet();
    }

    /** Longest input translate() accepts. */
    get maxInputLength() {
      return this.raw('maxInputLength').maxInputLength();
    }

    /** Size of the task's fixed held-out set. */
    get heldOutSize() {
      return this.raw('heldOutSize').heldOutSize();
    }

    /** Number of trainable parameters. */
    get parameterCount() {
      return this.raw('parameterCount').parameterCount();
    }

    /** The learning rate Adam uses at `step` (1-based) under the options' schedule. */
    learningRateAt(step) {
      const raw = this.raw('learningRateAt');
      requireInteger(step, 'TransformerTrainer.learningRateAt', 'step', 1, Number.MAX_SAFE_INTEGER);
      return raw.rateAt(step);
    }

    /** Runs `steps` mini-batches (Adam, teacher forcing); returns each one's loss per token. */
    train(steps) {
      const fn = 'TransformerTrainer.train';
      const raw = this.raw('train');
      requireInteger(steps, fn, 'steps', 1, MAX_STEPS);
      return withHeap(core, fn, (heap) => {
        const out = heap.output(1, steps, 'losses');
        throwForStatus(core, raw.train(steps, out), fn);
        return Array.from(heap.read(out));
      });
    }

    /** Exact-match accuracy of greedy decoding on the first n held-out examples, in [0, 1]. */
    evaluate(n = 1000) {
      const fn = 'TransformerTrainer.evaluate';
      const raw = this.raw('evaluate');
      requireInteger(n, fn, 'n', ...INT32);
      return withHeap(core, fn, (heap) => {
        const out = heap.output(1, 1, 'accuracy');
        throwForStatus(core, raw.evaluate(n, out), fn);
        return heap.read(out)[0];
      });
    }

    /** A held-out example { input, target }, picked by the trainer's own seeded sampler. */
    sample() {
      const raw = this.raw('sample');
      raw.sample();
      return { input: raw.sampleInput(), target: raw.sampleTarget() };
    }

    /**
     * Greedy translation of `input` with every attention map, each an array
     * over layers of arrays over heads of Matrix (rows sum to 1). With n input
     * characters and m output characters: encoderSelf (n x n); decoderSelf
     * (m+1 x m+1, zero above the diagonal; keys <start>, y1..ym); cross
     * (m+1 x n). Row t is the step that produced output character t (row m
     * produced the end token).
     */
    translate(input) {
      const fn = 'TransformerTrainer.translate';
      const raw = this.raw('translate');
      if (typeof input !== 'string') throw new TypeError(`${fn}: input must be a string, got ${describe(input)}`);
      throwForStatus(core, raw.translate(input), fn);
      const { layers, heads } = { layers: raw.layers(), heads: raw.heads() };
      const result = { output: raw.output() };
      USES.forEach((use, u) => {
        result[use] = Array.from({ length: layers }, (_, layer) =>
          Array.from({ length: heads }, (_, head) =>
            withHeap(core, fn, (heap) => {
              const out = heap.output(raw.mapRows(u, layer, head), raw.mapCols(u, layer, head), use);
              raw.copyMap(u, layer, head, out);
              return heap.readMatrix(out);
            }),
          ),
        );
      });
      return result;
    }

    /**
     * The sinusoidal positional encoding the model adds to its embeddings, one
     * row per position it can read or write (maxLength x dModel):
     * PE(t, 2i) = sin(t / 10000^(2i/dModel)), PE(t, 2i+1) = cos(same angle).
     */
    positionalEncoding() {
      const fn = 'TransformerTrainer.positionalEncoding';
      const raw = this.raw('positionalEncoding');
      return withHeap(core, fn, (heap) => {
        const out = heap.output(raw.positionRows(), raw.dModel(), 'encoding');
        raw.copyPositionalEncoding(out);
        return heap.readMatrix(out);
      });
    }

    /** The checkpoint: magic "A2TF", version, options, step count, float32 weights, checksum. */
    save() {
      const raw = this.raw('save');
      try {
        throwForStatus(core, raw.save(), 'TransformerTrainer.save');
        return readBytes(core, raw.savedData(), raw.savedSize());
      } finally {
        raw.releaseSaved();
      }
    }
  }

  return { TransformerTrainer };
}
