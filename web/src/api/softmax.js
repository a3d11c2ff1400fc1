// Softmax and its teaching variants (cpp: the one softmax, with the naive and
// log-space forms kept next to it to show why it is written as it is).
import { toVector } from './convert.js';
import { throwForStatus } from './errors.js';
import { withHeap } from './heap.js';

/** @param {any} core the instantiated Emscripten module */
export function softmaxApi(core) {
  /** x: (n) -> (n) through one raw kernel. */
  const vectorToVector = (fn, raw) => (x) => {
    const v = toVector(x, fn, 'x');
    return withHeap(core, fn, (heap) => {
      const out = heap.output(1, v.length, 'result');
      throwForStatus(core, raw({ x: heap.vector(v, 'x'), out }), fn);
      return heap.read(out);
    });
  };

  return {
    /** softmax(x): max subtracted first, exact underflow; -Infinity masks an entry. */
    softmax: vectorToVector('softmax', core._softmax),
    /** log(softmax(x)) without leaving log space. */
    logSoftmax: vectorToVector('logSoftmax', core._logSoftmax),
    /** exp(x) / sum(exp(x)) as written: overflows to NaN for large x (kept for teaching). */
    naiveSoftmax: vectorToVector('naiveSoftmax', core._naiveSoftmax),
  };
}
