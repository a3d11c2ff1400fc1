// Step 8 of the Basics chapter: the context vector c = Hα, and the whole step
// drawn as one flow diagram.
import { el } from '../../../dom.js';
import { experiment, indexLabels, outputBlock, step } from '../../../chapter-kit.js';
import { FlowDiagram } from '../../../figures/flow-diagram.js';
import { Heatmap } from '../../../figures/heatmap.js';
import { symbol } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';
import { DEFAULTS } from '../model.js';
import { alpha, column, H } from './shared.js';

export function contextStep({ state, edit, figures, story, questions }) {
  const map = new Heatmap({
    palette: 'blue',
    label: 'context vector c',
    rowLabels: indexLabels(3),
    explain: story('context'),
  });
  figures.context = map;
  const out = outputBlock('context vector as NumPy prints it');
  const diagram = new FlowDiagram({ label: 'the attention step: encoder states, scores, weights, context' });
  const element = step({
    title: '8. The context vector',
    intro: [
      'Adding up the weighted columns gives the context vector: a blend of the encoder states, mostly the ones the decoder found relevant. The decoder combines it with its own state to predict the next word.',
    ],
    formula: `${symbol('context', 'c')} = \\sum_{s=1}^{n} ${alpha}\\, ${symbol('annotations', '\\bar h_s')} = ${H} ${symbol('weights', '\\alpha')}`,
    predict: questions.nearestState,
    output: out,
    figures: [map.element],
    after: [
      el('h3', { className: 'sub-title' }, 'The whole step at a glance'),
      el(
        'p',
        {},
        'Every number above, in one picture: the decoder state is scored against each encoder state, softmax turns the scores into weights, and each encoder state flows into the context through a line as wide as its weight.',
      ),
      diagram.element,
      experiment({
        label: 'the notebook’s numbers',
        explain: 'Back to h = [5, 1, 20] and the four annotations of the notebook.',
        apply: () => edit(structuredClone(DEFAULTS), { program: true }),
      }),
    ],
  });
  return {
    element,
    needs: ['context'],
    show(r) {
      map.update(column(r.context));
      out.textContent = formatNumpy(r.context, [3]);
      questions.nearestState.update(r);
      diagram.update({
        states: state.annotations,
        query: state.decoder,
        scores: r.scores,
        weights: r.weights,
        context: r.context,
      });
    },
  };
}
