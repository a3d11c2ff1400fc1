// The one wrapper of a wasm trainer (cpp/models/trainer.h, bound in
// cpp/bindings.cpp as RawTrainer<Model>): options read and type-checked,
// construction and load(), train/evaluate/sample/translate, save(), and the
// getters every trainer has. seq2seq.js and transformer_trainer.js extend the
// class trainerClass() returns with what is theirs: translation details and
// their own getters.
//
// Each trainer's options are one table (trainer-options.js), from which the C++
// struct, its defaults and value checks are generated. JS reads the own keys of
// the options object and checks their types (and what must fit int32/uint32 to
// cross unchanged); the core checks the values, once.
import {
  coreCall,
  describe,
  readOptions,
  requireInteger,
  requireNumber,
  requireString,
  throwForStatus,
} from './errors.js';
import { OwnedHandle, rawOf } from './handle.js';
import { readBytes, withHeap } from './heap.js';
import { coreString } from './text.js';
import { bytesView } from './views.js';

export const INT32 = Object.freeze([-(2 ** 31), 2 ** 31 - 1]);
const UINT32 = Object.freeze([0, 2 ** 32 - 1]);
const MAX_STEPS = 100000;

/** `value` if it has the type of option `row` (trainer-options.js); TypeError or RangeError naming it otherwise. */
function checkOptionType(row, value, fn) {
  if (row.type === 'string') return requireString(value, fn, row.name);
  if (row.type === 'number') return requireNumber(value, fn, row.name);
  return requireInteger(value, fn, row.name, ...(row.type === 'uint32' ? UINT32 : INT32));
}

/** The hooks a trainer class fills in (symbols, so they stay off the public API). */
export const checkInput = Symbol('checkInput');
export const translationDetails = Symbol('translationDetails');

/** Frees a raw trainer if `body` throws; returns body's result otherwise. */
function freeOnThrow(raw, body) {
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

/**
 * The base class of one kind of trainer.
 * @param {any} core the instantiated Emscripten module
 * @param {object} spec
 * @param {string} spec.name the public class name, for messages
 * @param {Function} spec.Raw the Embind class (core._Seq2SeqTrainer, ...)
 * @param {readonly object[]} spec.options the trainer's options table (trainer-options.js)
 * @param {number} spec.evaluateCount evaluate()'s default n
 * @param {(raw: any) => number[]} spec.evaluateRange the n evaluate() accepts before calling the core
 */
export function trainerClass(core, spec) {
  const { name, Raw, options: table } = spec;
  const optionNames = table.map((row) => row.name);

  // Every option, the given one or its default, type-checked in the table's order.
  function readTrainerOptions(options) {
    const given = readOptions(options, optionNames, name);
    const o = {};
    for (const row of table) {
      const value = given[row.name] === undefined ? row.default : given[row.name]; // null is a wrong type
      o[row.name] = checkOptionType(row, value, name);
    }
    return o;
  }

  return class Trainer extends OwnedHandle {
    /** @param {object} [options] see the subclass */
    constructor(options) {
      // load() passes a ready raw trainer through this private path.
      let raw;
      if (options instanceof RawHandle) {
        raw = options.raw;
      } else {
        const o = readTrainerOptions(options);
        raw = coreCall(name, () => new Raw());
        freeOnThrow(raw, () => {
          for (const row of table)
            if (row.type === 'string') o[row.name] = coreString(core, o[row.name], name, row.name);
          throwForStatus(
            core,
            coreCall(name, () => raw.init(o)),
            name,
          );
        });
      }
      super(raw, name);
    }

    /** Rebuilds a trainer from save()'s bytes (Uint8Array or ArrayBuffer). */
    static load(bytes) {
      const fn = `${name}.load`;
      if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
      if (!(bytes instanceof Uint8Array)) {
        throw new TypeError(`${fn}: bytes must be a Uint8Array or ArrayBuffer, got ${describe(bytes)}`);
      }
      const view = bytesView(bytes); // its true length, whatever a subclass's `length` says
      if (view.length === 0) throw new RangeError(`${fn}: bytes is empty`);
      const raw = coreCall(fn, () => new Raw());
      freeOnThrow(raw, () =>
        withHeap(core, fn, (heap) => throwForStatus(core, raw.load(heap.bytes(view, 'bytes'), view.length), fn)),
      );
      return new this(new RawHandle(raw));
    }

    /** The options the trainer was built with (defaults filled in). */
    get options() {
      const o = rawOf(this, 'options').options();
      return Object.freeze(Object.fromEntries(optionNames.map((key) => [key, o[key]])));
    }

    /** Mini-batches trained so far (carried over by save/load). */
    get steps() {
      return rawOf(this, 'steps').steps();
    }

    /** Every character an input may contain. */
    get inputAlphabet() {
      return rawOf(this, 'inputAlphabet').inputAlphabet();
    }

    /** Longest input translate() accepts. */
    get maxInputLength() {
      return rawOf(this, 'maxInputLength').maxInputLength();
    }

    /** Size of the task's fixed held-out set. */
    get heldOutSize() {
      return rawOf(this, 'heldOutSize').heldOutSize();
    }

    /** Number of trainable parameters. */
    get parameterCount() {
      return rawOf(this, 'parameterCount').parameterCount();
    }

    /**
     * Runs `steps` mini-batches (Adam, teacher forcing). Returns { step, loss, losses }: the
     * trainer's step count after them, their mean loss per target token, and each one's.
     */
    train(steps) {
      const fn = `${name}.train`;
      const raw = rawOf(this, 'train');
      requireInteger(steps, fn, 'steps', 1, MAX_STEPS);
      const losses = withHeap(core, fn, (heap) => {
        const out = heap.output(1, steps, 'losses');
        throwForStatus(core, raw.train(steps, out), fn);
        return Array.from(heap.read(out));
      });
      let total = 0;
      for (const loss of losses) total += loss; // in order, as the core's mean sums them
      return { step: raw.steps(), loss: total / steps, losses };
    }

    /** Exact-match accuracy of greedy decoding on the first n held-out examples, in [0, 1]. */
    evaluate(n = spec.evaluateCount) {
      const fn = `${name}.evaluate`;
      const raw = rawOf(this, 'evaluate');
      requireInteger(n, fn, 'n', ...spec.evaluateRange(raw));
      return withHeap(core, fn, (heap) => {
        const out = heap.output(1, 1, 'accuracy');
        throwForStatus(core, raw.evaluate(n, out), fn);
        return heap.read(out)[0];
      });
    }

    /** A held-out example { input, target }, picked by the trainer's own seeded sampler. */
    sample() {
      const raw = rawOf(this, 'sample');
      raw.sample();
      return { input: raw.sampleInput(), target: raw.sampleTarget() };
    }

    /** Greedy translation of `input`: { output, ...the model's details }. */
    translate(input) {
      const fn = `${name}.translate`;
      const raw = rawOf(this, 'translate');
      if (typeof input !== 'string') throw new TypeError(`${fn}: input must be a string, got ${describe(input)}`);
      this[checkInput](input, fn, raw);
      throwForStatus(core, raw.translate(coreString(core, input, fn, 'input')), fn);
      return { output: raw.output(), ...this[translationDetails](raw, fn) };
    }

    /** The checkpoint: magic number, version, options, step count, float32 weights, checksum. */
    save() {
      const raw = rawOf(this, 'save');
      try {
        throwForStatus(core, raw.save(), `${name}.save`);
        return readBytes(core, raw.savedData(), raw.savedSize());
      } finally {
        raw.releaseSaved();
      }
    }

    /** What translate() checks in JS before the core does (nothing by default). */
    [checkInput]() {}
  };
}
