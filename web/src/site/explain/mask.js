// out = x where the mask is 1, −∞ where it is 0 (masked scores, before the softmax).
import { shown } from './format.js';
import { at } from './names.js';

export const roles = ['x', 'mask'];

export const sources = (_, r, c) => [
  { input: 'x', cells: [[r, c]] },
  { input: 'mask', cells: [[r, c]] },
];

export const focus = (_, r, c) => ({ input: 'x', cell: [r, c] });

/** "s[1][3] = −∞: the mask cell M[1][3] is 0 (masked)", or the score kept. */
export function explain(args, r, c) {
  const { inputs, names } = args;
  const m = names.mask.index(r, c);
  const text =
    at(inputs.mask, r, c) === 0
      ? `${names.out.cell(r, c)} = −∞: the mask cell ${m} is 0 (masked)`
      : `${names.out.cell(r, c)} = ${names.x.index(r, c)} = ${shown(at(inputs.x, r, c))}: the mask cell ${m} is 1 (kept)`;
  return { text, sources: sources(args, r, c) };
}
