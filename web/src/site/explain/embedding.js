// out = E[ids]: row r of the embedded sequence is row ids[r] of the table E.
import { shown } from './format.js';
import { at } from './names.js';

export const roles = ['E'];

export const sources = ({ params }, r, c) => [{ input: 'E', cells: [[params.ids[r], c]] }];

/** "X[3][2] (sat) = E[3][2] = 0.71: the embedding of word 3 of the vocabulary". */
export function explain(args, r, c) {
  const { out, params, names } = args;
  const id = params.ids[r];
  return {
    text: `${names.out.cell(r, c)} = ${names.E.index(id, c)} = ${shown(at(out, r, c))}: token ${r + 1} is row ${id + 1} of ${names.E.symbol}`,
    sources: sources(args, r, c),
  };
}
