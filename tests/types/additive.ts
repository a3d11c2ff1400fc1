// Compiled by `tsc --strict`: the additive-attention and matmul declarations as used.
import { loadAttention, Matrix, type AdditiveAttentionResult, type Attention } from '../../dist/lib/index.js';

export async function additiveUsage(): Promise<number> {
  const a: Attention = await loadAttention();
  const rs = new a.RandomState(42);
  const encoderStates = rs.randn(5, 16);
  const decoderState = rs.randn(1, 16);
  const W1 = rs.randn(32, 10);
  const w2 = rs.randn(10, 1);
  rs.delete();
  const scores: Float64Array = a.concatScores(encoderStates, decoderState, W1, w2);
  const r: AdditiveAttentionResult = a.concatAttention(encoderStates, decoderState.data, W1, w2.data);
  const inputs: Matrix = r.inputs;
  const activations: Matrix = r.activations;
  const context: Float64Array = r.context;
  const q: Matrix = a.matmul(
    [
      [1, 0, 0],
      [0, 1, 0],
    ],
    { rows: 3, cols: 1, data: [1, 2, 3] },
  );
  // @ts-expect-error W1 must be a matrix, not a number
  a.concatScores(encoderStates, decoderState, 3, w2);
  // @ts-expect-error matmul takes two matrices
  a.matmul([[1]]);
  return scores[0] + inputs.cols + activations.rows + context[0] + r.weights[0] + r.weighted.rows + q.get(0, 0);
}
