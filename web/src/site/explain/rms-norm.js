// out = x / √(mean(x²) + ε) · g over each row of x (Zhang & Sennrich 2019):
// RMS normalisation, as Qwen3 and Gemma 3 apply it to each head's q and k
// (g 1 × cols, params.epsilon). Computed in JS by rmsNormRows below.
import { factor, rowCells, shown, sumOfTerms } from './format.js';
import { at, rowOf } from './names.js';

export const roles = ['x', 'gain'];

/** The root mean square of `row` with ε under the root. */
export const rootMeanSquare = (row, epsilon) => Math.sqrt(row.reduce((s, v) => s + v * v, 0) / row.length + epsilon);

/** Every row of x (rows × cols) divided by its RMS, times gain (cols entries). */
export function rmsNormRows(x, gain, epsilon) {
  const data = new Float64Array(x.rows * x.cols);
  for (let r = 0; r < x.rows; r++) {
    const rms = rootMeanSquare(rowOf(x, r), epsilon);
    for (let c = 0; c < x.cols; c++) data[r * x.cols + c] = (at(x, r, c) / rms) * gain[c];
  }
  return { rows: x.rows, cols: x.cols, data };
}

export const sources = ({ inputs: { x } }, r, c) => [
  { input: 'x', cells: rowCells(r, x.cols) },
  { input: 'gain', cells: [[0, c]] },
];

/** "rms(q1) = √((0.5² + … )/4 + ε) = 1.2; q̂[1][2] = Q[1][2] / rms(q1) · g2 = 0.5 / 1.2 · 1 = 0.4167". */
export function explain(args, r, c) {
  const { out, inputs, params, names } = args;
  const row = rowOf(inputs.x, r);
  const rms = rootMeanSquare(row, params.epsilon);
  const squares = sumOfTerms(row.map((v) => `${factor(v)}²`));
  const g = at(inputs.gain, 0, c);
  return {
    text:
      `rms(${names.x.row(r)}) = √((${squares}) / ${row.length} + ${shown(params.epsilon)}) = ${shown(rms)}; ` +
      `${names.out.cell(r, c)} = ${names.x.index(r, c)} / rms · ${names.gain.index(0, c)} = ` +
      `${shown(at(inputs.x, r, c))} / ${shown(rms)} · ${factor(g)} = ${shown(at(out, r, c))}`,
    sources: sources(args, r, c),
  };
}
