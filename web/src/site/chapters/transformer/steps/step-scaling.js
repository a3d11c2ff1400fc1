// The hands-on Transformer chapter, step 3: why scores are divided by √d_k (random q, k of growing d_k).
import { el } from '../../../dom.js';
import { asInput, experiment, outputBlock, step } from '../../../chapter-kit.js';
import { Heatmap } from '../../../figures/heatmap.js';
import { tex } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';
import * as M from '../model.js';
import { numpyLinesBlock, seedField, select, setControl } from './parts.js';

// The first query and keys of the chosen d_k, drawn small (up to 8 × 512 numbers): the sources the weights outline.
const vectors = (label) =>
  asInput(new Heatmap({ palette: 'blue', label, caption: label, annotate: false, pixelAbove: 64, cellWidth: 28 }));

export function scalingStep({ state, edit, figures, explain, questions }) {
  const table = el('table', { className: 'dk-table' });
  const qFig = vectors('q1, the first random query (d_k numbers)');
  const kFig = vectors('k1 … k8, the first 8 random keys');
  Object.assign(figures, { 'demo.q': qFig, 'demo.k': kFig });
  const summary = el('p', { className: 'worked dk-summary', attrs: { 'aria-live': 'polite' } });
  const tryExtremes = [M.DK_DEMO[0], M.DK_DEMO[M.DK_DEMO.length - 1]].map((dk) =>
    experiment({
      label: `d_k = ${dk}`,
      explain: '',
      apply: () => setControl(table.closest('section'), 'd_k', dk),
    }),
  );
  const dkWeightsFig = new Heatmap({
    palette: 'orange',
    label: 'softmax over 8 keys, without and with scaling',
    weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
    rowLabels: ['Q Kᵀ', 'Q Kᵀ / √d_k'],
    explain: explain('demo.weights'),
  });
  figures['demo.weights'] = dkWeightsFig;
  const dkOut = outputBlock('softmax weights without and with scaling');
  const lines = numpyLinesBlock('the NumPy lines that draw the demo vectors');
  const headers = ['d_k', 'var(q · k)', 'var(q · k / √d_k)', 'largest softmax weight of 8, unscaled', '… scaled'];
  return {
    element: step({
      title: '3. Why divide by √d_k',
      intro: [
        el(
          'p',
          {},
          'If the entries of ',
          tex('q'),
          ' and ',
          tex('k'),
          ' are independent with mean 0 and variance 1, then ',
          tex('q \\cdot k = \\sum_{i=1}^{d_k} q_i k_i'),
          ' is a sum of ',
          tex('d_k'),
          ' terms of variance 1: its variance is ',
          tex('d_k'),
          '. Long vectors give huge scores, softmax of huge scores is almost one-hot, and a one-hot softmax has almost no gradient to learn from. ',
          'Dividing by ',
          tex('\\sqrt{d_k}'),
          ' brings the variance back to 1, whatever ',
          tex('d_k'),
          '.',
        ),
      ],
      formula:
        '\\operatorname{Var}(q \\cdot k) = d_k, \\qquad \\operatorname{Var}\\!\\Big(\\frac{q \\cdot k}{\\sqrt{d_k}}\\Big) = 1',
      controls: [
        select(
          'd_k',
          M.DK_DEMO,
          state.dk,
          String,
          edit((v) => (state.dk = v)),
        ),
        seedField(
          'demo seed',
          state.demoSeed,
          edit((v) => (state.demoSeed = v)),
        ),
      ],
      output: dkOut,
      figures: [table, qFig.element, kFig.element, dkWeightsFig.element],
      after: [summary, 'Change the demo seed to draw new vectors.', ...tryExtremes, lines],
      predict: questions.scaling,
    }),
    show(rows) {
      table.replaceChildren(
        el(
          'caption',
          {},
          `Variance of q · k over ${M.SAMPLES} × ${M.SAMPLES} random pairs (entries of q, k drawn from N(0, 1))`,
        ),
        el('tr', {}, ...headers.map((h) => el('th', { scope: 'col' }, h))),
        ...rows.map((r) =>
          el(
            'tr',
            { className: r.dk === state.dk ? 'current' : '' },
            el('th', { scope: 'row' }, String(r.dk)),
            el('td', {}, r.varRaw.toFixed(2)),
            el('td', {}, r.varScaled.toFixed(3)),
            el('td', {}, r.maxRaw.toFixed(4)),
            el('td', {}, r.maxScaled.toFixed(4)),
          ),
        ),
      );
      const current = rows.find((r) => r.dk === state.dk);
      const both = new Float64Array(16);
      both.set(current.wRaw, 0);
      both.set(current.wScaled, 8);
      const weights = { rows: 2, cols: 8, data: both };
      dkWeightsFig.update(weights, { colLabels: Array.from({ length: 8 }, (_, j) => `k${j + 1}`) });
      dkOut.textContent = `d_k = ${current.dk}\nunscaled: ${formatNumpy(current.wRaw, [8])}\nscaled:   ${formatNumpy(current.wScaled, [8])}`;
      const keys = { colLabels: Array.from({ length: current.dk }, (_, j) => (j % 8 === 0 ? `${j + 1}` : '')) };
      qFig.update(current.q1, { ...keys, rowLabels: ['q1'] });
      kFig.update(current.k8, { ...keys, rowLabels: Array.from({ length: 8 }, (_, j) => `k${j + 1}`) });
      summary.textContent = M.scalingSummary(rows, state.dk);
      // What each "Try" shows, from that row's numbers.
      [rows[0], rows[rows.length - 1]].forEach((r, i) => {
        tryExtremes[i].querySelector('span').textContent =
          `The largest unscaled weight there is ${r.maxRaw.toFixed(4)}, scaled ${r.maxScaled.toFixed(4)}; the unscaled variance ${r.varRaw.toFixed(2)}.`;
      });
      lines.textContent = M.demoNumpyLines(state.demoSeed);
      questions.scaling.update(current);
      return [current, weights]; // what the trace records
    },
  };
}
