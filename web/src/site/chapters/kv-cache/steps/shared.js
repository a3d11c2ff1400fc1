// What the KV-cache chapter's steps share: a select of numbers, and (from the
// lesson kit) number fields, traced heatmaps and `name = array(...)` as NumPy prints it.
import { el } from '../../../dom.js';

export { intField, numpyRepr, thousands, tracedMap } from '../../../lesson-kit/step-parts.js';

/** A <select> of numbers, labelled. */
export function numberSelect(label, values, current, format, onChange) {
  const node = el(
    'select',
    { attrs: { 'aria-label': label }, on: { change: () => onChange(Number(node.value)) } },
    ...values.map((v) => el('option', { value: String(v), selected: v === current }, format(v))),
  );
  return { element: el('label', { className: 'control' }, `${label} `, node), set: (v) => (node.value = String(v)) };
}
