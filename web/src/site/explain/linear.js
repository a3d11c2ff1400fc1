// out = x W + b: a dense layer, one output cell a row of x dotted with a column
// of W, plus that column's bias (b is 1 × cols, or absent).
import { columnCells, factor, rowCells, shown, sumOfProducts } from './format.js';
import { at } from './names.js';

export const roles = ['x', 'W', 'b'];

export function sources({ inputs: { x, W, b } }, r, c) {
  return [
    { input: 'x', cells: rowCells(r, x.cols) },
    { input: 'W', cells: columnCells(W.rows, c) },
    ...(b ? [{ input: 'b', cells: [[0, c]] }] : []),
  ];
}

/** "y[1][2] = x1 · W[:, 2] + b[2] = 0.5·1.2 + 1·(−0.3) + 0.1 = 0.4". */
export function explain(args, r, c) {
  const { out, inputs, names } = args;
  const { x, W, b } = inputs;
  const pairs = Array.from({ length: x.cols }, (_, k) => [at(x, r, k), at(W, k, c)]);
  const bias = b ? ` + ${names.b.symbol}[${c + 1}]` : '';
  const biasValue = b ? ` + ${factor(at(b, 0, c))}` : '';
  return {
    text: `${names.out.cell(r, c)} = ${names.x.row(r)} · ${names.W.col(c)}${bias} = ${sumOfProducts(pairs)}${biasValue} = ${shown(at(out, r, c))}`,
    sources: sources(args, r, c),
  };
}
