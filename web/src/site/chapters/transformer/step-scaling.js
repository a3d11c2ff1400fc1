// The hands-on Transformer chapter, step 3: why scores are divided by √d_k (random q, k of growing d_k).
import { el } from '../../dom.js';
import { outputBlock, step } from '../../chapter-kit.js';
import { Heatmap } from '../../figures/heatmap.js';
import { tex } from '../../math.js';
import { formatNumpy } from '../../numpy-format.js';
import * as M from '../transformer-model.js';
import { numpyLinesBlock, seedField, select } from './parts.js';

export function scalingStep({ state, edit, figures, explain }) {
  const table = el('table', { className: 'dk-table' });
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
      figures: [table, dkWeightsFig.element],
      after: [
        'The table measures it: the unscaled variance grows like d_k and the largest of 8 softmax weights heads for 1; scaled, both stay put. Change the demo seed to draw new vectors.',
        lines,
      ],
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
      lines.textContent = M.demoNumpyLines(state.demoSeed);
      return [current, weights]; // what the trace records
    },
  };
}
