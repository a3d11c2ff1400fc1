// The one number input of the site. One parsing rule everywhere: the trimmed
// text must be a plain decimal number (optionally an integer, optionally within
// [min, max]); anything else is marked aria-invalid and ignored, so the last
// good value stays in force, and a note under the field says so ("not a number:
// still using 5"). Typed text only ever reaches `.value`, never innerHTML.
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
  constructor({ value, label, caption, integer = false, min, max, onChange, width, scrub }) {
    this.rules = { integer, min, max };
    this.onChange = onChange;
    this.good = value; // the value in force: the last valid one
    this.step = scrub?.step ?? 1;
    this.input = el('input', {
      type: 'text',
      inputMode: integer && !(min < 0) ? 'numeric' : 'decimal',
      value: String(value),
      className: 'num',
      spellcheck: false,
      attrs: { 'aria-label': label, autocomplete: 'off' },
      on: { input: () => this.edited(), keydown: (e) => this.stepKey(e) },
    });
    if (width) this.input.style.width = width;
    // Direct manipulation: drag the handle up or down (or use the arrow keys in the input).
    const handle = scrub
      ? el('span', {
          className: 'scrub',
          title: 'drag up or down',
          attrs: { 'aria-hidden': 'true' },
          on: { pointerdown: (e) => this.startScrub(e) },
        })
      : null;
    const scrubbable = handle ? el('span', { className: 'scrubbable' }, this.input, handle) : this.input;
    // Said, not only coloured: invalid text leaves the last good value in force, and the note says which.
    this.note = el('span', { className: 'num-note', hidden: true, attrs: { 'aria-live': 'polite' } });
    const field = el('span', { className: 'num-field' }, scrubbable, this.note);
    this.element = caption
      ? el(
          'label',
          { className: 'control number-control' },
          el('span', { className: 'control-label' }, caption),
          ' ',
          field,
        )
      : field;
  }

  /** The value now, or null when the text is not a valid number. */
  current() {
    return parseNumber(this.input.value, this.rules);
  }

  /** Sets a value as if typed (clamped to the rules), and reports it. */
  nudge(x) {
    const { min = -Infinity, max = Infinity, integer } = this.rules;
    let next = Math.min(max, Math.max(min, x));
    next = integer ? Math.round(next) : Number(next.toPrecision(12)); // 0.1 + 0.2 shows as 0.3
    this.set(next);
    this.onChange(next);
  }

  /** ArrowUp / ArrowDown change the number by its step (Shift: ten steps, Alt: a tenth). */
  stepKey(event) {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    const x = this.current();
    if (x === null) return;
    event.preventDefault();
    const size = this.step * (event.shiftKey ? 10 : event.altKey ? 0.1 : 1);
    this.nudge(x + (event.key === 'ArrowUp' ? size : -size));
  }

  startScrub(event) {
    const start = this.current();
    if (start === null) return;
    event.preventDefault();
    const handle = /** @type {HTMLElement} */ (event.currentTarget);
    handle.setPointerCapture(event.pointerId);
    const y0 = event.clientY;
    const move = (e) => this.nudge(start + Math.round((y0 - e.clientY) / 4) * this.step); // 4 px per step
    const end = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', end);
      handle.removeEventListener('pointercancel', end);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', end);
    handle.addEventListener('pointercancel', end);
  }

  edited() {
    const x = parseNumber(this.input.value, this.rules);
    this.input.setAttribute('aria-invalid', String(x === null));
    this.input.title = x === null ? describe(this.rules) : '';
    this.showNote(x === null ? this.input.value : null);
    if (x !== null) {
      this.good = x;
      this.onChange(x);
    }
  }

  /** Under an invalid field, why it is ignored and the value still in force; hidden otherwise. */
  showNote(text) {
    this.note.hidden = text === null;
    if (text === null) return;
    const number = DECIMAL.test(String(text).trim()) && Number.isFinite(Number(text));
    const why = String(text).trim() === '' ? 'empty' : number ? `not ${describe(this.rules)}` : 'not a number';
    this.note.textContent = `${why}: still using ${this.good}`;
  }

  /** Shows a value set by the program (no onChange). */
  set(value) {
    this.good = value;
    this.input.value = String(value);
    this.input.setAttribute('aria-invalid', 'false');
    this.input.title = '';
    this.showNote(null);
  }
}
