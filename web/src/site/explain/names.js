// How a story names a tensor's cells, rows and columns (no DOM). One
// convention for every chapter: indices count from 1, as the figures' axes do;
// a row vector may have its own letter (q1, k2, h̄3) and rows may carry labels
// (tokens), written after the name: "q1 (the)".

/** Entry (r, c) of a row-major {rows, cols, data} matrix. */
export const at = (m, r, c) => m.data[r * m.cols + c];

/** A {rows, cols, data} matrix from an array of rows (a chapter's editable inputs). */
export const matrixOfRows = (rows) => ({
  rows: rows.length,
  cols: rows[0].length,
  data: Float64Array.from(rows.flat()),
});

/** Row r of a matrix as an array (a copy of cols numbers). */
export const rowOf = (m, r) => Array.from({ length: m.cols }, (_, c) => at(m, r, c));

/**
 * Namers for a tensor: `symbol` (e.g. 'Q'), `row` (the letter of its row
 * vectors, e.g. 'q'), `col` (likewise for columns), `rowLabels` and
 * `colLabels` (tokens). cell(r, c) → "Q[1][2]" (with "(the → cat)" when both
 * axes are labelled, "(the)" when only rows are), row(r) → "q1 (the)" or
 * "Q[1]", col(c) → "k2" or "Q[:, 2]". A `vector` (one row or one column)
 * names its entries e1, e2, … and itself by its symbol.
 */
export function namesOf({ symbol = 'x', row, col, rowLabels, colLabels, vector = false, note } = {}) {
  const rowTag = (r) => (rowLabels?.[r] !== undefined ? ` (${rowLabels[r]})` : '');
  const colTag = (c) => (colLabels?.[c] !== undefined ? ` (${colLabels[c]})` : '');
  const cellTag = (r, c) =>
    rowLabels?.[r] !== undefined && colLabels?.[c] !== undefined ? ` (${rowLabels[r]} → ${colLabels[c]})` : rowTag(r);
  if (vector) {
    // One row or one column: entries e1, e2, …; the vector itself is its symbol.
    const entry = (r, c) => `${symbol}${r + c + 1}`;
    return {
      symbol,
      note,
      index: entry,
      cell: (r, c) => entry(r, c) + cellTag(r, c),
      row: () => symbol,
      col: () => symbol,
    };
  }
  return {
    symbol,
    note, // (r, c) => why a cell is what it is (a mask cell: why it is 0), or undefined
    index: (r, c) => `${symbol}[${r + 1}][${c + 1}]`,
    cell: (r, c) => `${symbol}[${r + 1}][${c + 1}]${cellTag(r, c)}`,
    row: (r) => (row ? `${row}${r + 1}` : `${symbol}[${r + 1}]`) + rowTag(r),
    col: (c) => (col ? `${col}${c + 1}` : `${symbol}[:, ${c + 1}]`) + colTag(c),
  };
}
