// Public API of the "Attention Basics" chapter: dot-product scores, softmax and
// the context vector. Each function converts its arguments, runs the raw
// binding inside a heap scope and copies the result out.
import { toMatrix, toVector } from './convert.js';
import { throwForStatus } from './errors.js';
import { withHeap } from './heap.js';
import { Matrix } from './matrix.js';

/** @param {any} core the instantiated Emscripten module */
export function basicsApi(core) {
  const check = (code, fn) => throwForStatus(code, fn, code === 0 ? '' : core._lastError());

  function vectorToVector(fn, raw) {
    return (x) => {
      const v = toVector(x, fn, 'x');
      return withHeap(core, (heap) => {
        const out = heap.alloc(v.length);
        check(raw(heap.input(v), v.length, out), fn);
        return heap.read(out, v.length);
      });
    };
  }

  // weights: (n), values: (rows x cols) -> { values, data } with `outSize(values)` doubles
  function weightsTimesValues(fn, raw, weights, values, outSize) {
    const w = toVector(weights, fn, 'weights');
    const m = toMatrix(values, fn, 'values');
    return withHeap(core, (heap) => {
      const size = outSize(m);
      const out = heap.alloc(size);
      check(raw(heap.input(w), w.length, heap.input(m.data), m.rows, m.cols, out), fn);
      return { values: m, data: heap.read(out, size) };
    });
  }

  return {
    dot(a, b) {
      const va = toVector(a, 'dot', 'a');
      const vb = toVector(b, 'dot', 'b');
      return withHeap(core, (heap) => {
        const out = heap.alloc(1);
        check(core._dot(heap.input(va), va.length, heap.input(vb), vb.length, out), 'dot');
        return heap.read(out, 1)[0];
      });
    },

    dotScores(query, keys) {
      const q = toVector(query, 'dotScores', 'query');
      const k = toMatrix(keys, 'dotScores', 'keys');
      return withHeap(core, (heap) => {
        const out = heap.alloc(k.rows);
        check(core._dotScores(heap.input(q), q.length, heap.input(k.data), k.rows, k.cols, out), 'dotScores');
        return heap.read(out, k.rows);
      });
    },

    softmax: vectorToVector('softmax', core._softmax),
    logSoftmax: vectorToVector('logSoftmax', core._logSoftmax),
    naiveSoftmax: vectorToVector('naiveSoftmax', core._naiveSoftmax),

    scaleRows(weights, values) {
      const r = weightsTimesValues('scaleRows', core._scaleRows, weights, values, (m) => m.rows * m.cols);
      return new Matrix(r.values.rows, r.values.cols, r.data);
    },

    weightedSum(weights, values) {
      return weightsTimesValues('weightedSum', core._weightedSum, weights, values, (m) => m.cols).data;
    },
  };
}
