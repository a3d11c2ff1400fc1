// out = a · b, a · bᵀ (scores Q Kᵀ) or aᵀ · b (a column vector against the
// columns of b): one output cell is the dot product of a row of a (a column
// when params.transposeA) with a column of b (a row when params.transposeB).
import { columnCells, rowCells, shown, sumOfProducts } from './format.js';
import { at } from './names.js';

export const roles = ['a', 'b'];

/** The cells of a and b that out[r][c] reads. */
export function sources({ inputs: { a, b }, params = {} }, r, c) {
  return [
    { input: 'a', cells: params.transposeA ? columnCells(a.rows, r) : rowCells(r, a.cols) },
    { input: 'b', cells: params.transposeB ? rowCells(c, b.cols) : columnCells(b.rows, c) },
  ];
}

/** "S[1][2] = q1 · k2 = 0.5·1.2 + … = 0.87". */
export function explain(args, r, c) {
  const { out, inputs, params = {}, names } = args;
  const { a, b } = inputs;
  const [ta, t] = [params.transposeA, params.transposeB];
  const n = ta ? a.rows : a.cols;
  const pairs = Array.from({ length: n }, (_, k) => [ta ? at(a, k, r) : at(a, r, k), t ? at(b, c, k) : at(b, k, c)]);
  const left = ta ? names.a.col(r) : names.a.row(r);
  const right = t ? names.b.row(c) : names.b.col(c);
  return {
    text: `${names.out.cell(r, c)} = ${left} · ${right} = ${sumOfProducts(pairs)} = ${shown(at(out, r, c))}`,
    sources: sources(args, r, c),
  };
}
