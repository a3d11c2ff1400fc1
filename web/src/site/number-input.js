// The one number input of the site. One parsing rule everywhere: the trimmed
// text must be a plain decimal number (optionally an integer, optionally within
// [min, max]); anything else is marked aria-invalid and ignored, so the last
// good value stays in force. Typed text only ever reaches `.value`, never innerHTML.
import { el } from './dom.js';

const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/**
 * Parses what a reader typed: a finite number satisfying the options, or null.
 * @param {string} text
 * @param {{integer?: boolean, min?: number, max?: number}} [rules]
 */
export function parseNumber(text, { integer = false, min = -Infinity, max = Infinity } = {}) {
  const trimmed = String(text).trim();
  if (!DECIMAL.test(trimmed)) return null;
  const x = Number(trimmed);
  if (!Number.isFinite(x) || (integer && !Number.isSafeInteger(x))) return null;
  return x >= min && x <= max ? x : null;
}

/** What a rule set accepts, for the input's tooltip. */
function describe({ integer, min, max }) {
  const kind = integer ? 'an integer' : 'a number';
  if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
  if (min !== undefined) return `${kind} ≥ ${min}`;
  if (max !== undefined) return `${kind} ≤ ${max}`;
  return kind;
}

/**
 * A text input for one number. `onChange(x)` fires with every valid edit.
 * `.element` is the <input>, or a <label> around it when `caption` is given.
 */
export class NumberInput {
  /**
   * @param {{value: number, label: string, caption?: string, integer?: boolean, min?: number, max?: number,
   *          onChange: (x: number) => void, width?: string}} options
   */
  constructor({ value, label, caption, integer = false, min, max, onChange, width }) {
    this.rules = { integer, min, max };
    this.onChange = onChange;
    this.input = el('input', {
      type: 'text',
      inputMode: integer && !(min < 0) ? 'numeric' : 'decimal',
      value: String(value),
      className: 'num',
      spellcheck: false,
      attrs: { 'aria-label': label, autocomplete: 'off' },
      on: { input: () => this.edited() },
    });
    if (width) this.input.style.width = width;
    this.element = caption
      ? el(
          'label',
          { className: 'control number-control' },
          el('span', { className: 'control-label' }, caption),
          ' ',
          this.input,
        )
      : this.input;
  }

  edited() {
    const x = parseNumber(this.input.value, this.rules);
    this.input.setAttribute('aria-invalid', String(x === null));
    this.input.title = x === null ? describe(this.rules) : '';
    if (x !== null) this.onChange(x);
  }

  /** Shows a value set by the program (no onChange). */
  set(value) {
    this.input.value = String(value);
    this.input.setAttribute('aria-invalid', 'false');
    this.input.title = '';
  }
}
