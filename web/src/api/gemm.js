// The matrix product, through the core's one packed SIMD gemm kernel.
import { toMatrix } from './convert.js';
import { throwForStatus } from './errors.js';
import { withHeap } from './heap.js';

/** @param {any} core the instantiated Emscripten module */
export function gemmApi(core) {
  return {
    /** a: (m x k), b: (k x n) -> a b: (m x n). */
    matmul(a, b) {
      const fn = 'matmul';
      const ma = toMatrix(a, fn, 'a');
      const mb = toMatrix(b, fn, 'b');
      return withHeap(core, fn, (heap) => {
        const out = heap.output(ma.rows, mb.cols, 'result');
        throwForStatus(core, core._matmul({ a: heap.matrix(ma, 'a'), b: heap.matrix(mb, 'b'), out }), fn);
        return heap.readMatrix(out);
      });
    },
  };
}
