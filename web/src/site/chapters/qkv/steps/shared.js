// What the Q/K/V chapter's steps share: formula symbols linked to the figures,
// and `name = array(...)` as NumPy prints it.
import { symbol } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';

export const WEIGHT_NAMES = { WQ: 'W_Q', WK: 'W_K', WV: 'W_V' };
export const X = symbol('words', 'X');
export const Q = symbol('Q', 'Q');
export const K = symbol('K', 'K');
export const V = symbol('V', 'V');
export const Sij = symbol('scores', 'S_{ij}');
export const alpha = symbol('weights', '\\alpha_{ij}');

// Integer inputs give NumPy integer arrays (words, W, Q, K, V, scores): those print
// without decimal points, "array([[2, 0, 2], ...". Softmax results are always floats.
export const numpyRepr = (data, shape, prefix, { float = false } = {}) => {
  const text = formatNumpy(data, shape, { prefix: `${' '.repeat(prefix.length)}array(` }).trimStart();
  const whole = !float && Array.from(data).every((x) => Number.isInteger(x) && Math.abs(x) < 1e15);
  return `${prefix}${whole ? text.replace(/(\d)\.(?=[,\]\s])/g, '$1') : text}`;
};
