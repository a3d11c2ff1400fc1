// Public API of the "Bahdanau additive attention" chapter (cpp/additive.h) and
// the general matrix product (cpp/linalg.h) used with it and by the Q/K/V chapter.
import { toMatrix, toVector } from './convert.js';
import { throwForStatus } from './errors.js';
import { withHeap } from './heap.js';
import { Matrix } from './matrix.js';

const isMatrixLike = (value) =>
  (Array.isArray(value) && value.length > 0 && (Array.isArray(value[0]) || ArrayBuffer.isView(value[0]))) ||
  (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value) && !Array.isArray(value) && 'rows' in value);

// A vector, or a matrix with one row or one column (what randn(1, h) and
// randn(a, 1) return), as a Float64Array.
function toVectorOrLine(value, fn, arg) {
  if (!isMatrixLike(value)) return toVector(value, fn, arg);
  const m = toMatrix(value, fn, arg);
  if (m.rows !== 1 && m.cols !== 1) {
    throw new RangeError(`${fn}: ${arg} is ${m.rows}x${m.cols} but must be a vector (one row or one column)`);
  }
  return m.data;
}

/** @param {any} core the instantiated Emscripten module */
export function additiveApi(core) {
  const check = (code, fn) => throwForStatus(code, fn, code === 0 ? '' : core._lastError());

  // Converts the four arguments and returns the raw call's leading arguments.
  function inputs(fn, encoderStates, decoderState, W1, w2, heap) {
    const enc = toMatrix(encoderStates, fn, 'encoderStates');
    const dec = toVectorOrLine(decoderState, fn, 'decoderState');
    const w1 = toMatrix(W1, fn, 'W1');
    const v2 = toVectorOrLine(w2, fn, 'w2');
    const args = [heap.input(enc.data), enc.rows, enc.cols, heap.input(dec), dec.length,
      heap.input(w1.data), w1.rows, w1.cols, heap.input(v2), v2.length];
    return { n: enc.rows, h: enc.cols, a: w1.cols, args };
  }

  return {
    concatScores(encoderStates, decoderState, W1, w2) {
      return withHeap(core, (heap) => {
        const { n, args } = inputs('concatScores', encoderStates, decoderState, W1, w2, heap);
        const out = heap.alloc(n);
        check(core._additiveScores(...args, out), 'concatScores');
        return heap.read(out, n);
      });
    },

    concatAttention(encoderStates, decoderState, W1, w2) {
      return withHeap(core, (heap) => {
        const { n, h, a, args } = inputs('concatAttention', encoderStates, decoderState, W1, w2, heap);
        const sizes = { inputs: n * 2 * h, activations: n * a, scores: n, weights: n, weighted: n * h, context: h };
        const out = Object.fromEntries(Object.entries(sizes).map(([k, size]) => [k, heap.alloc(size)]));
        check(core._additiveAttention(...args, out.inputs, out.activations, out.scores, out.weights,
          out.weighted, out.context), 'concatAttention');
        return {
          inputs: new Matrix(n, 2 * h, heap.read(out.inputs, sizes.inputs)),
          activations: new Matrix(n, a, heap.read(out.activations, sizes.activations)),
          scores: heap.read(out.scores, n),
          weights: heap.read(out.weights, n),
          weighted: new Matrix(n, h, heap.read(out.weighted, sizes.weighted)),
          context: heap.read(out.context, h),
        };
      });
    },

    matmul(a, b) {
      const ma = toMatrix(a, 'matmul', 'a');
      const mb = toMatrix(b, 'matmul', 'b');
      return withHeap(core, (heap) => {
        const size = ma.rows * mb.cols;
        const out = heap.alloc(size);
        check(core._matmul(heap.input(ma.data), ma.rows, ma.cols, heap.input(mb.data), mb.rows, mb.cols, out), 'matmul');
        return new Matrix(ma.rows, mb.cols, heap.read(out, size));
      });
    },
  };
}
