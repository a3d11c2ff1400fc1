// A small grid of number inputs for a whole matrix (one line of inputs per
// row, each row labelled), plus a labelled integer field. Invalid text is
// marked and ignored, like the editors in editors.js; the last good values
// stay in force.
import { el } from './dom.js';
import { NumberInput } from './number-input.js';

// Styles are set through the CSSOM (never style attributes), which a strict
// Content-Security-Policy allows; in px, which a host page's root font size
// (rem) does not change inside a lesson.
const css = (node, text) => {
  node.style.cssText = text;
  return node;
};

const GRID_STYLE = 'display:inline-grid;gap:4px 5.6px;align-items:center;';
const ROW_LABEL_STYLE = 'font:13.6px ui-monospace,monospace;color:var(--al-muted);text-align:right;padding-right:4px;';

/** A labelled matrix of inputs; `onChange(rows)` fires with every valid edit. */
export class MatrixEditor {
  /**
   * @param {{rows: number[][], label: string, rowLabel: (i: number) => string,
   *          onChange: (rows: number[][]) => void, minRows?: number, maxRows?: number,
   *          newRow?: (rows: number[][]) => number[], rowNoun?: string, scrub?: {step: number}}} options
   *   `scrub`: a drag handle beside every entry (number-input.js).
   */
  constructor({ rows, label, rowLabel, onChange, minRows, maxRows, newRow, rowNoun = 'row', scrub }) {
    this.scrub = scrub;
    this.rows = rows.map((r) => [...r]);
    this.label = label;
    this.rowLabel = rowLabel;
    this.onChange = onChange;
    this.resizable = minRows !== undefined && maxRows !== undefined;
    this.minRows = minRows ?? rows.length;
    this.maxRows = maxRows ?? rows.length;
    this.newRow = newRow ?? ((rs) => rs[rs.length - 1].map(() => 0));
    this.grid = el('div', { className: 'matrix-editor-grid', attrs: { role: 'group', 'aria-label': label } });
    this.addButton = el(
      'button',
      { type: 'button', className: 'small', on: { click: () => this.add() } },
      `+ add a ${rowNoun}`,
    );
    this.removeButton = el(
      'button',
      { type: 'button', className: 'small', on: { click: () => this.removeLast() } },
      `− remove the last ${rowNoun}`,
    );
    this.element = el(
      'div',
      { className: 'matrix-editor' },
      this.grid,
      this.resizable
        ? css(el('div', {}, this.addButton, this.removeButton), 'display:flex;gap:8px;margin-top:6.4px;')
        : null,
    );
    this.render();
  }

  render() {
    const cols = this.rows[0]?.length ?? 0;
    css(this.grid, `${GRID_STYLE}grid-template-columns:auto repeat(${cols}, auto);`);
    this.inputs = [];
    const cells = [];
    this.rows.forEach((row, i) => {
      const name = this.rowLabel(i);
      cells.push(css(el('span', {}, name), ROW_LABEL_STYLE));
      this.inputs.push(
        row.map((value, j) => {
          const input = new NumberInput({
            value,
            label: `${this.label}, ${name}, column ${j + 1}`,
            width: '4.5em',
            scrub: this.scrub,
            onChange: (x) => this.edited(i, j, x),
          }).element;
          cells.push(input);
          return input;
        }),
      );
    });
    this.grid.replaceChildren(...cells);
    this.addButton.disabled = this.rows.length >= this.maxRows;
    this.removeButton.disabled = this.rows.length <= this.minRows;
  }

  edited(i, j, x) {
    this.rows[i][j] = x;
    this.emit();
  }

  /** Shows new values (e.g. a fresh random draw) without firing onChange. */
  setRows(rows) {
    this.rows = rows.map((r) => [...r]);
    this.render();
  }

  add() {
    if (this.rows.length >= this.maxRows) return;
    this.rows.push(this.newRow(this.rows));
    this.render();
    this.emit();
  }

  removeLast() {
    if (this.rows.length <= this.minRows) return;
    this.rows.pop();
    this.render();
    this.emit();
  }

  emit() {
    this.onChange(this.rows.map((r) => [...r]));
  }
}
