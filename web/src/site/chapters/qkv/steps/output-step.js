// Step 6 of the Q/K/V chapter: each word's output, a mix of all the values.
import { el } from '../../../dom.js';
import { experiment, indexLabels, numberedLabels, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol } from '../../../math.js';
import { formatCell } from '../../../numpy-format.js';
import { alpha, K, numpyRepr, Q, V } from './shared.js';

export function outputStep({ state, edit, figures, story, questions }) {
  const map = new Heatmap({
    palette: 'blue',
    label: 'attention output, one row per word',
    colLabels: indexLabels(3),
    explain: story('output'),
  });
  figures.output = map;
  const out = outputBlock('attention output as NumPy prints it');
  const worked = el('p', { className: 'worked' });
  const element = step({
    title: '6. The output: a mix of values for every word',
    intro: [
      'Each word’s output is the weighted sum of all the values, with its own row of weights. A word’s new representation now carries information from the words it attended to.',
    ],
    formula: [
      `${symbol('output', '\\operatorname{Attention}(Q, K, V)')} = \\operatorname{softmax}\\!\\left(\\frac{${Q} ${K}^\\top}{\\sqrt{d_k}}\\right) ${V}`,
      `${symbol('output', 'o_i')} = \\sum_j ${alpha}\\, ${symbol('V', 'v_j')}`,
    ],
    predict: questions.nearestValue,
    output: out,
    figures: [captioned(map, 'attention output: one row per word')],
    after: [
      worked,
      experiment({
        label: 'W_V = the identity',
        explain: 'Then V = X: each output row is a weighted average of the words themselves.',
        apply: () =>
          edit(
            {
              WV: [
                [1, 0, 0],
                [0, 1, 0],
                [0, 0, 1],
              ],
            },
            { program: true, custom: true },
          ),
      }),
    ],
  });
  return {
    element,
    needs: ['output'],
    show(r) {
      const n = state.words.length;
      map.update(r.output, { rowLabels: numberedLabels('word_', n) });
      out.textContent = numpyRepr(r.output.data, [n, 3], 'attention = ', { float: true });
      const terms = Array.from(r.weights.row(0), (w, j) => `${formatCell(w)}·v${j + 1}`);
      worked.textContent = `word_1: ${terms.join(' + ')} = [${Array.from(r.output.row(0), formatCell).join(', ')}]`;
      questions.nearestValue.update(r);
    },
  };
}
