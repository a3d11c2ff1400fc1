// out = a · b, or a · bᵀ (scores Q Kᵀ): one output cell is the dot product of
// a row of a with a column of b (a row of b when transposed).
import { columnCells, rowCells, shown, sumOfProducts } from './format.js';
import { at } from './names.js';

export const roles = ['a', 'b'];

/** The cells of a and b that out[r][c] reads. */
export function sources({ inputs: { a, b }, params = {} }, r, c) {
  return [
    { input: 'a', cells: rowCells(r, a.cols) },
    { input: 'b', cells: params.transposeB ? rowCells(c, b.cols) : columnCells(b.rows, c) },
  ];
}

/** "S[1][2] = q1 · k2 = 0.5·1.2 + … = 0.87". */
export function explain(args, r, c) {
  const { out, inputs, params = {}, names } = args;
  const { a, b } = inputs;
  const t = params.transposeB;
  const pairs = Array.from({ length: a.cols }, (_, k) => [at(a, r, k), t ? at(b, c, k) : at(b, k, c)]);
  const right = t ? names.b.row(c) : names.b.col(c);
  return {
    text: `${names.out.cell(r, c)} = ${names.a.row(r)} · ${right} = ${sumOfProducts(pairs)} = ${shown(at(out, r, c))}`,
    sources: sources(args, r, c),
  };
}
