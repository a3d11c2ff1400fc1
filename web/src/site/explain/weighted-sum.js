// out = weights · values: output row i is the weighted sum of the value rows,
// out[i][k] = Σ_j w[i][j] v[j][k] (attention's last step, Bahdanau's context).
import { columnCells, rowCells, shown, sumOfProducts } from './format.js';
import { at } from './names.js';

export const roles = ['weights', 'values'];

export function sources({ inputs: { weights, values } }, i, k) {
  return [
    { input: 'weights', cells: rowCells(i, weights.cols) },
    { input: 'values', cells: columnCells(values.rows, k) },
  ];
}

/** "out[2][3] = Σ_j α[2][j] · V[j][3] = 0.2·1.5 + … = 0.41". */
export function explain(args, i, k) {
  const { out, inputs, names } = args;
  const { weights: w, values: v } = inputs;
  const pairs = Array.from({ length: w.cols }, (_, j) => [at(w, i, j), at(v, j, k)]);
  const [ws, vs] = [names.weights.symbol, names.values.symbol];
  return {
    text: `${names.out.cell(i, k)} = Σ_j ${ws}[${i + 1}][j] · ${vs}[j][${k + 1}] = ${sumOfProducts(pairs)} = ${shown(at(out, i, k))}`,
    sources: sources(args, i, k),
  };
}
