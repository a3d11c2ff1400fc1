// Putting matrices together and taking them apart: split takes head h's block
// of columns (params.c0, params.width), concat puts matrices side by side (a
// one-row part repeated down every row), stack puts one-row parts one under another.
import { shown } from './format.js';
import { at } from './names.js';

/** Columns c0 … c0 + width − 1 of a matrix, as a new plain one (a head's block, computed when a story needs it). */
export function columnsOf(m, c0, width) {
  const data = new Float64Array(m.rows * width);
  for (let r = 0; r < m.rows; r++) for (let c = 0; c < width; c++) data[r * width + c] = m.data[r * m.cols + c0 + c];
  return { rows: m.rows, cols: width, data };
}

/** A 0/1 matrix of the keys each query may see (0 where `isMasked(i, j)`). */
export function maskOf(rows, cols, isMasked) {
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) data[i * cols + j] = isMasked(i, j) ? 0 : 1;
  return { rows, cols, data };
}

export const split = {
  roles: ['x'],
  sources: ({ params }, r, c) => [{ input: 'x', cells: [[r, params.c0 + c]] }],
  focus: ({ params }, r, c) => ({ input: 'x', cell: [r, params.c0 + c] }),
  /** "Q₂[1][1] = Q[1][3] = 0.42 (columns 3 to 4 of Q)". */
  explain(args, r, c) {
    const { params, names, out } = args;
    const span = `columns ${params.c0 + 1} to ${params.c0 + params.width}`;
    return {
      text: `${names.out.cell(r, c)} = ${names.x.index(r, params.c0 + c)} = ${shown(at(out, r, c))} (${span} of ${names.x.symbol})`,
      sources: split.sources(args, r, c),
    };
  },
};

/** A part of one row is repeated down every row (Bahdanau's [h_i; s]). */
const rowIn = (part, r) => (part.rows === 1 ? 0 : r);

/** Which part and which of its columns column c of the concatenation is. */
function partOf(parts, c) {
  let c0 = 0;
  for (let p = 0; p < parts.length; p++) {
    if (c < c0 + parts[p].cols) return [p, c - c0];
    c0 += parts[p].cols;
  }
  throw new RangeError(`concat: column ${c} is past the ${c0} columns of the parts`);
}

export const concat = {
  /** One role per part: part1, part2, … */
  rolesFor: (count) => Array.from({ length: count }, (_, p) => `part${p + 1}`),
  sources({ inputs }, r, c) {
    const parts = Object.values(inputs);
    const [p, k] = partOf(parts, c);
    return [{ input: `part${p + 1}`, cells: [[rowIn(parts[p], r), k]] }];
  },
  focus(args, r, c) {
    const [{ input, cells }] = concat.sources(args, r, c);
    return { input, cell: cells[0] };
  },
  /** "concat[1][3] = head2[1][1] = 0.42 (column 3 is column 1 of head2)". */
  explain(args, r, c) {
    const { inputs, names, out } = args;
    const parts = Object.values(inputs);
    const [p, k] = partOf(parts, c);
    const part = names[`part${p + 1}`];
    return {
      text: `${names.out.cell(r, c)} = ${part.index(rowIn(parts[p], r), k)} = ${shown(at(out, r, c))} (column ${c + 1} is column ${k + 1} of ${part.symbol})`,
      sources: concat.sources(args, r, c),
    };
  },
};

export const stack = {
  /** One role per row: part1, part2, … (each one row). */
  rolesFor: (count) => Array.from({ length: count }, (_, p) => `part${p + 1}`),
  sources: (_, r, c) => [{ input: `part${r + 1}`, cells: [[0, c]] }],
  focus: (_, r, c) => ({ input: `part${r + 1}`, cell: [0, c] }),
  /** "compare[2][3] = α(dot)3 = 0.42 (row 2 is α(dot))". */
  explain(args, r, c) {
    const { names, out } = args;
    const part = names[`part${r + 1}`];
    return {
      text: `${names.out.cell(r, c)} = ${part.index(0, c)} = ${shown(at(out, r, c))} (row ${r + 1} is ${part.symbol})`,
      sources: stack.sources(args, r, c),
    };
  },
};
