// The sinusoidal positional encoding (transformer_layers.cpp):
// PE(t, 2i) = sin(t / 10000^(2i/d)), PE(t, 2i+1) = cos of the same angle.
// Row r is position t = r (positions count from 0, rows from 1 like every axis).
import { shown } from './format.js';
import { at } from './names.js';

export const roles = [];

export const sources = () => [];

/** "PE[2][3] (position 1) = sin(1 / 10000^(2/8)) = sin(0.3162) = 0.3109". */
export function explain(args, r, c) {
  const { out, params, names } = args;
  const even = c - (c % 2);
  const fn = c % 2 === 0 ? 'sin' : 'cos';
  const angle = r / 10000 ** (even / params.dModel);
  return {
    text: `${names.out.cell(r, c)} (position ${r}) = ${fn}(${r} / 10000^(${even}/${params.dModel})) = ${fn}(${shown(angle)}) = ${shown(at(out, r, c))}`,
    sources: [],
  };
}
