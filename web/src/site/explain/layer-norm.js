// out = (x − μ) / √(σ² + ε) · γ + β over each row of x (μ, σ² the row's mean
// and population variance; γ, β 1 × cols; ε as in transformer_layers.h).
import { factor, rowCells, shown } from './format.js';
import { at, rowOf } from './names.js';

export const EPSILON = 1e-5;
export const roles = ['x', 'gamma', 'beta'];

export const sources = ({ inputs: { x } }, r, c) => [
  { input: 'x', cells: rowCells(r, x.cols) },
  { input: 'gamma', cells: [[0, c]] },
  { input: 'beta', cells: [[0, c]] },
];

/** "μ = 0.2, σ² = 1.5; y[1][2] = (x[1][2] − μ) / √(σ² + ε) · γ[2] + β[2] = (0.5 − 0.2) / √(1.5 + 1.00e-5) · 1 + 0 = 0.2449". */
export function explain(args, r, c) {
  const { out, inputs, params = {}, names } = args;
  const { x, gamma, beta } = inputs;
  const eps = params.epsilon ?? EPSILON;
  const row = rowOf(x, r);
  const mean = row.reduce((s, v) => s + v, 0) / row.length;
  const variance = row.reduce((s, v) => s + (v - mean) ** 2, 0) / row.length;
  const [g, b] = [at(gamma, 0, c), at(beta, 0, c)];
  const numbers = `(${shown(at(x, r, c))} − ${factor(mean)}) / √(${shown(variance)} + ${shown(eps)}) · ${factor(g)} + ${factor(b)}`;
  return {
    text:
      `μ = mean of ${names.x.row(r)} = ${shown(mean)}, σ² = ${shown(variance)}; ` +
      `${names.out.cell(r, c)} = (${names.x.index(r, c)} − μ) / √(σ² + ε) · γ[${c + 1}] + β[${c + 1}] = ${numbers} = ${shown(at(out, r, c))}`,
    sources: sources(args, r, c),
  };
}
