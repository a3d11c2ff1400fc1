// A consumer's TypeScript, compiled with --strict against the installed package.
import { loadAttention, Matrix, type Attention } from 'attention-lab';

const a: Attention = await loadAttention();
const w: Float64Array = a.softmax([927, 397, 148, 929]);
const m: Matrix = a.scaleRows(w, [
  [3, 12, 45],
  [59, 2, 5],
  [1, 43, 5],
  [4, 3, 45.3],
]);
console.log(m.rows, a.dot([1], [2]));
// @ts-expect-error softmax takes numbers, not strings
a.softmax(['927']);
