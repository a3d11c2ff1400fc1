// A tanh RNN cell over a sequence: h_t = tanh(x_t Wx + h_(t−1) Wh + b), h_0 = 0.
// Row t of out is h at step t + 1; it reads row t of x and row t − 1 of out.
import { columnCells, factor, rowCells, shown, sumOfProducts } from './format.js';
import { at } from './names.js';

export const roles = ['x', 'Wx', 'Wh', 'b']; // and its own previous row, as 'out'

export function sources({ inputs: { x, Wx, Wh } }, t, c) {
  return [
    { input: 'x', cells: rowCells(t, x.cols) },
    { input: 'Wx', cells: columnCells(Wx.rows, c) },
    { input: 'Wh', cells: columnCells(Wh.rows, c) },
    { input: 'b', cells: [[0, c]] },
    ...(t > 0 ? [{ input: 'out', cells: rowCells(t - 1, Wh.rows) }] : []),
  ];
}

/** "h3[2] = tanh(x3 · Wx[:, 2] + h2 · Wh[:, 2] + b[2]) = tanh(… + … + 0.1) = tanh(0.52) = 0.4777". */
export function explain(args, t, c) {
  const { out, inputs, names } = args;
  const { x, Wx, Wh, b } = inputs;
  const xPairs = Array.from({ length: x.cols }, (_, k) => [at(x, t, k), at(Wx, k, c)]);
  const hPairs = t > 0 ? Array.from({ length: Wh.rows }, (_, k) => [at(out, t - 1, k), at(Wh, k, c)]) : [];
  const pre = [...xPairs, ...hPairs].reduce((s, [p, q]) => s + p * q, 0) + at(b, 0, c);
  const previous = t > 0 ? ` + ${names.out.row(t - 1)} · ${names.Wh.col(c)}` : '';
  const previousNumbers = t > 0 ? ` + ${sumOfProducts(hPairs)}` : '';
  return {
    text:
      `${names.out.cell(t, c)} = tanh(${names.x.row(t)} · ${names.Wx.col(c)}${previous} + ${names.b.symbol}[${c + 1}]) ` +
      `= tanh(${sumOfProducts(xPairs)}${previousNumbers} + ${factor(at(b, 0, c))}) = tanh(${shown(pre)}) = ${shown(at(out, t, c))}`,
    sources: sources(args, t, c),
  };
}
