// Step parts several chapters share: an integer field, a checkbox, a select of
// numbers, a heatmap registered under its trace name, a matrix as NumPy prints
// it, grouped digits.
import { el } from '../dom.js';
import { captioned, Heatmap } from '../figures/heatmap.js';
import { NumberInput } from '../number-input.js';
import { formatNumpy } from '../numpy-format.js';

/** An integer field whose value the chapter can set back (sync). */
export function intField(label, value, min, max, onChange) {
  return new NumberInput({
    caption: label,
    label,
    value,
    integer: true,
    min,
    max,
    width: '6em',
    onChange,
    scrub: { step: 1 },
  });
}

/** A labelled checkbox: { element, set(checked) }. */
export function checkbox(label, checked, onChange) {
  const node = el('input', {
    type: 'checkbox',
    checked,
    attrs: { 'aria-label': label },
    on: { change: () => onChange(node.checked) },
  });
  return { element: el('label', { className: 'control' }, node, ` ${label}`), set: (v) => (node.checked = v) };
}

/** A <select> of numbers, labelled: { element, set(value) }. */
export function numberSelect(label, values, current, format, onChange) {
  const node = el(
    'select',
    { attrs: { 'aria-label': label }, on: { change: () => onChange(Number(node.value)) } },
    ...values.map((v) => el('option', { value: String(v), selected: v === current }, format(v))),
  );
  return { element: el('label', { className: 'control' }, `${label} `, node), set: (v) => (node.value = String(v)) };
}

/** A computed heatmap drawing trace tensor `name`, explained from the trace. */
export function tracedMap({ figures, story }, name, options, caption) {
  const map = new Heatmap({ explain: story(name), ...options });
  figures[name] = map;
  return { map, element: captioned(map, caption) };
}

/** `prefix array([...])` as NumPy prints a matrix. */
export const numpyRepr = (m, prefix) =>
  `${prefix}${formatNumpy(m.data, [m.rows, m.cols], { prefix: `${' '.repeat(prefix.length)}array(` }).trimStart()}`;

export const thousands = (x) => x.toLocaleString('en-US');
