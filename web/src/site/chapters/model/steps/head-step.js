// The model chapter's head steps: the model view (every layer × head, small
// maps to click), the chosen head large with its queries, keys and values and
// the value mix (every computed cell explains itself through the trace), and
// the sentences about what heads do, each with its measure and baseline.
import { asInput, step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { Heatmap, captioned } from '../../../figures/heatmap.js';
import { HeadGrid } from '../../../figures/head-grid.js';
import { FACTOR, HOLDS_AT } from '../model.js';
import { TENSORS } from '../model.js';

// A real model reads up to 1,024 tokens: past these many cells a map draws one pixel per cell.
const BIG_MAP = 48 * 48;
const BIG_VECTORS = 48 * 64;
const percent = (x) => `${(100 * x).toFixed(0)}%`;
export const headName = ({ layer, head }) => `layer ${layer + 1}, head ${head + 1}`;

/** The model view: one small map per layer and head; a click (or Enter) opens that head large. */
export function modelViewStep({ onSelect, predict }) {
  const grid = new HeadGrid({ label: 'model view: every layer and head of the open model', onSelect });
  const findings = el('ul', { className: 'model-findings', attrs: { 'aria-live': 'polite' } });
  const element = step({
    title: '3. Every head at once',
    intro: [
      'The model view: one small map per layer (rows) and head (columns), rows are the tokens that ask (queries), columns the tokens they read (keys), and only earlier tokens can be read (GPT-2 is causal). Choose a map to open it large below.',
    ],
    predict,
    figures: [grid.element],
    after: [findings],
  });
  let drawn = null; // the maps drawn last: a run's maps never change after it
  return {
    element,
    show(result, selected) {
      grid.update(result.attentions, selected, 'attention', { redraw: result.attentions !== drawn });
      drawn = result.attentions;
    },
    /** The measured sentences ([] when none holds: nothing is claimed). */
    showFindings(list, onShow) {
      findings.replaceChildren(
        ...list.map((f) =>
          el(
            'li',
            {},
            `${headName(f)} favours ${f.pattern.text}: it puts ${percent(f.value)} of each token’s weight there on average (over the ${f.queries} tokens after the first), against ${percent(f.baseline)} for a head that spreads its weight evenly over the tokens it may read. `,
            el('button', { type: 'button', className: 'small', on: { click: () => onShow(f) } }, `show ${headName(f)}`),
          ),
        ),
      );
      if (list.length === 0)
        findings.append(
          el(
            'li',
            {},
            `On this sentence no head puts at least ${percent(HOLDS_AT)} of its weight, and ${FACTOR}× an even spread, on the previous token, the first token or its own token.`,
          ),
        );
    },
  };
}

/** The chosen head large, with what it is computed from: q, k, v, and what it makes: the value mix. */
export function headStep({ story, figures, predict }) {
  const large = new Heatmap({
    palette: 'purple',
    label: 'the chosen head’s attention weights',
    weights: true,
    pixelAbove: BIG_MAP,
    cellWidth: 26,
    cellHeight: 22,
    colLabelsOnTop: true,
    rotateColLabels: true,
    format: (w) => (w >= 0.1 ? w.toFixed(1).replace(/^0/, '') : ''),
    explain: story(TENSORS.weights),
  });
  const largeFigure = captioned(large, ' ');
  // Drawn, not computed here (the model computed them): the readouts outline their rows.
  const vectors = (what) =>
    asInput(
      new Heatmap({
        palette: 'blue',
        label: what,
        annotate: false,
        cellWidth: 14,
        cellHeight: 22,
        pixelAbove: BIG_VECTORS,
      }),
    );
  const q = vectors('queries q of the chosen head');
  const k = vectors('keys k of the chosen head');
  const v = vectors('values v of the chosen head');
  const mix = new Heatmap({
    palette: 'orange',
    label: 'the chosen head’s output: its value mix',
    annotate: false,
    pixelAbove: BIG_VECTORS,
    cellWidth: 14,
    cellHeight: 22,
    explain: story(TENSORS.mix),
  });
  Object.assign(figures, {
    [TENSORS.weights]: large,
    [TENSORS.q]: q,
    [TENSORS.k]: k,
    [TENSORS.v]: v,
    [TENSORS.mix]: mix,
  });
  const note = el('p', { className: 'model-head-note', attrs: { 'aria-live': 'polite' } });
  const inputsBox = el(
    'div',
    { className: 'figures model-vectors' },
    captioned(q, 'Queries q (one row per token)'),
    captioned(k, 'Keys k'),
    captioned(v, 'Values v'),
    captioned(mix, 'The value mix: each row is its token’s weights times the values'),
  );
  const element = step({
    title: '4. One head, down to its numbers',
    intro: [
      'Each weight is a softmax over the row of scores q·k/√d_k: the query of the row’s token against the key of every token it may read. Hover, focus or tap a weight to see that arithmetic with this model’s numbers; the queries, keys and values below are read from the model file when you choose a head (ln_1 of the layer’s input times the head’s columns of c_attn).',
    ],
    formula: [
      '\\alpha_{ij} = \\operatorname{softmax}_{j \\le i}\\!\\left(\\frac{q_i \\cdot k_j}{\\sqrt{d_k}}\\right)',
      '\\text{mix}_i = \\sum_{j \\le i} \\alpha_{ij}\\, v_j',
    ],
    predict,
    figures: [largeFigure],
    after: [note, inputsBox],
  });
  return {
    element,
    /** The weights (always); q, k, v and the mix once explainHead answered (null: still reading). */
    show(weights, tokens, selected, inputs, mixed) {
      large.update(weights, {
        rowLabels: tokens,
        colLabels: tokens,
        label: `attention weights, ${headName(selected)}`,
        isMasked: (r, c) => c > r,
      });
      large.caption.textContent = `${headName(selected)}. Rows: the tokens that ask (queries). Columns: the tokens they read (keys). Hatched cells are the future, masked: exactly 0.`;
      note.textContent = inputs ? '' : 'reading this head’s weights from the model file…';
      inputsBox.hidden = !inputs; // never another head's numbers
      if (!inputs) return;
      q.update(inputs.q, { rowLabels: tokens });
      k.update(inputs.k, { rowLabels: tokens });
      v.update(inputs.v, { rowLabels: tokens });
      mix.update(mixed, { rowLabels: tokens });
    },
  };
}
