// Attention, by operation: score functions (dot, scaled dot, concat), the
// context vector, scaled dot-product attention with padding/causal masks and
// multi-head attention built from it (cpp: one masked softmax, one weights·V).
//
// Shapes: n = keys (encoder steps), d = query/key size, n_q = queries,
// d_v = value size, d_model = model size, h = heads.
//
// attentionScores, scaledDotProductAttention and multiHeadAttention also run
// in float32 (options.precision, or by default when every input is
// Float32Array-backed: the rule is in precision.js).
import { borrowMatrix, toMatrix, toVector, toVectorOrLine } from './convert.js';
import { describe, readOptions, requireBoolean, requireInteger, throwForStatus } from './errors.js';
import { ABSENT, withHeap } from './heap.js';
import { readOut, readOutParts } from './out.js';
import { choosePrecision } from './precision.js';

const SDPA = 'scaledDotProductAttention';
const MHA = 'multiHeadAttention';
const MAX_HEADS = 4096;
// The widest sliding window the core's int holds (a window past n_k hides nothing).
const MAX_WINDOW = 2 ** 31 - 1;

/** { mask, causal } -> { mask: matrix | null, causal: boolean } */
function readMask(options, fn) {
  const { mask, causal = false } = options;
  requireBoolean(causal, fn, 'options.causal');
  return { mask: mask === undefined || mask === null ? null : borrowMatrix(mask, fn, 'mask'), causal };
}

/** @param {any} core the instantiated Emscripten module */
export function attentionApi(core) {
  const check = (code, fn) => throwForStatus(core, code, fn);

  // Converts Bahdanau's four arguments into Tensors.
  function concatInputs(fn, heap, encoderStates, decoderState, W1, w2) {
    const enc = toMatrix(encoderStates, fn, 'encoderStates');
    const dec = toVectorOrLine(decoderState, fn, 'decoderState');
    const w1 = toMatrix(W1, fn, 'W1');
    const v2 = toVectorOrLine(w2, fn, 'w2');
    return {
      n: enc.rows,
      h: enc.cols,
      a: w1.cols,
      args: {
        encoderStates: heap.matrix(enc, 'encoderStates'),
        decoderState: heap.vector(dec, 'decoderState'),
        W1: heap.matrix(w1, 'W1'),
        w2: heap.vector(v2, 'w2'),
      },
    };
  }

  return {
    /** a · b for two vectors of the same size. */
    dot(a, b) {
      const fn = 'dot';
      const va = toVector(a, fn, 'a');
      const vb = toVector(b, fn, 'b');
      return withHeap(core, fn, (heap) => {
        const out = heap.output(1, 1, 'result');
        check(core._dot({ a: heap.vector(va, 'a'), b: heap.vector(vb, 'b'), out }), fn);
        return heap.read(out)[0];
      });
    },

    /** query: (d), keys: (n x d) -> scores: (n), score_i = query · keys[i]. */
    dotScores(query, keys) {
      const fn = 'dotScores';
      const q = toVector(query, fn, 'query');
      const k = toMatrix(keys, fn, 'keys');
      return withHeap(core, fn, (heap) => {
        const out = heap.output(1, k.rows, 'scores');
        check(core._dotScores({ a: heap.vector(q, 'query'), b: heap.matrix(k, 'keys'), out }), fn);
        return heap.read(out);
      });
    },

    /** weights: (n), values: (n x d) -> (n x d), row i scaled by weights[i]. */
    scaleRows(weights, values) {
      const fn = 'scaleRows';
      const w = toVector(weights, fn, 'weights');
      const m = toMatrix(values, fn, 'values');
      return withHeap(core, fn, (heap) => {
        const out = heap.output(m.rows, m.cols, 'result');
        check(core._scaleRows({ a: heap.vector(w, 'weights'), b: heap.matrix(m, 'values'), out }), fn);
        return heap.readMatrix(out);
      });
    },

    /** weights: (n), values: (n x d) -> the context vector (d) = Σ weights[i] values[i]. */
    weightedSum(weights, values) {
      const fn = 'weightedSum';
      const w = toVector(weights, fn, 'weights');
      const m = toMatrix(values, fn, 'values');
      return withHeap(core, fn, (heap) => {
        const out = heap.output(1, m.cols, 'result');
        check(core._weightedSum({ a: heap.vector(w, 'weights'), b: heap.matrix(m, 'values'), out }), fn);
        return heap.read(out);
      });
    },

    /** Bahdanau's concat scores: score_i = w2ᵀ tanh(W1ᵀ [h_i; s]) -> (n). */
    concatScores(encoderStates, decoderState, W1, w2) {
      const fn = 'concatScores';
      return withHeap(core, fn, (heap) => {
        const { n, args } = concatInputs(fn, heap, encoderStates, decoderState, W1, w2);
        const scores = heap.output(1, n, 'scores');
        check(
          core._concatAttention({
            ...args,
            inputs: ABSENT,
            activations: ABSENT,
            scores,
            weights: ABSENT,
            weighted: ABSENT,
            context: ABSENT,
          }),
          fn,
        );
        return heap.read(scores);
      });
    },

    /** Every step of Bahdanau's concat attention: inputs, activations, scores, weights, weighted, context. */
    concatAttention(encoderStates, decoderState, W1, w2) {
      const fn = 'concatAttention';
      return withHeap(core, fn, (heap) => {
        const { n, h, a, args } = concatInputs(fn, heap, encoderStates, decoderState, W1, w2);
        const out = {
          inputs: heap.output(n, 2 * h, 'inputs'),
          activations: heap.output(n, a, 'activations'),
          scores: heap.output(1, n, 'scores'),
          weights: heap.output(1, n, 'weights'),
          weighted: heap.output(n, h, 'weighted'),
          context: heap.output(1, h, 'context'),
        };
        check(core._concatAttention({ ...args, ...out }), fn);
        return {
          inputs: heap.readMatrix(out.inputs),
          activations: heap.readMatrix(out.activations),
          scores: heap.read(out.scores),
          weights: heap.read(out.weights),
          weighted: heap.readMatrix(out.weighted),
          context: heap.read(out.context),
        };
      });
    },

    /** Q: (n_q x d), K: (n x d) -> Q Kᵀ (n_q x n), divided by sqrt(d) with { scaled: true }. */
    attentionScores(Q, K, options) {
      const fn = 'attentionScores';
      const { scaled = false, precision, out } = readOptions(options, ['scaled', 'precision', 'out'], fn);
      requireBoolean(scaled, fn, 'options.scaled');
      const chosen = choosePrecision(precision, [Q, K], fn);
      const q = borrowMatrix(Q, fn, 'Q');
      const k = borrowMatrix(K, fn, 'K');
      const target = readOut(out, q.rows, k.rows, chosen, fn, 'options.out');
      const raw = chosen === 'float32' ? core._attention32 : core._attention;
      return withHeap(
        core,
        fn,
        (heap) => {
          const weights = heap.output(q.rows, k.rows, 'scores');
          check(
            raw({
              q: heap.matrix(q, 'Q'),
              k: heap.matrix(k, 'K'),
              v: ABSENT,
              mask: ABSENT,
              causal: false,
              window: 0,
              scaled,
              output: ABSENT,
              weights,
            }),
            fn,
          );
          return heap.readMatrix(weights, target);
        },
        chosen,
      );
    },

    /**
     * weights = softmax(Q Kᵀ / sqrt(d_k)) with masked keys at exactly 0, output = weights V.
     * Q: (n_q x d_k), K: (n x d_k), V: (n x d_v), options { mask: (n_q x n) of 0/1, causal,
     * window }: with window W, key j is hidden from query i when j <= i - W (a sliding
     * window, Beltagy et al. 2020; with causal, query i sees keys i - W < j <= i).
     */
    scaledDotProductAttention(Q, K, V, options) {
      const opts = readOptions(options, ['mask', 'causal', 'window', 'precision', 'out'], SDPA);
      const window = opts.window === undefined ? 0 : requireInteger(opts.window, SDPA, 'options.window', 1, MAX_WINDOW);
      const chosen = choosePrecision(opts.precision, [Q, K, V], SDPA);
      const q = borrowMatrix(Q, SDPA, 'Q');
      const k = borrowMatrix(K, SDPA, 'K');
      const v = borrowMatrix(V, SDPA, 'V');
      const { mask, causal } = readMask(opts, SDPA);
      const into = readOutParts(opts.out, { output: [q.rows, v.cols], weights: [q.rows, k.rows] }, chosen, SDPA);
      const raw = chosen === 'float32' ? core._attention32 : core._attention;
      return withHeap(
        core,
        SDPA,
        (heap) => {
          const output = heap.output(q.rows, v.cols, 'output');
          const weights = heap.output(q.rows, k.rows, 'weights');
          check(
            raw({
              q: heap.matrix(q, 'Q'),
              k: heap.matrix(k, 'K'),
              v: heap.matrix(v, 'V'),
              mask: mask ? heap.matrix(mask, 'mask') : ABSENT,
              causal,
              window,
              scaled: true,
              output,
              weights,
            }),
            SDPA,
          );
          return { output: heap.readMatrix(output, into.output), weights: heap.readMatrix(weights, into.weights) };
        },
        chosen,
      );
    },

    /**
     * Multi-head attention: h heads of scaled dot-product attention over column
     * blocks of Q Wq + bq, K Wk + bk, V Wv + bv, concatenated and projected by Wo (+ bo).
     * With options.kvHeads < heads (grouped-query; 1: multi-query), Wk and Wv are
     * d_model x (kvHeads · d_k) and query head h reads key/value head ⌊h · kvHeads / heads⌋.
     */
    multiHeadAttention(Q, K, V, options) {
      if (options === undefined) throw new TypeError(`${MHA}: options { heads, Wq, Wk, Wv, Wo } are required`);
      const opts = readOptions(
        options,
        ['heads', 'kvHeads', 'Wq', 'Wk', 'Wv', 'Wo', 'bq', 'bk', 'bv', 'bo', 'mask', 'causal', 'precision', 'out'],
        MHA,
      );
      const { heads } = opts;
      if (typeof heads !== 'number') {
        throw new TypeError(
          `${MHA}: options.heads must be an integer, got ${heads === undefined ? 'nothing' : describe(heads)}`,
        );
      }
      requireInteger(heads, MHA, 'options.heads', 1, MAX_HEADS);
      const kvHeads =
        opts.kvHeads === undefined ? heads : requireInteger(opts.kvHeads, MHA, 'options.kvHeads', 1, heads);
      if (heads % kvHeads !== 0) {
        throw new RangeError(`${MHA}: options.kvHeads = ${kvHeads} must divide options.heads = ${heads}`);
      }
      const present = ['Wq', 'Wk', 'Wv', 'Wo', 'bq', 'bk', 'bv', 'bo'].map((name) => opts[name]);
      const chosen = choosePrecision(
        opts.precision,
        [Q, K, V, ...present.filter((x) => x !== undefined && x !== null)],
        MHA,
      );
      const q = borrowMatrix(Q, MHA, 'Q');
      const k = borrowMatrix(K, MHA, 'K');
      const v = borrowMatrix(V, MHA, 'V');
      const matrix = (name) => {
        if (opts[name] === undefined) {
          const cols = kvHeads !== heads && (name === 'Wk' || name === 'Wv') ? 'kvHeads * d_k' : 'd_model';
          throw new TypeError(`${MHA}: options.${name} is required (a d_model x ${cols} matrix)`);
        }
        return borrowMatrix(opts[name], MHA, name);
      };
      const bias = (name) => (opts[name] === undefined || opts[name] === null ? null : toVector(opts[name], MHA, name));
      const W = { wq: matrix('Wq'), wk: matrix('Wk'), wv: matrix('Wv'), wo: matrix('Wo') };
      const b = { bq: bias('bq'), bk: bias('bk'), bv: bias('bv'), bo: bias('bo') };
      const { mask, causal } = readMask(opts, MHA);
      const into = readOutParts(opts.out, { output: [q.rows, q.cols], weights: [heads, q.rows, k.rows] }, chosen, MHA);
      const raw = chosen === 'float32' ? core._multiHeadAttention32 : core._multiHeadAttention;
      return withHeap(
        core,
        MHA,
        (heap) => {
          const args = {
            q: heap.matrix(q, 'Q'),
            k: heap.matrix(k, 'K'),
            v: heap.matrix(v, 'V'),
            heads,
            kvHeads,
            causal,
          };
          for (const [key, w] of Object.entries(W)) args[key] = heap.matrix(w, `W${key[1]}`);
          for (const [key, x] of Object.entries(b)) args[key] = x ? heap.vector(x, key) : ABSENT;
          args.mask = mask ? heap.matrix(mask, 'mask') : ABSENT;
          args.output = heap.output(q.rows, q.cols, 'output');
          // If heads does not divide d_model the core reports it; allocate nothing big.
          args.weights =
            q.cols % heads === 0 ? heap.output(heads * q.rows, k.rows, 'weights') : heap.output(0, 0, 'weights');
          check(raw(args), MHA);
          // Head h's (n_q x n_k) block starts h * n_q * n_k entries into the stacked weights.
          const headBytes = q.rows * k.rows * heap.bytesPerElement;
          return {
            output: heap.readMatrix(args.output, into.output),
            weights: Array.from({ length: heads }, (_, h) =>
              heap.readMatrix(
                { data: args.weights.data + h * headBytes, rows: q.rows, cols: k.rows },
                into.weights?.[h],
              ),
            ),
          };
        },
        chosen,
      );
    },
  };
}
