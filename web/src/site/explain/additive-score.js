// Additive attention's score of every query–key pair:
// out[i][j] = w_s · tanh(q′_i + k′_j) + b_s, with q′ = W_q q + b_q and
// k′ = W_k k + b_k already projected (q: n_q × h, k: n_k × h, w: 1 × h, b: 1 × 1).
import { factor, rowCells, shown, sumOfTerms } from './format.js';
import { at } from './names.js';

export const roles = ['q', 'k', 'w', 'b'];

export function sources({ inputs: { q, k, w } }, i, j) {
  return [
    { input: 'q', cells: rowCells(i, q.cols) },
    { input: 'k', cells: rowCells(j, k.cols) },
    { input: 'w', cells: rowCells(0, w.cols) },
    { input: 'b', cells: [[0, 0]] },
  ];
}

/** "s[1][2] = w_s · tanh(q′1 + k′2) + b_s = 0.3·tanh(0.1 + (−0.2)) + … + 0.05 = 0.41". */
export function explain(args, i, j) {
  const { out, inputs, names } = args;
  const { q, k, w, b } = inputs;
  const terms = Array.from(
    { length: q.cols },
    (_, c) => `${factor(at(w, 0, c))}·tanh(${shown(at(q, i, c))} + ${factor(at(k, j, c))})`,
  );
  return {
    text:
      `${names.out.cell(i, j)} = ${names.w.symbol} · tanh(${names.q.row(i)} + ${names.k.row(j)}) + ${names.b.symbol} ` +
      `= ${sumOfTerms(terms)} + ${factor(at(b, 0, 0))} = ${shown(at(out, i, j))}`,
    sources: sources(args, i, j),
  };
}
