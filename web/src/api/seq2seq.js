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
// it and frees it in delete().
import { throwForStatus } from './errors.js';
import { withHeap } from './heap.js';
import { Matrix } from './matrix.js';

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
const TASKS = ['dates', 'reverse'];
const ATTENTIONS = ['bahdanau', 'luong-dot', 'luong-general', 'luong-concat'];
const MAX_STEPS = 100000;

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

function requireInteger(value, fn, name, min, max) {
  if (typeof value !== 'number') throw new TypeError(`${fn}: ${name} must be a number, got ${describe(value)}`);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${fn}: ${name} must be an integer in [${min}, ${max}], got ${value}`);
  }
  return value;
}

function readOptions(options) {
  const fn = 'Seq2SeqTrainer';
  if (options === undefined) options = {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${fn}: options must be an object, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) {
      throw new TypeError(`${fn}: unknown option '${key}' (known: ${OPTION_NAMES.join(', ')})`);
    }
  }
  const o = { ...DEFAULTS };
  for (const key of OPTION_NAMES) if (options[key] !== undefined) o[key] = options[key];
  for (const [key, allowed] of [['task', TASKS], ['attention', ATTENTIONS]]) {
    if (typeof o[key] !== 'string') throw new TypeError(`${fn}: ${key} must be a string, got ${describe(o[key])}`);
    if (!allowed.includes(o[key])) {
      throw new RangeError(`${fn}: ${key} must be one of ${allowed.map((x) => `'${x}'`).join(', ')}, got '${o[key]}'`);
    }
  }
  requireInteger(o.hidden, fn, 'hidden', 1, 256);
  requireInteger(o.embedding, fn, 'embedding', 1, 256);
  requireInteger(o.batch, fn, 'batch', 1, 512);
  requireInteger(o.seed, fn, 'seed', 0, 2 ** 32 - 1);
  if (typeof o.learningRate !== 'number') {
    throw new TypeError(`${fn}: learningRate must be a number, got ${describe(o.learningRate)}`);
  }
  if (!(o.learningRate > 0 && o.learningRate <= 1)) {
    throw new RangeError(`${fn}: learningRate must be in (0, 1], got ${o.learningRate}`);
  }
  return o;
}

/** @param {any} core the instantiated Emscripten module */
export function seq2seqApi(core) {
  const check = (code, fn) => throwForStatus(code, fn, code === 0 ? '' : core._lastError());
  const bytesOf = () => new Uint8Array(core.HEAPF64.buffer);

  /** Frees a raw trainer if `body` throws; returns body's result otherwise. */
  function guarded(raw, body) {
    try {
      return body();
    } catch (error) {
      raw.delete();
      throw error;
    }
  }

  class Seq2SeqTrainer {
    /** @type {any} */
    #raw;
    /** @type {string} */
    #alphabet;
    /** @type {number} */
    #maxInput;

    /**
     * @param {object} [options] { task, attention, hidden, embedding, batch, learningRate, seed }
     */
    constructor(options) {
      // Seq2SeqTrainer.load() passes a ready raw trainer through this private path.
      if (options instanceof RawHandle) {
        this.#adopt(options.raw);
        return;
      }
      const o = readOptions(options);
      const raw = new core._Seq2SeqTrainer();
      guarded(raw, () =>
        check(raw.init(o.task, o.attention, o.hidden, o.embedding, o.batch, o.learningRate, o.seed), 'Seq2SeqTrainer'),
      );
      this.#adopt(raw);
    }

    #adopt(raw) {
      this.#raw = raw;
      this.#alphabet = raw.inputAlphabet();
      this.#maxInput = raw.maxInputLength();
    }

    #live(fn) {
      if (this.#raw === undefined) throw new Error(`Seq2SeqTrainer.${fn}: the trainer was deleted`);
      return this.#raw;
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
      guarded(raw, () => {
        const ptr = core._malloc(bytes.length);
        if (ptr === 0) throw new RangeError(`${fn}: out of wasm memory for ${bytes.length} bytes`);
        try {
          bytesOf().set(bytes, ptr);
          check(raw.load(ptr, bytes.length), fn);
        } finally {
          core._free(ptr);
        }
      });
      return new Seq2SeqTrainer(new RawHandle(raw));
    }

    /** The options the trainer was built with (defaults filled in). */
    get options() {
      const raw = this.#live('options');
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
      return this.#live('steps').steps();
    }

    /** Every character an input may contain. */
    get inputAlphabet() {
      this.#live('inputAlphabet');
      return this.#alphabet;
    }

    /** Longest input translate() accepts. */
    get maxInputLength() {
      this.#live('maxInputLength');
      return this.#maxInput;
    }

    /** Size of the task's fixed held-out set. */
    get heldOutSize() {
      return this.#live('heldOutSize').heldOutSize();
    }

    /** Number of trainable parameters. */
    get parameterCount() {
      return this.#live('parameterCount').parameterCount();
    }

    /** Runs `steps` mini-batches (Adam, teacher forcing); returns their mean loss per token. */
    train(steps) {
      const raw = this.#live('train');
      requireInteger(steps, 'Seq2SeqTrainer.train', 'steps', 1, MAX_STEPS);
      return withHeap(core, (heap) => {
        const out = heap.alloc(1);
        check(raw.train(steps, out), 'Seq2SeqTrainer.train');
        return heap.read(out, 1)[0];
      });
    }

    /** Exact-match accuracy of greedy decoding on the first n held-out examples, in [0, 1]. */
    evaluate(n = 500) {
      const raw = this.#live('evaluate');
      requireInteger(n, 'Seq2SeqTrainer.evaluate', 'n', 1, raw.heldOutSize());
      return withHeap(core, (heap) => {
        const out = heap.alloc(1);
        check(raw.evaluate(n, out), 'Seq2SeqTrainer.evaluate');
        return heap.read(out, 1)[0];
      });
    }

    /** A held-out example { input, target }, picked by the trainer's own seeded sampler. */
    sample() {
      const raw = this.#live('sample');
      raw.sample();
      return { input: raw.sampleInput(), target: raw.sampleTarget() };
    }

    /**
     * Greedy translation of `input`. attention: (output length x input length),
     * rows sum to 1; encoderOutputs: (input length x hidden); decoderStates:
     * (output length x hidden).
     */
    translate(input) {
      const fn = 'Seq2SeqTrainer.translate';
      const raw = this.#live('translate');
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
      check(raw.translate(input), fn);
      const detail = (which) =>
        withHeap(core, (heap) => {
          const rows = raw.detailRows(which);
          const cols = raw.detailCols(which);
          const out = heap.alloc(rows * cols);
          raw.copyDetail(which, out);
          return new Matrix(rows, cols, heap.read(out, rows * cols));
        });
      return {
        output: raw.output(),
        attention: detail(0),
        encoderOutputs: detail(1),
        decoderStates: detail(2),
      };
    }

    /** The checkpoint: magic "A2S2", version, options, step count, float32 weights, checksum. */
    save() {
      const raw = this.#live('save');
      const size = raw.save();
      const ptr = core._malloc(size);
      try {
        if (ptr === 0) throw new RangeError(`Seq2SeqTrainer.save: out of wasm memory for ${size} bytes`);
        raw.copySaved(ptr);
        return bytesOf().slice(ptr, ptr + size);
      } finally {
        if (ptr !== 0) core._free(ptr);
        raw.releaseSaved();
      }
    }

    /** Frees the WebAssembly memory of the trainer; later calls throw. Safe to call twice. */
    delete() {
      if (this.#raw !== undefined) {
        this.#raw.delete();
        this.#raw = undefined;
      }
    }
  }

  // Carries a raw trainer from load() into the constructor; not exported.
  class RawHandle {
    constructor(raw) {
      this.raw = raw;
    }
  }

  return { Seq2SeqTrainer };
}
