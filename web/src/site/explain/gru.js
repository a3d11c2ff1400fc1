// A GRU over a sequence, as the seq2seq model's (cpp/models/seq2seq_layers.h):
//   r = σ(x W_r + h U_r + b_r), z = σ(x W_z + h U_z + b_z),
//   n = tanh(x W_n + b_n + r·(h U_n)), h' = (1 − z)·n + z·h,
// W (E × 3H) and U (H × 3H) in column blocks r | z | n, b (1 × 3H). Row t of out
// is the state after reading row t of x; it follows row t − 1 of out (row t + 1
// when params.reverse: a GRU reading right to left), or row 0 of h0 first.
import { columnCells, factor, rowCells, shown, sumOfProducts } from './format.js';
import { at, rowOf } from './names.js';

export const roles = ['x', 'W', 'U', 'b', 'h0']; // and its own neighbouring row, as 'out'

const sigmoid = (a) => 1 / (1 + Math.exp(-a));
const dot = (pairs) => pairs.reduce((s, [p, q]) => s + p * q, 0);

/** The row of out that row t follows, or -1 for h0. */
const previousRow = (out, t, reverse) => (reverse ? (t + 1 < out.rows ? t + 1 : -1) : t - 1);

/** The gates of step t, unit c, from input row `x` and previous state `h`: the explainer's own arithmetic. */
function gates({ W, U, b }, x, h, c) {
  const H = U.rows;
  const column = (m, k) => (v) => v.map((value, i) => [value, at(m, i, k)]);
  const parts = (g) => ({ xs: column(W, g * H + c)(x), hs: column(U, g * H + c)(h), bias: at(b, 0, g * H + c) });
  const [pr, pz, pn] = [parts(0), parts(1), parts(2)];
  const ar = dot(pr.xs) + dot(pr.hs) + pr.bias;
  const az = dot(pz.xs) + dot(pz.hs) + pz.bias;
  const r = sigmoid(ar);
  const z = sigmoid(az);
  const hn = dot(pn.hs);
  const n = Math.tanh(dot(pn.xs) + pn.bias + r * hn);
  return { pr, pz, pn, ar, az, r, z, hn, n, h: (1 - z) * n + z * h[c] };
}

/**
 * Every state of the GRU over the rows of x ({rows, cols, data} matrices), as
 * the explanation computes them: for states a model does not report (each
 * direction of a bidirectional encoder), checked against the ones it does.
 */
export function gruStates({ x, W, U, b, h0 }, { reverse = false } = {}) {
  const H = U.rows;
  const out = { rows: x.rows, cols: H, data: new Float64Array(x.rows * H) };
  let h = rowOf(h0, 0);
  for (let k = 0; k < x.rows; k++) {
    const t = reverse ? x.rows - 1 - k : k;
    const xt = rowOf(x, t);
    h = Array.from({ length: H }, (_, c) => gates({ W, U, b }, xt, h, c).h);
    out.data.set(h, t * H);
  }
  return out;
}

export function sources({ out, inputs: { x, W, U }, params = {} }, t, c) {
  const H = U.rows;
  const prev = previousRow(out, t, params.reverse);
  const columns = (m) => [0, 1, 2].flatMap((g) => columnCells(m.rows, g * H + c));
  return [
    { input: 'x', cells: rowCells(t, x.cols) },
    { input: 'W', cells: columns(W) },
    { input: 'U', cells: columns(U) },
    { input: 'b', cells: [0, 1, 2].map((g) => [0, g * H + c]) },
    prev < 0 ? { input: 'h0', cells: rowCells(0, H) } : { input: 'out', cells: rowCells(prev, H) },
  ];
}

/**
 * "h3[5] = (1 − z)·n + z·h2[5] = (1 − 0.77)·0.52 + 0.77·0.12 = 0.21; z = 1 / (1 + e^(−a)) …":
 * the state, then its update gate z, reset gate r and candidate n, each with the numbers it adds up.
 */
export function explain(args, t, c) {
  const { out, inputs, params = {}, names } = args;
  const prev = previousRow(out, t, params.reverse);
  const h = prev < 0 ? rowOf(inputs.h0, 0) : rowOf(out, prev);
  const g = gates(inputs, rowOf(inputs.x, t), h, c);
  const hName = prev < 0 ? names.h0.row(0) : names.out.row(prev);
  const hCell = prev < 0 ? names.h0.index(0, c) : names.out.index(prev, c);
  const xName = names.x.row(t);
  const col = (gate) => `[:, ${gate}${c + 1}]`;
  const pre = (p, gate) =>
    `${xName} · ${names.W.symbol}${col(gate)} + ${hName} · ${names.U.symbol}${col(gate)} + ${names.b.symbol}[${gate}${c + 1}] ` +
    `= ${sumOfProducts(p.xs)} + ${sumOfProducts(p.hs)} + ${factor(p.bias)}`;
  const text = [
    `${names.out.cell(t, c)} = (1 − z)·n + z·${hCell} = (1 − ${shown(g.z)})·${factor(g.n)} + ${shown(g.z)}·${factor(h[c])} = ${shown(at(out, t, c))}`,
    `update gate z = 1 / (1 + e^(−a)) = 1 / (1 + e^(−${factor(g.az)})) = ${shown(g.z)}`,
    `a = ${pre(g.pz, 'z')} = ${shown(g.az)}`,
    `reset gate r = 1 / (1 + e^(−${factor(g.ar)})) = ${shown(g.r)}`,
    `a = ${pre(g.pr, 'r')} = ${shown(g.ar)}`,
    `candidate n = tanh(${xName} · ${names.W.symbol}${col('n')} + ${names.b.symbol}[n${c + 1}] + r·(${hName} · ${names.U.symbol}${col('n')})) ` +
      `= tanh(${sumOfProducts(g.pn.xs)} + ${factor(g.pn.bias)} + ${shown(g.r)}·(${sumOfProducts(g.pn.hs)})) = ${shown(g.n)}`,
  ].join('; ');
  return { text, sources: sources(args, t, c), gates: g };
}
