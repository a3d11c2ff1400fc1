// out = softmax over each row of x (attention weights), optionally of x / √d_k
// (params.dk: the scaling done inside, as scaledDotProductAttention does; an
// array gives each row its own d_k, undefined for a row left unscaled) and
// over the keys a mask leaves (masked weights are 0, not part of the sum).
import { columnCells, rowCells, softmaxText } from './format.js';
import { at, rowOf } from './names.js';

export const roles = ['x', 'mask'];

/** Scores in a column for weights in a row (Bahdanau's e, n x 1, and α, 1 x n): x read as its transpose. */
const columnScores = (x, out) => x.cols === 1 && out.rows === 1 && x.rows === out.cols && x.rows > 1;
const scoreCell = (x, out, i, j) => (columnScores(x, out) ? [j, 0] : [i, j]);

export function sources({ inputs: { x, mask }, out }, i, j) {
  const row = columnScores(x, out) ? columnCells(x.rows, 0) : rowCells(i, x.cols);
  return [{ input: 'x', cells: row }, ...(mask ? [{ input: 'mask', cells: [[i, j]] }] : [])];
}

/** The score this weight is the softmax of, whose story may follow (none for a masked weight). */
export const focus = ({ inputs: { x, mask }, out }, i, j) =>
  mask && at(mask, i, j) === 0 ? null : { input: 'x', cell: scoreCell(x, out, i, j) };

/**
 * "α[1][2] = e^(0.5 − 1.2) / (e^(0.5 − 1.2) + 1) = 0.3318", every kept score
 * written out (largest subtracted, as the stable softmax does); a masked cell
 * is 0 by its mask cell.
 */
export function explain(args, i, j) {
  const { out, inputs, params = {}, names } = args;
  const { x, mask } = inputs;
  const cell = names.out.cell(i, j);
  const open = (c) => !mask || at(mask, i, c) !== 0;
  const text = (t) => ({ text: t, sources: sources(args, i, j) });
  if (!open(j)) {
    const why = names.mask.note?.(i, j) ?? `the mask cell ${names.mask.index(i, j)} is 0 (masked)`;
    return text(`${cell} = 0: ${why}`);
  }
  const row = columnScores(x, out) ? Array.from(x.data) : rowOf(x, i);
  const keys = Array.from({ length: row.length }, (_, c) => c);
  const masked = keys.filter((c) => !open(c)).length;
  const dk = Array.isArray(params.dk) ? params.dk[i] : params.dk;
  const root = dk === undefined ? 1 : Math.sqrt(dk);
  const scores = row.map((s) => s / root);
  let story = softmaxText(cell, scores, rowOf(out, i), j, open);
  if (dk !== undefined) story += `, over row ${i + 1} of ${names.x.symbol}/√${dk}`;
  if (masked) story += `; ${masked} masked ${masked === 1 ? 'key' : 'keys'} left out`;
  return text(story);
}
