// What the flash chapter's steps share: a checkbox, and (from the lesson kit)
// number fields, traced heatmaps and grouped digits.
import { el } from '../../../dom.js';

export { intField, thousands, tracedMap } from '../../../lesson-kit/step-parts.js';

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
