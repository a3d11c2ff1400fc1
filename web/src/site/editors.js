// Editable number inputs for vectors and matrices. An entry that is not a
// number is marked invalid and the last good values stay in force, so a typo
// never loses the reader's work.
import { el } from './dom.js';
import { NumberInput } from './number-input.js';

/**
 * A column of inputs (one vector). `onChange(values)` fires with every valid edit.
 */
export class VectorEditor {
  constructor({ values, label, entryLabel = (i) => `${label}, entry ${i + 1}`, onChange, scrub }) {
    this.values = [...values];
    this.onChange = onChange;
    this.fields = this.values.map(
      (v, i) => new NumberInput({ value: v, label: entryLabel(i), onChange: (x) => this.edited(i, x), scrub }),
    );
    this.element = el(
      'div',
      { className: 'vector-editor', attrs: { role: 'group', 'aria-label': label } },
      ...this.fields.map((f) => f.element),
    );
  }

  /** Shows values set by the program (an experiment), without reporting them. */
  setValues(values) {
    this.values = [...values];
    this.fields.forEach((f, i) => f.set(values[i]));
  }

  edited(i, x) {
    this.values[i] = x;
    this.onChange([...this.values]);
  }
}

/**
 * A matrix edited as columns, one per encoder step (as the notebook draws
 * annotations), with buttons to add and remove steps.
 */
export class ColumnsEditor {
  /**
   * @param {{columns: number[][], name: (j: number) => string, onChange: (columns: number[][]) => void,
   *          minColumns?: number, maxColumns?: number, newColumn?: (columns: number[][]) => number[]}} options
   */
  constructor({ columns, name, onChange, minColumns = 1, maxColumns = 12, newColumn, scrub }) {
    this.columns = columns.map((c) => [...c]);
    this.scrub = scrub;
    this.name = name;
    this.onChange = onChange;
    this.minColumns = minColumns;
    this.maxColumns = maxColumns;
    this.newColumn = newColumn ?? ((cols) => cols[cols.length - 1].map(() => 1));
    this.grid = el('div', { className: 'columns-editor-grid' });
    this.addButton = el(
      'button',
      { type: 'button', className: 'small', on: { click: () => this.add() } },
      '+ add a step',
    );
    this.element = el('div', { className: 'columns-editor' }, this.grid, this.addButton);
    this.render();
  }

  render() {
    this.grid.replaceChildren(
      ...this.columns.map((column, j) => {
        const label = this.name(j);
        const inputs = column.map(
          (v, i) =>
            new NumberInput({
              value: v,
              label: `${label}, entry ${i + 1}`,
              scrub: this.scrub,
              onChange: (x) => {
                this.columns[j][i] = x;
                this.emit();
              },
            }).element,
        );
        const remove = el(
          'button',
          {
            type: 'button',
            className: 'small remove',
            disabled: this.columns.length <= this.minColumns,
            attrs: { 'aria-label': `remove ${label}` },
            on: { click: () => this.remove(j) },
          },
          '−',
        );
        return el(
          'div',
          { className: 'editor-column', attrs: { role: 'group', 'aria-label': label } },
          el('div', { className: 'editor-column-name' }, label),
          ...inputs,
          remove,
        );
      }),
    );
    this.addButton.disabled = this.columns.length >= this.maxColumns;
  }

  /** Shows columns set by the program (an experiment), without reporting them. */
  setColumns(columns) {
    this.columns = columns.map((c) => [...c]);
    this.render();
  }

  add() {
    this.columns.push(this.newColumn(this.columns));
    this.render();
    this.emit();
  }

  remove(j) {
    if (this.columns.length <= this.minColumns) return;
    this.columns.splice(j, 1);
    this.render();
    this.emit();
  }

  emit() {
    this.onChange(this.columns.map((c) => [...c]));
  }
}
