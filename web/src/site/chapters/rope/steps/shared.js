// What the RoPE chapter's steps share: controls, formula symbols linked to
// the figures, axis labels, and the NumPy lines that reproduce the inputs.
import { el } from '../../../dom.js';
import { NumberInput } from '../../../number-input.js';

/** Positions as the figures label them: counted from 0, as RoPE counts them. */
export const positionLabels = (T) => Array.from({ length: T }, (_, i) => `pos ${i}`);

/** A number field whose value the page may set later (`field.set(x)`). */
export const numberField = (caption, value, { min, max, step = 1, integer = false, width = '5.5em' }, onChange) =>
  new NumberInput({ caption, label: caption, value, min, max, integer, onChange, width, scrub: { step } });

/** A labelled <select>; `node.value = String(v)` sets it. */
export function choice(label, values, current, onChange, format = String) {
  const node = el(
    'select',
    { attrs: { 'aria-label': label }, on: { change: () => onChange(parse(node.value)) } },
    ...values.map((v) => el('option', { value: String(v), selected: v === current }, format(v))),
  );
  const parse = (text) => values.find((v) => String(v) === text);
  return { node, element: el('label', { className: 'control' }, `${label} `, node) };
}

/** The NumPy lines that draw q and k and turn q at position m (half pairing; θ as scaled, when it is). */
export const numpyLines = ({ seed, headDim: d, queryAt: m, base }, freqs) =>
  [
    'import numpy as np',
    `rs = np.random.RandomState(${seed})`,
    `q, k = rs.randn(1, ${d}), rs.randn(1, ${d})`,
    freqs.rows === 1
      ? `theta = ${base} ** (-np.arange(0, ${d}, 2) / ${d})`
      : `theta = np.array([${Array.from(freqs.data.subarray(freqs.cols), String).join(', ')}])  # as rope_scaling sets them (step 2)`,
    `def rope(x, m):  # Hugging Face's half pairing: coordinate i turns with i + d/2`,
    `    a, b = x[:, :${d / 2}], x[:, ${d / 2}:]`,
    `    c, s = np.cos(m * theta), np.sin(m * theta)`,
    `    return np.hstack([a * c - b * s, b * c + a * s])`,
    `rope(q, ${m})`,
  ].join('\n');
