// out = xᵀ: an embedding figure drawn one column per token, read one row per token.
import { shown } from './format.js';
import { at } from './names.js';

export const roles = ['x'];
export const sources = (_, r, c) => [{ input: 'x', cells: [[c, r]] }];
export const focus = (_, r, c) => ({ input: 'x', cell: [c, r] });

/** "q[2][5] = E_q[5][2] = 0.31". */
export function explain(args, r, c) {
  const { out, names } = args;
  return {
    text: `${names.out.cell(r, c)} = ${names.x.index(c, r)} = ${shown(at(out, r, c))}`,
    sources: sources(args, r, c),
  };
}
