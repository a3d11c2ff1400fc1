// Step 6 of the Bahdanau chapter: softmax turns the scores into weights.
import { el } from '../../../dom.js';
import { experiment, numberedLabels, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';
import { alpha, asRow, layout } from './shared.js';

export function softmaxStep({ state, edit, figures, story, questions }) {
  const map = new Heatmap({
    palette: 'orange',
    label: 'attention weights α',
    weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
    explain: story('weights'),
  });
  figures.weights = map;
  const out = outputBlock('softmax weights as NumPy prints them');
  const argmaxLine = el('p', { className: 'worked' });
  const element = step({
    title: '6. Softmax: scores become weights',
    intro: [
      'Softmax makes the scores positive and scales them to add up to one, so they can serve as proportions of a mix. Larger scores get exponentially more weight.',
    ],
    formula: `${alpha} = \\frac{\\exp(${symbol('scores', 'e_i')})}{\\sum_{j=1}^{n} \\exp(${symbol('scores', 'e_j')})}`,
    predict: questions.topShare,
    output: out,
    figures: [captioned(map, 'weights α')],
    after: [
      argmaxLine,
      experiment({
        label: 'one encoder step',
        explain: 'With a single score, softmax has nothing to compare: that step gets all the weight, α = 1.',
        apply: () => edit({ inputLength: 1 }, { program: true }),
      }),
    ],
  });
  return {
    element,
    show(r) {
      const n = state.inputLength;
      map.update(asRow(r.weights), { colLabels: numberedLabels('h', n), ...layout(1, n) });
      out.textContent = formatNumpy(r.weights, [n, 1]);
      const best = r.weights.indexOf(Math.max(...r.weights));
      argmaxLine.textContent = `The largest weight goes to h${best + 1}: ${(100 * r.weights[best]).toFixed(1)} % of the context vector comes from that encoder step.`;
      questions.topShare.update(r);
    },
  };
}
