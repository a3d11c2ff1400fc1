// Public API of the "Neural machine translation with attention" chapter: a
// character-level encoder-decoder with attention, trained in WebAssembly.
//
//   const t = new a.Seq2SeqTrainer({ task: 'dates', attention: 'luong-general', seed: 0 });
//   t.train(100);                  // mean loss of 100 mini-batches
//   t.evaluate(500);               // exact-match accuracy on held-out dates
//   t.translate('21 Nov 2026');    // { output: '2026-11-21', attention: Matrix, ... }
//   const bytes = t.save();        // Uint8Array checkpoint
//   t.delete();
//
// The C++ trainer (cpp/seq2seq_trainer.h) is an Embind object; this class owns
// it (OwnedHandle) and frees it in delete() or when dropped.
import { describe, readOptions, requireInteger, requireNumber, requireString, throwForStatus } from './errors.js';
import { OwnedHandle } from './handle.js';
import { readBytes, withHeap } from './heap.js';

const DEFAULTS = Object.freeze({
  task: 'dates',
  attention: 'luong-general',
  hidden: 64,
  embedding: 32,
  batch: 32,
  learningRate: 0.005,
  seed: 0,
});
const OPTION_NAMES = Object.keys(DEFAULTS);
const MAX_STEPS = 100000;
const INT32 = [-(2 ** 31), 2 ** 31 - 1];

/**
 * Defaults filled in and JS types checked; integers are checked only as far as
 * they must be to cross into C++ unchanged (int32, the seed uint32). The core
 * checks the values themselves (task and attention names, sizes, learning
 * rate) once, in validateSeq2SeqOptions.
 */
function readTrainerOptions(options) {
  const fn = 'Seq2SeqTrainer';
  const o = { ...DEFAULTS };
  const given = readOptions(options, OPTION_NAMES, fn);
  for (const key of OPTION_NAMES) if (given[key] !== undefined) o[key] = given[key];
  requireString(o.task, fn, 'task');
  requireString(o.attention, fn, 'attention');
  for (const key of ['hidden', 'embedding', 'batch']) requireInteger(o[key], fn, key, ...INT32);
  requireInteger(o.seed, fn, 'seed', 0, 2 ** 32 - 1);
  requireNumber(o.learningRate, fn, 'learningRate');
  return o;
}

/** @param {any} core the instantiated Emscripten module */
export function seq2seqApi(core) {
  /** Frees a raw trainer if `body` throws; returns body's result otherwise. */
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

  /** One number the raw trainer writes into the heap. */
  function scalar(fn, call) {
    return withHeap(core, fn, (heap) => {
      const out = heap.output(1, 1, 'result');
      throwForStatus(core, call(out), fn);
      return heap.read(out)[0];
    });
  }

  class Seq2SeqTrainer extends OwnedHandle {
    /** @type {string} */
    #alphabet;
    /** @type {number} */
    #maxInput;
    /** @type {string} */
    #outputAlphabet;

    /**
     * @param {object} [options] { task, attention, hidden, embedding, batch, learningRate, seed }
     */
    constructor(options) {
      // Seq2SeqTrainer.load() passes a ready raw trainer through this private path.
      let raw;
      if (options instanceof RawHandle) {
        raw = options.raw;
      } else {
        const o = readTrainerOptions(options);
        raw = new core._Seq2SeqTrainer();
        guarded(raw, () => throwForStatus(core, raw.init(o), 'Seq2SeqTrainer'));
      }
      super(raw, 'Seq2SeqTrainer');
      this.#alphabet = raw.inputAlphabet();
      this.#outputAlphabet = raw.outputAlphabet();
      this.#maxInput = raw.maxInputLength();
    }

    /** Rebuilds a trainer from save()'s bytes (Uint8Array or ArrayBuffer). */
    static load(bytes) {
      const fn = 'Seq2SeqTrainer.load';
      if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
      if (!(bytes instanceof Uint8Array)) {
        throw new TypeError(`${fn}: bytes must be a Uint8Array or ArrayBuffer, got ${describe(bytes)}`);
      }
      if (bytes.length === 0) throw new RangeError(`${fn}: bytes is empty`);
      const raw = new core._Seq2SeqTrainer();
      guarded(raw, () =>
        withHeap(core, fn, (heap) => throwForStatus(core, raw.load(heap.bytes(bytes, 'bytes'), bytes.length), fn)),
      );
      return new Seq2SeqTrainer(new RawHandle(raw));
    }

    /** The options the trainer was built with (defaults filled in). */
    get options() {
      const raw = this.raw('options');
      return Object.freeze({
        task: raw.task(),
        attention: raw.attention(),
        hidden: raw.hidden(),
        embedding: raw.embedding(),
        batch: raw.batch(),
        learningRate: raw.learningRate(),
        seed: raw.seed(),
      });
    }

    /** Mini-batches trained so far (carried over by save/load). */
    get steps() {
      return this.raw('steps').steps();
    }

    /** Every character an input may contain. */
    get inputAlphabet() {
      this.raw('inputAlphabet');
      return this.#alphabet;
    }

    /**
     * Every character an output may contain; column k + 2 of translate()'s
     * probabilities is character k (columns 0 and 1: the end and start symbols).
     */
    get outputAlphabet() {
      this.raw('outputAlphabet');
      return this.#outputAlphabet;
    }

    /** Longest input translate() accepts. */
    get maxInputLength() {
      this.raw('maxInputLength');
      return this.#maxInput;
    }

    /** Size of the task's fixed held-out set. */
    get heldOutSize() {
      return this.raw('heldOutSize').heldOutSize();
    }

    /** Number of trainable parameters. */
    get parameterCount() {
      return this.raw('parameterCount').parameterCount();
    }

    /**
     * Runs `steps` mini-batches (Adam, teacher forcing); returns their mean loss per token.
     * One call does at most 200,000 examples' worth of default-size work
     * (steps × batch × hidden·(hidden+embedding) / (64·96)): 6,250 steps at the
     * defaults. Train longer in a loop of calls, yielding between them.
     */
    train(steps) {
      const raw = this.raw('train');
      requireInteger(steps, 'Seq2SeqTrainer.train', 'steps', 1, MAX_STEPS);
      return scalar('Seq2SeqTrainer.train', (out) => raw.train(steps, out));
    }

    /** Exact-match accuracy of greedy decoding on the first n held-out examples, in [0, 1]. */
    evaluate(n = 500) {
      const raw = this.raw('evaluate');
      requireInteger(n, 'Seq2SeqTrainer.evaluate', 'n', 1, raw.heldOutSize());
      return scalar('Seq2SeqTrainer.evaluate', (out) => raw.evaluate(n, out));
    }

    /** A held-out example { input, target }, picked by the trainer's own seeded sampler. */
    sample() {
      const raw = this.raw('sample');
      raw.sample();
      return { input: raw.sampleInput(), target: raw.sampleTarget() };
    }

    /**
     * Greedy translation of `input`. attention: (output length x input length),
     * rows sum to 1; scores: (output length x input length), the scores whose
     * row softmax is attention; encoderOutputs: (input length x hidden);
     * decoderStates: (output length x hidden); probabilities: (output length x
     * (2 + outputAlphabet.length)), p(y_t) over <end>, <start>, then the output
     * alphabet (the emitted character is each row's largest).
     */
    translate(input) {
      const fn = 'Seq2SeqTrainer.translate';
      const raw = this.raw('translate');
      if (typeof input !== 'string') throw new TypeError(`${fn}: input must be a string, got ${describe(input)}`);
      const chars = Array.from(input);
      if (chars.length === 0) throw new RangeError(`${fn}: input is empty`);
      if (chars.length > this.#maxInput) {
        throw new RangeError(
          `${fn}: input has ${chars.length} characters but the ${raw.task()} task allows at most ${this.#maxInput}`,
        );
      }
      for (let i = 0; i < chars.length; i++) {
        if (!this.#alphabet.includes(chars[i])) {
          throw new RangeError(
            `${fn}: input has ${JSON.stringify(chars[i])} at position ${i}, which the ${raw.task()} task does not know (allowed: ${this.#alphabet})`,
          );
        }
      }
      throwForStatus(core, raw.translate(input), fn);
      const detail = (which, name) =>
        withHeap(core, fn, (heap) => {
          const out = heap.output(raw.detailRows(which), raw.detailCols(which), name);
          raw.copyDetail(which, out);
          return heap.readMatrix(out);
        });
      return {
        output: raw.output(),
        attention: detail(0, 'attention'),
        encoderOutputs: detail(1, 'encoderOutputs'),
        decoderStates: detail(2, 'decoderStates'),
        scores: detail(3, 'scores'),
        probabilities: detail(4, 'probabilities'),
      };
    }

    /** The checkpoint: magic "A2S2", version, options, step count, float32 weights, checksum. */
    save() {
      const raw = this.raw('save');
      try {
        throwForStatus(core, raw.save(), 'Seq2SeqTrainer.save');
        return readBytes(core, raw.savedData(), raw.savedSize());
      } finally {
        raw.releaseSaved();
      }
    }
  }

  return { Seq2SeqTrainer };
}
