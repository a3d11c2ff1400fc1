// What the QK-norm chapter's steps share: its controls, its formula symbols
// (linked to the figures by name) and the labels of its axes.
import { el } from '../../../dom.js';
import { numberedLabels } from '../../../chapter-kit.js';
import { symbol } from '../../../math.js';
import { NumberInput } from '../../../number-input.js';
import { formatNumpy } from '../../../numpy-format.js';

export const Q = symbol('Q', 'Q');
export const K = symbol('K', 'K');
export const S = symbol('logits', 'S');
export const Qn = symbol('Qn', '\\hat Q');
export const Kn = symbol('Kn', '\\hat K');
export const Sn = symbol('normLogits', '\\hat S');

export const tokens = (n) => numberedLabels('t', n);

/** A number field whose value the page may set later (`field.set(x)`). */
export const numberField = (caption, value, { min, max, step = 1, integer = false }, onChange) =>
  new NumberInput({ caption, label: caption, value, min, max, integer, onChange, width: '5.5em', scrub: { step } });

/** A labelled <select> of numbers; `node.value = String(v)` sets it. */
export function numberSelect(label, values, current, onChange) {
  const node = el(
    'select',
    { attrs: { 'aria-label': label }, on: { change: () => onChange(Number(node.value)) } },
    ...values.map((v) => el('option', { value: String(v), selected: v === current }, String(v))),
  );
  return { node, element: el('label', { className: 'control' }, `${label} `, node) };
}

/** The largest |x| of a matrix. */
export const largestMagnitude = (m) => Math.max(...Array.from(m.data, Math.abs));

/** `name = array(...)` as NumPy prints a matrix. */
export const numpyRepr = (name, m) =>
  `${name} = ${formatNumpy(m.data, [m.rows, m.cols], { prefix: `${' '.repeat(name.length + 3)}array(` }).trimStart()}`;

/** The NumPy lines that reproduce the chapter's inputs and logits. */
export const numpyLines = ({ seed, headDim: d, tokens: n, size: s, gain: g }) =>
  [
    'import numpy as np',
    `rs = np.random.RandomState(${seed})`,
    `Q0, K0, V = rs.randn(${n}, ${d}), rs.randn(${n}, ${d}), rs.randn(${n}, ${d})`,
    `Q, K = ${s} * Q0, ${s} * K0`,
    `logits = Q @ K.T / np.sqrt(${d})`,
    `rms_norm = lambda x: x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6) * ${g}`,
    `norm_logits = rms_norm(Q) @ rms_norm(K).T / np.sqrt(${d})`,
  ].join('\n');
