// Compiled by `tsc --strict` (npm test): the Transformer attention declarations
// describe the API as the chapter and the tests use it, and reject misuse.
import {
  loadAttention,
  Matrix,
  type Attention,
  type AttentionResult,
  type MultiHeadAttentionOptions,
  type MultiHeadAttentionResult,
} from '../../dist/lib/index.js';

export async function transformerUsage(): Promise<number> {
  const a: Attention = await loadAttention();
  const X = [
    [1, 0],
    [0, 1],
    [1, 1],
  ];
  const plain: AttentionResult = a.scaledDotProductAttention(X, X, X);
  const masked = a.scaledDotProductAttention(X, { rows: 3, cols: 2, data: new Float64Array(6) }, X, {
    mask: [
      [1, 0, 0],
      [1, 1, 0],
      [1, 1, 1],
    ],
    causal: true,
  });
  a.scaledDotProductAttention(X, X, X, { mask: null });
  // out: the previous result, or either part of it; a Matrix for matmul and randn.
  const again: AttentionResult = a.scaledDotProductAttention(X, X, X, { out: plain });
  a.scaledDotProductAttention(X, X, X, { out: { weights: again.weights } });
  const product: Matrix = a.matmul(X, [[1], [2]], { out: new Matrix(3, 1) });
  const rs = new a.RandomState(1);
  rs.randn(3, 1, { out: product });
  rs.delete();
  // @ts-expect-error out is a Matrix, not an array of rows
  a.matmul(X, X, { out: [[1, 2]] });
  // @ts-expect-error scaledDotProductAttention's out is { output, weights }, not a Matrix
  a.scaledDotProductAttention(X, X, X, { out: product });
  const I = [
    [1, 0],
    [0, 1],
  ];
  const options: MultiHeadAttentionOptions = {
    heads: 2,
    Wq: I,
    Wk: I,
    Wv: I,
    Wo: I,
    bq: [0, 1],
    bo: new Float64Array(2),
  };
  const multi: MultiHeadAttentionResult = a.multiHeadAttention(X, X, X, { ...options, causal: true });
  const firstHead: Matrix = multi.weights[0];
  // @ts-expect-error causal is a boolean, not a number
  a.scaledDotProductAttention(X, X, X, { causal: 1 });
  // @ts-expect-error unknown option name
  a.scaledDotProductAttention(X, X, X, { casual: true });
  // @ts-expect-error multi-head attention needs its options (heads and the four projections)
  a.multiHeadAttention(X, X, X);
  // @ts-expect-error heads is required
  a.multiHeadAttention(X, X, X, { Wq: I, Wk: I, Wv: I, Wo: I });
  return plain.output.get(0, 0) + masked.weights.rows + firstHead.cols + multi.output.rows;
}
