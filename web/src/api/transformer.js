// Public API of the "Attention is all you need, hands on" chapter: scaled
// dot-product attention with padding/causal masks, and multi-head attention.
// Inputs are validated and copied into the wasm heap once; the core writes the
// output and the weights straight into heap buffers allocated here (no copy
// inside C++), which are copied out once into the returned Matrix objects.
import { toMatrix, toVector } from './convert.js';
import { throwForStatus } from './errors.js';
import { withHeap } from './heap.js';
import { Matrix } from './matrix.js';

const SDPA = 'scaledDotProductAttention';
const MHA = 'multiHeadAttention';
const SDPA_OPTIONS = ['mask', 'causal'];
const MHA_OPTIONS = ['heads', 'Wq', 'Wk', 'Wv', 'Wo', 'bq', 'bk', 'bv', 'bo', 'mask', 'causal'];

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Checks the options object: a plain object whose keys are all known. */
function readOptions(options, known, fn) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${fn}: options must be an object, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new TypeError(`${fn}: unknown option "${key}" (known options: ${known.join(', ')})`);
    }
  }
  return options;
}

/** { mask, causal } -> { mask: matrix | null, causal: boolean } */
function readMask(options, fn) {
  const { mask, causal = false } = options;
  if (typeof causal !== 'boolean') {
    throw new TypeError(`${fn}: options.causal must be true or false, got ${describe(causal)}`);
  }
  return { mask: mask === undefined || mask === null ? null : toMatrix(mask, fn, 'mask'), causal };
}

/** @param {any} core the instantiated Emscripten module */
export function transformerApi(core) {
  const check = (code, fn) => throwForStatus(code, fn, code === 0 ? '' : core._lastError());

  return {
    attentionScores(Q, K, options) {
      const fn = 'attentionScores';
      const { scaled = false } = readOptions(options, ['scaled'], fn);
      if (typeof scaled !== 'boolean') throw new TypeError(`${fn}: options.scaled must be true or false, got ${describe(scaled)}`);
      const q = toMatrix(Q, fn, 'Q');
      const k = toMatrix(K, fn, 'K');
      return withHeap(core, (heap) => {
        const out = heap.alloc(q.rows * k.rows);
        check(core._attentionScores(heap.input(q.data), q.rows, q.cols, heap.input(k.data), k.rows, k.cols, scaled, out), fn);
        return new Matrix(q.rows, k.rows, heap.read(out, q.rows * k.rows));
      });
    },

    scaledDotProductAttention(Q, K, V, options) {
      const opts = readOptions(options, SDPA_OPTIONS, SDPA);
      const q = toMatrix(Q, SDPA, 'Q');
      const k = toMatrix(K, SDPA, 'K');
      const v = toMatrix(V, SDPA, 'V');
      const { mask, causal } = readMask(opts, SDPA);
      return withHeap(core, (heap) => {
        const outSize = q.rows * v.cols;
        const weightSize = q.rows * k.rows;
        const out = heap.alloc(outSize);
        const weights = heap.alloc(weightSize);
        const code = core._scaledDotProductAttention(
          heap.input(q.data), q.rows, q.cols,
          heap.input(k.data), k.rows, k.cols,
          heap.input(v.data), v.rows, v.cols,
          mask ? heap.input(mask.data) : 0, mask ? mask.rows : 0, mask ? mask.cols : 0,
          causal, out, weights);
        check(code, SDPA);
        return {
          output: new Matrix(q.rows, v.cols, heap.read(out, outSize)),
          weights: new Matrix(q.rows, k.rows, heap.read(weights, weightSize)),
        };
      });
    },

    multiHeadAttention(Q, K, V, options) {
      if (options === undefined) {
        throw new TypeError(`${MHA}: options { heads, Wq, Wk, Wv, Wo } are required`);
      }
      const opts = readOptions(options, MHA_OPTIONS, MHA);
      const { heads } = opts;
      if (typeof heads !== 'number' || !Number.isInteger(heads)) {
        throw new TypeError(`${MHA}: options.heads must be an integer, got ${heads === undefined ? 'nothing' : describe(heads)}`);
      }
      if (heads < 1) throw new RangeError(`${MHA}: options.heads is ${heads} but must be at least 1`);
      const q = toMatrix(Q, MHA, 'Q');
      const k = toMatrix(K, MHA, 'K');
      const v = toMatrix(V, MHA, 'V');
      const matrix = (name) => {
        if (opts[name] === undefined) throw new TypeError(`${MHA}: options.${name} is required (a d_model x d_model matrix)`);
        return toMatrix(opts[name], MHA, name);
      };
      const bias = (name) => (opts[name] === undefined || opts[name] === null ? null : toVector(opts[name], MHA, name));
      const W = [matrix('Wq'), matrix('Wk'), matrix('Wv'), matrix('Wo')];
      const b = [bias('bq'), bias('bk'), bias('bv'), bias('bo')];
      const { mask, causal } = readMask(opts, MHA);
      return withHeap(core, (heap) => {
        const ptrs = [heap.input(q.data), heap.input(k.data), heap.input(v.data)];
        for (const w of W) ptrs.push(heap.input(w.data));
        for (const x of b) ptrs.push(x ? heap.input(x) : 0);
        ptrs.push(mask ? heap.input(mask.data) : 0);
        const dims = [q.rows, q.cols, k.rows, k.cols, v.rows, v.cols, heads];
        for (const w of W) dims.push(w.rows, w.cols);
        for (const x of b) dims.push(x ? x.length : 0);
        dims.push(mask ? mask.rows : 0, mask ? mask.cols : 0, causal ? 1 : 0);
        // Two small int32 arrays; heap.alloc counts doubles, so each needs half.
        const dimsPtr = heap.alloc(Math.ceil(dims.length / 2));
        const ptrsPtr = heap.alloc(Math.ceil(ptrs.length / 2));
        new Int32Array(core.HEAPF64.buffer, dimsPtr, dims.length).set(dims);
        new Uint32Array(core.HEAPF64.buffer, ptrsPtr, ptrs.length).set(ptrs);
        const outSize = q.rows * q.cols;
        const headSize = q.rows * k.rows;
        const out = heap.alloc(outSize);
        // If heads does not divide d_model the core reports it; allocate nothing big.
        const weights = heap.alloc(q.cols % heads === 0 ? heads * headSize : 0);
        check(core._multiHeadAttention(dimsPtr, ptrsPtr, out, weights), MHA);
        return {
          output: new Matrix(q.rows, q.cols, heap.read(out, outSize)),
          weights: Array.from(
            { length: heads },
            (_, h) => new Matrix(q.rows, k.rows, heap.read(weights + h * headSize * 8, headSize)),
          ),
        };
      });
    },
  };
}
