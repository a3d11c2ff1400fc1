// out = x / √d_k entry by entry (params.dk), or x · factor (params.factor):
// the scaling of attention scores.
import { factor as factorText, shown } from './format.js';
import { at } from './names.js';

export const roles = ['x'];

export const sources = (_, r, c) => [{ input: 'x', cells: [[r, c]] }];

/** The cell of x that out[r][c] is made from, and whose story may follow. */
export const focus = (_, r, c) => ({ input: 'x', cell: [r, c] });

/** "scaled[1][2] = S[1][2] / √8 = 3.2 / 2.828 = 1.131". */
export function explain(args, r, c) {
  const { out, inputs, params, names } = args;
  const x = at(inputs.x, r, c);
  const head = `${names.out.cell(r, c)} = ${names.x.index(r, c)}`;
  const text =
    params.dk !== undefined
      ? `${head} / √${params.dk} = ${shown(x)} / ${shown(Math.sqrt(params.dk))} = ${shown(at(out, r, c))}`
      : `${head} · ${shown(params.factor)} = ${factorText(x)}·${factorText(params.factor)} = ${shown(at(out, r, c))}`;
  return { text, sources: sources(args, r, c) };
}
