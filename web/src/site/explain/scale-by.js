// out = w ⊙ x with one weight per column (params.along = 'cols') or per row
// ('rows') of x: the weighted annotations α_s h̄_s, the weighted states α_i h_i.
import { factor, shown } from './format.js';
import { at } from './names.js';

export const roles = ['weights', 'x'];

const weightIndex = (params, r, c) => (params.along === 'rows' ? r : c);

export function sources({ params }, r, c) {
  return [
    { input: 'weights', cells: [[0, weightIndex(params, r, c)]] },
    { input: 'x', cells: [[r, c]] },
  ];
}

/** "αh̄[3][4] = α4 · H[3][4] = 0.8808 · 45.3 = 39.9". */
export function explain(args, r, c) {
  const { out, inputs, params, names } = args;
  const i = weightIndex(params, r, c);
  const w = at(inputs.weights, 0, i);
  return {
    text: `${names.out.cell(r, c)} = ${names.weights.index(0, i)} · ${names.x.index(r, c)} = ${shown(w)} · ${factor(at(inputs.x, r, c))} = ${shown(at(out, r, c))}`,
    sources: sources(args, r, c),
  };
}
