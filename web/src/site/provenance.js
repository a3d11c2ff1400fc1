// Pieces of provenance readouts shared by the chapters' models (no DOM): how a
// computed number is written out with the numbers it came from.
import { formatCell } from './numpy-format.js';

/** A number as the figures print it, with a true minus sign. */
export const shown = (x) => formatCell(x).replace(/^-/, '\u2212');

/** A factor of a product: negative numbers in parentheses. */
export const factor = (x) => (x < 0 ? `(${shown(x)})` : shown(x));

/**
 * "a·b + c·d + …" for pairs [a, b]. Long sums keep their first three and last
 * products and say how many there are, so a readout stays readable at d = 64.
 */
export function sumOfProducts(pairs, most = 12) {
  const term = ([x, y]) => `${factor(x)}·${factor(y)}`;
  if (pairs.length <= most) return pairs.map(term).join(' + ');
  return `${pairs.slice(0, 3).map(term).join(' + ')} + … + ${term(pairs[pairs.length - 1])} (${pairs.length} products)`;
}

/** Cells (row, col) for every row of one column, and every column of one row. */
export const columnCells = (rows, col) => Array.from({ length: rows }, (_, r) => [r, col]);
export const rowCells = (row, cols) => Array.from({ length: cols }, (_, c) => [row, c]);

/**
 * Weight i of softmax(scores), written out with every score:
 * "α1 = e^(927 − 929) / (e^(927 − 929) + … + 1) = 0.1192" (the largest score's term is 1).
 * `kept(j)` leaves masked scores out of the sum.
 */
export function softmaxText(name, scores, weights, i, kept = () => true) {
  const terms = Array.from(scores).filter((_, j) => kept(j));
  const m = Math.max(...terms);
  // e − m with a negative m is written e + |m| (never "− −0.23").
  const power = (e) => (e === m ? '1' : m < 0 ? `e^(${shown(e)} + ${shown(-m)})` : `e^(${shown(e)} − ${shown(m)})`);
  const parts = terms.map(power);
  const denominator =
    parts.length <= 12 ? parts.join(' + ') : `${parts.slice(0, 3).join(' + ')} + … (${parts.length} terms)`;
  return `${name} = ${power(scores[i])} / (${denominator}) = ${shown(weights[i])}`;
}
