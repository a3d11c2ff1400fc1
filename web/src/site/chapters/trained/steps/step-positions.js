// Step 2: the positional encoding the model adds, with a question on which
// column turns fastest (answered from the encoding the engine sent).
import { experiment, step } from '../../../chapter-kit.js';
import { Heatmap, captioned } from '../../../figures/heatmap.js';
import { clearArgmax, prediction } from '../../../predict.js';
import { shown } from '../../../explain/format.js';

/** Mean |PE[t+1, c] − PE[t, c]| over positions: how fast column c changes from one position to the next. */
export function columnChange(pe, c) {
  let sum = 0;
  for (let t = 0; t + 1 < pe.rows; t++) sum += Math.abs(pe.data[(t + 1) * pe.cols + c] - pe.data[t * pe.cols + c]);
  return sum / Math.max(1, pe.rows - 1);
}

const COLUMNS = (pe) => [0, Math.floor(pe.cols / 2), pe.cols - 1];

const fastestColumn = () =>
  prediction({
    question: 'Going down one position, which column of the encoding changes most?',
    choices: (pe) => COLUMNS(pe).map((c) => `column ${c}`),
    answer: (pe) => clearArgmax(COLUMNS(pe).map((c) => columnChange(pe, c))),
    explain: (pe) =>
      `the mean change per position is ${COLUMNS(pe)
        .map((c) => `${shown(columnChange(pe, c))} in column ${c}`)
        .join(', ')}: the angle t / 10000^(2i/d_model) turns fastest for i = 0.`,
  });

export function positionsStep({ story }) {
  const pick = (cell) => {
    positions.element.scrollIntoView({ block: 'nearest' });
    positions.showCell(cell);
  };
  const positions = new Heatmap({
    palette: 'purple',
    label: 'positional encoding: one row per position, one column per dimension',
    annotate: false,
    cellWidth: 12,
    cellHeight: 10,
    explain: story('pe'),
  });
  positions.element.dataset.sources = 'none'; // computed from the position alone: nothing to outline
  const figure = captioned(positions, ' ');
  const predict = fastestColumn();
  const element = step({
    title: '2. Positions',
    intro: [
      'Attention itself ignores order: permute the keys and the weights permute with them. So each position gets its own pattern of sines and cosines, added to the character’s vector; a fixed offset between two positions is a fixed rotation of these pairs, which attention can learn to look for.',
    ],
    formula: [
      'PE_{(t,\\,2i)} = \\sin\\!\\left(t / 10000^{2i/d_{model}}\\right)',
      'PE_{(t,\\,2i+1)} = \\cos\\!\\left(t / 10000^{2i/d_{model}}\\right)',
    ],
    figures: [figure],
    after: [
      experiment({
        label: 'the cell t = 1, column 2',
        explain: 'Counted from 0, as the formula counts: its readout under the map works out the angle and its sine.',
        apply: () => pick([1, 2]),
      }),
    ],
    predict,
  });
  return {
    element,
    show(pe) {
      positions.update(pe, {
        rowLabels: Array.from({ length: pe.rows }, (_, i) => (i % 5 === 0 ? String(i) : '')),
        colLabels: Array.from({ length: pe.cols }, (_, i) => (i % 4 === 0 ? String(i) : '')),
      });
      positions.caption.textContent = `The positional encoding this model adds: ${pe.rows} positions (rows) × d_model = ${pe.cols} dimensions (columns), each between −1 and 1 (diverging colours: white is 0). Left columns turn fast, right ones slowly; every row is different.`;
      predict.update(pe);
    },
  };
}
