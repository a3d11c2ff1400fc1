// Elementwise activations: out = f(x) for tanh, ReLU and GELU (x·Φ(x), the
// exact form with erf).
import { shown } from './format.js';
import { at } from './names.js';

function elementwise(name, written) {
  const op = {
    roles: ['x'],
    sources: (_, r, c) => [{ input: 'x', cells: [[r, c]] }],
    focus: (_, r, c) => ({ input: 'x', cell: [r, c] }),
    /** "a[1][2] = tanh(z[1][2]) = tanh(0.5) = 0.4621". */
    explain(args, r, c) {
      const { out, inputs, names } = args;
      const x = at(inputs.x, r, c);
      return {
        text: `${names.out.cell(r, c)} = ${name}(${names.x.index(r, c)}) = ${written(shown(x), x)} = ${shown(at(out, r, c))}`,
        sources: op.sources(args, r, c),
      };
    },
  };
  return op;
}

const paren = (text, x) => (x < 0 ? `(${text})` : text);

export const tanh = elementwise('tanh', (t) => `tanh(${t})`);
export const relu = elementwise('ReLU', (t) => `max(0, ${t})`);
export const gelu = elementwise('GELU', (t, x) => `0.5·${paren(t, x)}·(1 + erf(${paren(t, x)}/√2))`);
