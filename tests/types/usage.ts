// Compiled by `tsc --strict` (npm test): the hand-written .d.ts must describe
// the API as it is used, and reject wrong argument types.
import { loadAttention, Matrix, type Attention } from '../../dist/lib/index.js';

export async function usage(): Promise<number> {
  const a: Attention = await loadAttention();
  const score: number = a.dot([5, 1, 20], [3, 12, 45]);
  const scores: Float64Array = a.dotScores(new Float64Array([5, 1, 20]), [
    [3, 12, 45],
    [59, 2, 5],
  ]);
  const weights: Float64Array = a.softmax(scores);
  a.logSoftmax(new Float32Array([1, 2]));
  a.naiveSoftmax([1, 2]);
  const applied: Matrix = a.scaleRows(weights, { rows: 2, cols: 3, data: [3, 12, 45, 59, 2, 5] });
  const rows: number[][] = applied.toArray();
  const context: Float64Array = a.weightedSum(weights, [
    [3, 12, 45],
    [59, 2, 5],
  ]);
  // @ts-expect-error a string is not a vector
  a.softmax('927, 929');
  // @ts-expect-error keys must be a matrix, not a vector
  a.dotScores([1, 2, 3], [1, 2, 3]);
  return score + rows.length + context[0] + new a.Matrix(1, 1).get(0, 0);
}
