// NumPy's legacy RandomState, bit for bit (cpp: the one RandomState):
//
//   const rs = new a.RandomState(42);   // np.random.seed(42)
//   rs.randn(5, 16);                    // np.random.randn(5, 16)  -> Matrix
//   rs.randn(5, 16, { out: m });        // the next 80 values written into m (5 x 16)
//   rs.delete();                        // frees the generator now (or `using rs = ...`)
import { coreCall, readOptions, requireInteger, requireNumber, throwForStatus } from './errors.js';
import { OwnedHandle, rawOf } from './handle.js';
import { withHeap } from './heap.js';
import { readOut } from './out.js';

const MAX_SIZE = 0x7fffffff;

/** @param {any} core the instantiated Emscripten module */
export function randomStateApi(core) {
  class RandomState extends OwnedHandle {
    /** Like `np.random.seed(seed)`: seed is an integer in [0, 2^32 - 1]. */
    constructor(seed) {
      requireInteger(seed, 'RandomState', 'seed', 0, 2 ** 32 - 1);
      super(
        coreCall('RandomState', () => new core._RandomState(seed)),
        'RandomState',
      );
    }

    #draw(fn, rows, cols, options, call) {
      const name = `RandomState.${fn}`;
      rawOf(this, fn); // a deleted generator is reported first
      requireInteger(rows, name, 'rows', 0, MAX_SIZE);
      requireInteger(cols, name, 'cols', 0, MAX_SIZE);
      const target = readOut(readOptions(options, ['out'], name).out, rows, cols, 'float64', name, 'options.out');
      const raw = rawOf(this, fn); // again: a getter in the options may have deleted it
      return withHeap(core, name, (heap) => {
        const out = heap.output(rows, cols, 'result');
        throwForStatus(core, call(raw, out), name);
        return heap.readMatrix(out, target);
      });
    }

    /** Standard normal values, like `np.random.randn(rows, cols)`. */
    randn(rows, cols, options) {
      return this.#draw('randn', rows, cols, options, (raw, out) => raw.randn(out));
    }

    /** Uniform values in [0, 1), like `np.random.rand(rows, cols)`. */
    rand(rows, cols, options) {
      return this.#draw('rand', rows, cols, options, (raw, out) => raw.rand(out));
    }

    /** Integers in [low, high), like `np.random.randint(low, high, size=(rows, cols))`. */
    randint(low, high, rows, cols, options) {
      requireNumber(low, 'RandomState.randint', 'low');
      requireNumber(high, 'RandomState.randint', 'high');
      return this.#draw('randint', rows, cols, options, (raw, out) => raw.randint(low, high, out));
    }
  }

  /** Runs `draw(rs)` with a RandomState seeded like np.random.seed(seed), freed afterwards. */
  function withRandomState(seed, draw) {
    const rs = new RandomState(seed);
    try {
      return draw(rs);
    } finally {
      rs.delete();
    }
  }

  return { RandomState, withRandomState };
}
