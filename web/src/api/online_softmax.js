// Online-softmax attention: the keys read block by block, each query keeping a
// running maximum m and sum ℓ (Milakov & Gimelshein 2018), as FlashAttention
// does (Dao et al. 2022). Its output equals scaledDotProductAttention's; m and
// ℓ after every block are returned so a lesson can show the rescaling. Float64
// only (a float32 path would cost the core as many bytes again).
//
// Shapes: n_q queries, n_k keys, d_k, d_v; B = blockSize, nb = ⌈n_k / B⌉.
import { borrowMatrix } from './convert.js';
import { readOptions, requireBoolean, requireInteger, requireNumber, throwForStatus } from './errors.js';
import { withHeap } from './heap.js';

const FN = 'onlineSoftmaxAttention';
const MAX_BLOCK = 2 ** 31 - 1; // the core's int

/** @param {any} core the instantiated Emscripten module */
export function onlineSoftmaxApi(core) {
  return {
    /**
     * Q: (n_q x d_k), K: (n_k x d_k), V: (n_k x d_v), options { blockSize, causal }
     * -> { output: (n_q x d_v), max: (n_q x nb), sum: (n_q x nb) }: m and ℓ of each query after
     * each key block (-Infinity and 0 while no key was visible yet).
     */
    onlineSoftmaxAttention(Q, K, V, options) {
      const opts = readOptions(options, ['blockSize', 'causal'], FN);
      const { causal = false } = opts;
      requireNumber(opts.blockSize, FN, 'options.blockSize');
      const blockSize = requireInteger(opts.blockSize, FN, 'options.blockSize', 1, MAX_BLOCK);
      requireBoolean(causal, FN, 'options.causal');
      const q = borrowMatrix(Q, FN, 'Q');
      const k = borrowMatrix(K, FN, 'K');
      const v = borrowMatrix(V, FN, 'V');
      const blocks = Math.ceil(k.rows / blockSize);
      return withHeap(core, FN, (heap) => {
        const args = {
          q: heap.matrix(q, 'Q'),
          k: heap.matrix(k, 'K'),
          v: heap.matrix(v, 'V'),
          blockSize,
          causal,
          output: heap.output(q.rows, v.cols, 'output'),
          max: heap.output(q.rows, blocks, 'max'),
          sum: heap.output(q.rows, blocks, 'sum'),
        };
        throwForStatus(core, core._onlineSoftmaxAttention(args), FN);
        return {
          output: heap.readMatrix(args.output),
          max: heap.readMatrix(args.max),
          sum: heap.readMatrix(args.sum),
        };
      });
    },
  };
}
