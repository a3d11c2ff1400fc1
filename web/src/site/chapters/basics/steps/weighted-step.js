// Step 7 of the Basics chapter: each annotation scaled by its weight.
import { indexLabels, numberedLabels, outputBlock, step } from '../../../chapter-kit.js';
import { Heatmap } from '../../../figures/heatmap.js';
import { symbol } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';
import { alpha } from './shared.js';

export function weightedStep({ figures, story, questions }) {
  const map = new Heatmap({
    palette: 'orange',
    label: 'weighted annotations, one column per encoder step',
    explain: story('applied'),
  });
  figures.applied = map;
  const out = outputBlock('weighted annotations as NumPy prints them');
  const element = step({
    title: '7. Weighting the annotations',
    intro: [
      'Multiply each annotation by its weight. Columns with tiny weights fade to zero; the best-scoring step dominates.',
    ],
    formula: `${alpha}\\, ${symbol('annotations', '\\bar h_s')} \\quad \\text{for } s = 1, \\dots, n`,
    predict: questions.largestWeighted,
    output: out,
    figures: [map.element],
  });
  return {
    element,
    needs: ['applied'],
    show(r) {
      const n = r.applied.cols;
      map.update(r.applied, { colLabels: numberedLabels('h̄', n), rowLabels: indexLabels(3) });
      out.textContent = formatNumpy(r.applied.data, [3, n]);
      questions.largestWeighted.update(r);
    },
  };
}
