// The pieces every step of the hands-on Transformer chapter builds from: its
// figures (captioned, lazy heatmaps), its controls and the formula symbols
// linked to figures.
import { el } from '../../../dom.js';
import { Heatmap } from '../../../figures/heatmap.js';
import { checkbox as labelledCheckbox, numberSelect } from '../../../lesson-kit/step-parts.js';
import { symbol } from '../../../math.js';
import { NumberInput } from '../../../number-input.js';
import { formatNumpy } from '../../../numpy-format.js';
import * as M from '../model.js';

const BIG = 24 * 24; // above this many cells, heatmaps switch to pixel mode
const SHOWN = 12 * 12; // largest matrix printed as NumPy

// Every figure shows its label as a visible caption (X, Q, K, V, raw and scaled scores, … told apart),
// and is lazy: an edit repaints the canvases near the viewport, the others when they scroll in.
export const figure = (options) => new Heatmap({ pixelAbove: BIG, caption: options.label, lazy: true, ...options });

export const tokenFigure = (options) => figure({ ...options, rotateColLabels: true, colLabelsOnTop: true });
export const numpyOrSize = (m, what) =>
  m.rows * m.cols <= SHOWN
    ? formatNumpy(m.data, [m.rows, m.cols])
    : `(${m.rows} × ${m.cols} ${what}; shown as NumPy up to 12 × 12)`;
export const numpyLinesBlock = (label) => el('pre', { className: 'numpy-lines', attrs: { 'aria-label': label } });

// ---- controls ---------------------------------------------------------------------

/** A labelled select of numbers (its label element). */
export const select = (label, values, current, format, onChange) =>
  numberSelect(label, values, current, format, onChange).element;

export const seedField = (label, value, onChange) =>
  new NumberInput({
    caption: label,
    label,
    value,
    integer: true,
    min: 0,
    max: 4294967295,
    width: '7.5em',
    onChange,
    scrub: { step: 1 },
  }).element;

export function textField(label, value, onChange) {
  let inForce = value; // the text the maps show; kept while the field holds no word
  // Said, not only coloured: why the field is refused and what is still drawn.
  const note = el('span', { className: 'num-note tokens-note', hidden: true, attrs: { 'aria-live': 'polite' } });
  const node = el('input', {
    type: 'text',
    value,
    spellcheck: false,
    className: 'tokens',
    size: 36,
    maxLength: 200,
    attrs: { 'aria-label': label },
    on: {
      input: () => {
        const ok = M.words(node.value).length > 0;
        node.setAttribute('aria-invalid', String(!ok));
        note.hidden = ok;
        note.textContent = ok ? '' : `no words (only spaces or nothing): still using “${M.words(inForce).join(' ')}”`;
        if (!ok) return;
        inForce = node.value;
        onChange(node.value);
      },
    },
  });
  return el('label', { className: 'control' }, `${label} `, el('span', { className: 'num-field' }, node, note));
}

/** A labelled checkbox (its label element). */
export const checkbox = (label, checked, onChange) => labelledCheckbox(label, checked, onChange).element;

/** Sets the control labelled `label` inside `scope` as a reader would, firing its change event. */
export function setControl(scope, label, value) {
  const node = scope.querySelector(`[aria-label="${label}"]`);
  if (!node) return;
  if (node.type === 'checkbox') node.checked = value;
  else node.value = String(value);
  // Text fields (tokens, sentences, numbers) recompute on 'input', selects and checkboxes on 'change'.
  node.dispatchEvent(new Event(node.type === 'text' ? 'input' : 'change', { bubbles: true }));
}

// Formula symbols linked to their figures (formula-links.js).
export const sym = { X: symbol('X', 'X'), Q: symbol('Q', 'Q'), K: symbol('K', 'K'), V: symbol('V', 'V') };
