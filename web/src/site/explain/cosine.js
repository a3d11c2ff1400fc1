// out = x / (‖q_i‖·‖k_j‖): the cosine of two vectors from their dot product x
// (params.rowNorms, params.colNorms: the lengths of the rows' and columns' vectors).
import { shown } from './format.js';
import { at } from './names.js';

export const roles = ['x'];
export const sources = (_, r, c) => [{ input: 'x', cells: [[r, c]] }];
export const focus = (_, r, c) => ({ input: 'x', cell: [r, c] });

/** "cos[1][2] = q·k / (‖q‖·‖k‖) = 12.5 / (5.1·4.9) = 0.5002". */
export function explain(args, r, c) {
  const { out, inputs, params, names } = args;
  const [a, b] = [params.rowNorms[r], params.colNorms[c]];
  return {
    text: `${names.out.cell(r, c)} = ${names.x.index(r, c)} / (‖q‖·‖k‖) = ${shown(at(inputs.x, r, c))} / (${shown(a)}·${shown(b)}) = ${shown(at(out, r, c))}`,
    sources: sources(args, r, c),
  };
}
