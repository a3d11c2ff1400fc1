// Step 7 of the Bahdanau chapter: each encoder state scaled by its weight.
import { experiment, folded, indexLabels, numberedLabels, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';
import { layout } from './shared.js';

export function weightedStep({ state, edit, figures, story, questions }) {
  const map = new Heatmap({ palette: 'orange', label: 'weighted encoder states α_i h_i', explain: story('weighted') });
  figures.weighted = map;
  const out = outputBlock('weighted encoder states as NumPy prints them');
  const element = step({
    title: '7. Weighting the encoder states',
    intro: [
      'Each encoder state is multiplied by its weight. Rows with small weights fade; the rows the decoder cares about keep most of their size.',
    ],
    formula: `${symbol('weighted', '\\alpha_i\\, h_i')} \\quad \\text{for } i = 1, \\dots, n`,
    predict: questions.largestRow,
    after: [
      experiment({
        label: 'hidden size 2',
        explain: 'Each encoder state has 2 numbers: the weighted states keep their rows but shrink to 2 columns.',
        apply: () => edit({ hiddenSize: 2 }, { program: true }),
      }),
    ],
    output: folded(out),
    figures: [captioned(map, 'α_i · h_i on row i')],
  });
  return {
    element,
    show(r) {
      const { inputLength: n, hiddenSize: h } = state;
      map.update(r.weighted, {
        rowLabels: numberedLabels('h', n),
        colLabels: h <= 16 ? indexLabels(h) : undefined,
        ...layout(n, h),
      });
      out.textContent = formatNumpy(r.weighted.data, [n, h]);
      questions.largestRow.update(r);
    },
  };
}
