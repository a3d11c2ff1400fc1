// The matrix product, through the core's one packed SIMD gemm kernel (in
// float64, or float32 with 4 lanes per SIMD register: see precision.js).
import { borrowMatrix } from './convert.js';
import { readOptions, throwForStatus } from './errors.js';
import { withHeap } from './heap.js';
import { readOut } from './out.js';
import { choosePrecision } from './precision.js';

/** @param {any} core the instantiated Emscripten module */
export function gemmApi(core) {
  return {
    /** a: (m x k), b: (k x n) -> a b: (m x n); options { precision: 'float32' | 'float64', out: Matrix }. */
    matmul(a, b, options) {
      const fn = 'matmul';
      const { precision, out: into } = readOptions(options, ['precision', 'out'], fn);
      const chosen = choosePrecision(precision, [a, b], fn);
      const ma = borrowMatrix(a, fn, 'a');
      const mb = borrowMatrix(b, fn, 'b');
      const target = readOut(into, ma.rows, mb.cols, chosen, fn, 'options.out');
      const raw = chosen === 'float32' ? core._matmul32 : core._matmul;
      return withHeap(
        core,
        fn,
        (heap) => {
          const out = heap.output(ma.rows, mb.cols, 'result');
          throwForStatus(core, raw({ a: heap.matrix(ma, 'a'), b: heap.matrix(mb, 'b'), out }), fn);
          return heap.readMatrix(out, target);
        },
        chosen,
      );
    },
  };
}
