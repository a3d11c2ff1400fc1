// Step 3: translate, and look at every head: the input, the model view (every
// layer × head of the chosen use), the chosen head large with the queries and
// keys its weights came from (and the rows, W and b those were projected from), and the head view. With no translation (an
// unreadable input, a Reset not yet translated) every figure is greyed and says why.
import { experiment, step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { captioned } from '../../../figures/heatmap.js';
import { HeadGrid } from '../../../figures/head-grid.js';
import { TokenLines } from '../../../figures/token-lines.js';
import { clearArgmax, prediction } from '../../../predict.js';
import { shown } from '../../../explain/format.js';
import { headName, headTensor, labelsFor, MAX_INPUT, projectionTensor, USES } from '../model.js';
import { projectionMap, projectionSources, weightsMap } from './maps.js';
import { staleNote } from './stale.js';

const useById = Object.fromEntries(USES.map((u) => [u.id, u]));
const SHARPNESS = ['under 0.5', '0.5 to 0.9', '0.9 or more'];
const firstRow = (m) => Array.from(m.data.slice(0, m.cols));

// How sharp the chosen head is where the decoder (or encoder) starts: its first row's largest weight.
const sharpness = () =>
  prediction({
    question: 'In the chosen head, how large will the largest weight of the first row be?',
    choices: SHARPNESS,
    answer: ({ map }) => {
      const top = Math.max(...firstRow(map));
      return Number.isFinite(top) ? (top < 0.5 ? 0 : top < 0.9 ? 1 : 2) : null;
    },
    explain: ({ map, colLabels, name }) => {
      const row = firstRow(map);
      const j = clearArgmax(row) ?? row.indexOf(Math.max(...row));
      return `in ${name}, the first row gives ${shown(row[j])} to key ${j + 1} “${colLabels[j]}”.`;
    },
  });

export function headsStep({ input, story, figures, onInput, onSelectHead, onTry }) {
  const inputBox = el('input', {
    type: 'text',
    value: input,
    className: 'nmt-input',
    attrs: { 'aria-label': 'input to translate', maxlength: MAX_INPUT, spellcheck: 'false' },
  });
  inputBox.addEventListener('input', () => onInput(inputBox.value));
  const outputText = el('output', { className: 'nmt-output', attrs: { 'aria-live': 'polite' } }, '…');
  const inputError = el('p', { className: 'error trained-input-error', attrs: { role: 'alert' }, hidden: true });
  const check = el('p', { className: 'nmt-confidence trained-check', hidden: true });
  let current = { use: 'cross', selected: { layer: 0, head: 0 } };
  const grid = new HeadGrid({
    label: 'model view: every layer and head of the chosen use',
    onSelect: (layer, head) => onSelectHead(current.use, { layer, head }),
  });
  const large = weightsMap({
    label: 'the chosen head’s attention weights',
    cellWidth: 26,
    cellHeight: 22,
    annotate: true,
    format: (w) => (w >= 0.1 ? w.toFixed(1).replace(/^0/, '') : ''),
    explain: (r, c) => story(headTensor(current.use, current.selected.layer, current.selected.head))(r, c),
  });
  const largeFigure = captioned(large, ' ');
  // The chosen use and layer's queries and keys: a weight's readout outlines the rows and the
  // head's columns its q·k came from; a q or k cell's, the row of x and the column of W it came from.
  const projection = (what, which) =>
    projectionMap(what, {
      cellWidth: 10,
      cellHeight: 16,
      explain: (r, c) => story(projectionTensor(current.use, current.selected.layer, which))(r, c),
    });
  const queriesMap = projection('queries Q = x W_q + b_q of the chosen use and layer', 'Q');
  const keysMap = projection('keys K = x W_k + b_k of the chosen use and layer', 'K');
  const sources = projectionSources('', { cellWidth: 10, cellHeight: 16, weightCell: 6 });
  const lines = new TokenLines({
    label: 'head view: lines from each query token to the key tokens, one colour per head',
    queryLabel: 'queries',
    keyLabel: 'keys',
  });
  const drawn = [grid.element, largeFigure, sources.group('Q', queriesMap), sources.group('K', keysMap), lines.element];
  const stale = staleNote(...drawn);
  const predict = sharpness();
  const element = step({
    title: '3. Translate, and look at every head',
    intro: [
      'Type a date. The model view shows every layer (rows) and head (columns) of the use chosen in the diagram above; pick one to open it large. The head view draws the chosen layer’s heads together as lines between tokens.',
    ],
    controls: [
      el('label', { className: 'control-label' }, 'Input ', inputBox),
      el('span', {}, ' → '),
      outputText,
      experiment({
        label: 'the month as a number, “21/11/2026”',
        explain: 'The same date: compare where the chosen head reads the month when it is two digits, not a word.',
        apply: () => onTry('21/11/2026'),
      }),
    ],
    output: el('div', {}, inputError, check, stale.element),
    figures: drawn,
    predict,
  });

  function showProjections(translation, use, layer, rowLabels, colLabels) {
    for (const key of Object.keys(figures)) if (/\.[QK](\.[xWb])?$/.test(key)) delete figures[key];
    figures[projectionTensor(use, layer, 'Q')] = queriesMap;
    figures[projectionTensor(use, layer, 'K')] = keysMap;
    sources.show(translation, use, layer, { Q: rowLabels, K: colLabels }, figures);
    const name = `${useById[use].name}, layer ${layer + 1}`;
    queriesMap.update(translation.queries[use][layer], { rowLabels, label: `queries Q of ${name}` });
    keysMap.update(translation.keys[use][layer], { rowLabels: colLabels, label: `keys K of ${name}` });
  }

  return {
    element,
    largeFigure,
    setInput(text) {
      inputBox.value = text;
    },
    /** The model cannot translate the input: say why, grey every map. */
    refuse(reason) {
      inputError.hidden = false;
      inputError.textContent = reason;
      outputText.textContent = '—';
      check.hidden = true;
      stale.set(
        `Nothing is drawn for this input: ${reason} The maps come back with the next input the model can read.`,
      );
    },
    /** Waiting for the first translation of a new model (after Reset). */
    wait(reason) {
      stale.set(reason);
    },
    /** @param {{translation: object, use: string, selected: {layer: number, head: number}, input: string, warning: string | null}} data */
    show({ translation, use, selected, input, warning }) {
      current = { use, selected };
      inputError.hidden = true;
      stale.set(null);
      outputText.textContent =
        translation.output === '' ? '(nothing yet: the model has not learned to write)' : translation.output;
      check.hidden = !warning;
      check.textContent = warning ?? '';
      const u = useById[use];
      const maps = translation[use];
      grid.update(maps, selected, u.name);
      const { rowLabels, colLabels } = labelsFor(use, input, translation.output);
      showProjections(translation, use, selected.layer, rowLabels, colLabels);
      const map = maps[selected.layer][selected.head];
      large.update(map, {
        rowLabels,
        colLabels,
        label: `${u.name}, ${headName(selected)}`,
        isMasked: use === 'decoderSelf' ? (r, c) => c > r : undefined,
      });
      large.caption.textContent = `${u.name}, ${headName(selected)}. Rows: ${u.rows}. Columns: ${u.cols}.${
        use === 'decoderSelf' ? ' Hatched cells are masked (the future): their weight is exactly 0.' : ''
      }`;
      lines.options.label = `head view of ${u.name}, layer ${selected.layer + 1}`;
      lines.update({
        queries: rowLabels,
        keys: colLabels,
        heads: maps[selected.layer].map((weights, h) => ({ name: `head ${h + 1}`, weights })),
      });
      lines.caption.textContent = `Head view of ${u.name}, layer ${selected.layer + 1}: every head at once, one colour each; a line is as opaque as its weight. Hover or focus a token to isolate its lines; the buttons show or hide heads.`;
      predict.update({ map, colLabels, name: `${u.name}, ${headName(selected)}` });
    },
  };
}
