// How a computed number is written out with the numbers it came from (no DOM):
// the conventions every explanation shares, so stories read the same in every
// chapter. Moved here from provenance.js with the explainers that use them.
import { formatCell } from '../numpy-format.js';

/** A number as the figures print it, with a true minus sign. */
export const shown = (x) => formatCell(x).replace(/^-/, '\u2212');

/** A factor of a product: negative numbers in parentheses. */
export const factor = (x) => (x < 0 ? `(${shown(x)})` : shown(x));

/** The fewest terms a folded sum keeps: its first three and its last. */
const FOLD_ABOVE = 12;

/**
 * "a·b + c·d + …" for pairs [a, b]. Long sums keep their first three and last
 * products and say how many there are, so a readout stays readable at d = 64.
 */
export const sumOfProducts = (pairs, most = FOLD_ABOVE) =>
  sumOfTerms(
    pairs.map(([x, y]) => `${factor(x)}·${factor(y)}`),
    'products',
    most,
  );

/** Terms joined by " + ", folded past `most` like sumOfProducts ("(16 terms)"). */
export function sumOfTerms(terms, unit = 'terms', most = FOLD_ABOVE) {
  if (terms.length <= most) return terms.join(' + ');
  return `${terms.slice(0, 3).join(' + ')} + … + ${terms[terms.length - 1]} (${terms.length} ${unit})`;
}

/** "a + b + …" of numbers, folded like sumOfProducts. */
export function sumOf(values, most = FOLD_ABOVE) {
  const terms = Array.from(values, shown);
  if (terms.length <= most) return terms.join(' + ').replace(/\+ −/g, '− ');
  return `${terms.slice(0, 3).join(' + ')} + … + ${terms[terms.length - 1]} (${terms.length} terms)`.replace(
    /\+ −/g,
    '− ',
  );
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
    parts.length <= FOLD_ABOVE ? parts.join(' + ') : `${parts.slice(0, 3).join(' + ')} + … (${parts.length} terms)`;
  return `${name} = ${power(scores[i])} / (${denominator}) = ${shown(weights[i])}`;
}

/** The first few entries of a vector, "[0.12, −0.3, 0.05, …]" with its length when cut. */
export function vectorText(v, most = 4) {
  const head = Array.from(v).slice(0, most).map(shown);
  return v.length > most ? `[${head.join(', ')}, … (${v.length} numbers)]` : `[${head.join(', ')}]`;
}
