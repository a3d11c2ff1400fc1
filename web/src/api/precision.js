// Which precision an operation with a float32 path (matmul, attentionScores,
// scaledDotProductAttention, multiHeadAttention) runs in.
//
// Rule: `options.precision` ('float32' or 'float64') when given; otherwise
// float32 when EVERY data input is Float32Array-backed, else float64. A
// Float32Array-backed input is a matrix whose `data` is a Float32Array (a
// Matrix or {rows, cols, data}), an array of rows that are all Float32Arrays,
// or (for vectors such as biases) a Float32Array. Masks do not count (they are
// 0/1 in any type). Plain arrays therefore stay float64, so the chapters keep
// NumPy's float64 digits. In float32, inputs are rounded to float32 and every
// Matrix returned holds a Float32Array.
import { requireOneOf } from './errors.js';
import { isFloat32Array } from './matrix.js';

export const PRECISIONS = Object.freeze(['float32', 'float64']);

/** True for an input whose numbers are held in Float32Arrays (see the rule above). */
export function isFloat32Backed(value) {
  if (isFloat32Array(value)) return true;
  if (Array.isArray(value)) return value.length > 0 && value.every(isFloat32Array);
  return value !== null && typeof value === 'object' && 'data' in value && isFloat32Array(value.data);
}

/**
 * @param {unknown} precision options.precision as given (undefined = choose by the rule)
 * @param {unknown[]} inputs the data inputs present (absent optional ones left out)
 * @param {string} fn public function name, for messages
 * @returns {'float32' | 'float64'}
 */
export function choosePrecision(precision, inputs, fn) {
  if (precision === undefined) return inputs.every(isFloat32Backed) ? 'float32' : 'float64';
  return /** @type {'float32' | 'float64'} */ (requireOneOf(precision, PRECISIONS, fn, 'options.precision'));
}
