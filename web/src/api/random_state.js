// Public API of NumPy's legacy RandomState, bit for bit (cpp/random_state.h):
//
//   const rs = new a.RandomState(42);   // np.random.seed(42)
//   rs.randn(5, 16);                    // np.random.randn(5, 16)  -> Matrix
//   rs.delete();                        // frees the generator in wasm memory
//
// The generator lives in the wasm core (an Embind object); this class owns it
// and never hands it out.
import { throwForStatus } from './errors.js';
import { withHeap } from './heap.js';
import { Matrix } from './matrix.js';

const MAX_ENTRIES = 2 ** 26; // keep in step with kMaxRandomEntries (cpp/random_state.h)

function describeType(value) {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function requireNumber(value, fn, arg) {
  if (typeof value !== 'number') throw new TypeError(`${fn}: ${arg} must be a number, got ${describeType(value)}`);
}

function requireSize(value, fn, arg) {
  requireNumber(value, fn, arg);
  if (!Number.isInteger(value)) throw new RangeError(`${fn}: ${arg} is ${value}; it must be an integer`);
  if (value < 0 || value > 0x7fffffff) throw new RangeError(`${fn}: ${arg} is ${value}; it must be in [0, 2147483647]`);
}

/** @param {any} core the instantiated Emscripten module */
export function randomStateApi(core) {
  const check = (code, fn) => throwForStatus(code, fn, code === 0 ? '' : core._lastError());
  // A safety net for generators nobody deleted; delete() is still the way to free them.
  const leaked = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((handle) => handle.delete()) : null;

  class RandomState {
    /** @type {any} the Embind object, null once deleted */
    #handle;

    /** Like `np.random.seed(seed)`: seed is an integer in [0, 2^32 - 1]. */
    constructor(seed) {
      requireNumber(seed, 'RandomState', 'seed');
      check(core._validateSeed(seed), 'RandomState');
      this.#handle = new core._RandomState(seed);
      leaked?.register(this, this.#handle, this);
    }

    #draw(fn, rows, cols, call) {
      if (this.#handle === null) throw new TypeError(`${fn}: this RandomState was deleted`);
      requireSize(rows, fn, 'rows');
      requireSize(cols, fn, 'cols');
      const count = rows * cols <= MAX_ENTRIES ? rows * cols : 0; // the core rejects larger sizes
      return withHeap(core, (heap) => {
        const out = heap.alloc(count);
        check(call(this.#handle, out), fn);
        return new Matrix(rows, cols, heap.read(out, rows * cols));
      });
    }

    /** Standard normal values, like `np.random.randn(rows, cols)`. */
    randn(rows, cols) {
      return this.#draw('randn', rows, cols, (h, out) => h.randn(rows, cols, out));
    }

    /** Uniform values in [0, 1), like `np.random.rand(rows, cols)`. */
    rand(rows, cols) {
      return this.#draw('rand', rows, cols, (h, out) => h.rand(rows, cols, out));
    }

    /** Integers in [low, high), like `np.random.randint(low, high, size=(rows, cols))`. */
    randint(low, high, rows, cols) {
      requireNumber(low, 'randint', 'low');
      requireNumber(high, 'randint', 'high');
      return this.#draw('randint', rows, cols, (h, out) => h.randint(low, high, rows, cols, out));
    }

    /** Frees the generator. Later calls throw; calling delete() again does nothing. */
    delete() {
      if (this.#handle === null) return;
      leaked?.unregister(this);
      this.#handle.delete();
      this.#handle = null;
    }

    /** True once delete() was called. */
    get deleted() {
      return this.#handle === null;
    }
  }

  return { RandomState };
}
