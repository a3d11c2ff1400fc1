// out = x rotated by its position (RoPE, Su et al. 2021, "RoFormer"), in the
// layout Hugging Face's Llama-like models use: entry m pairs with m + d/2, and
// the pair turns by the angle p·θ_m, p the row's position counted from 0 and
// θ_m = params.invFreq[m] (base^(−2m/d), as the config scales it).
import { factor, shown } from './format.js';
import { at } from './names.js';

export const roles = ['x'];

/** The pair that cell (r, c) is turned with: its own entry and its partner half a row away. */
function pairOf(x, c) {
  const half = x.cols / 2;
  return c < half ? { m: c, partner: c + half, sign: -1 } : { m: c - half, partner: c - half, sign: 1 };
}

export function sources({ inputs: { x } }, r, c) {
  return [
    {
      input: 'x',
      cells: [
        [r, c],
        [r, pairOf(x, c).partner],
      ].sort((a, b) => a[1] - b[1]),
    },
  ];
}

export const focus = (_, r, c) => ({ input: 'x', cell: [r, c] });

/**
 * The rotation's value for cell (r, c) of x (the same formula the story writes out),
 * so a test can check it against the model's own rotated vectors.
 */
export function rotated(x, invFreq, r, c) {
  const { m, partner, sign } = pairOf(x, c);
  const angle = r * invFreq[m];
  return at(x, r, c) * Math.cos(angle) + sign * at(x, r, partner) * Math.sin(angle);
}

/**
 * "q̃[3][2] = q[3][2]·cos(2·θ2) − q[3][6]·sin(2·θ2) = 0.5·0.98 − 0.3·0.2 = 0.43; θ2 is 0.1 (…), the angle 0.2 rad …":
 * the arithmetic last, its only " = " steps, so the printed numbers give the printed value.
 */
export function explain(args, r, c) {
  const { out, inputs, params, names } = args;
  const { x } = inputs;
  const { m, partner, sign } = pairOf(x, c);
  const theta = params.invFreq[m];
  const angle = r * theta;
  const [own, other] = [at(x, r, c), at(x, r, partner)];
  const op = sign < 0 ? '−' : '+';
  const value = at(out, r, c);
  const ours = rotated(x, params.invFreq, r, c);
  // The model's number is the one shown; a config whose rotation this story does not write out says so.
  const agrees = Math.abs(ours - value) <= 1e-3 * Math.max(1, Math.abs(value));
  const text =
    `${names.out.cell(r, c)} = ${names.x.index(r, c)}·cos(${r}·θ${m + 1}) ${op} ${names.x.index(r, partner)}·sin(${r}·θ${m + 1}) = ` +
    `${factor(own)}·${factor(Math.cos(angle))} ${op} ${factor(other)}·${factor(Math.sin(angle))} = ${shown(agrees ? value : ours)}; ` +
    `θ${m + 1} is ${shown(theta)} (${params.thetaText ?? 'the rotation base'}), the angle ${shown(angle)} rad: ` +
    (agrees
      ? `row ${r + 1} is position ${r} counted from 0, and entry ${c + 1} turns with entry ${partner + 1}`
      : `but the model's value is ${shown(value)}: its config scales the rotation in a way this story does not write out`);
  return { text, sources: sources(args, r, c) };
}
