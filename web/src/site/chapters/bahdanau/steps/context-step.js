// Step 8 of the Bahdanau chapter: the context vector, and the whole step as one flow diagram.
import { el } from '../../../dom.js';
import { experiment, indexLabels, outputBlock, step } from '../../../chapter-kit.js';
import { FlowDiagram } from '../../../figures/flow-diagram.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';
import { alpha, asRow, hi, layout } from './shared.js';

export function contextStep({ state, edit, figures, story, questions }) {
  const map = new Heatmap({ palette: 'blue', label: 'context vector c', explain: story('context') });
  figures.context = map;
  const out = outputBlock('context vector as NumPy prints it');
  const diagram = new FlowDiagram({
    label: 'the attention step: encoder states, additive scores, weights, context',
    stateName: (i) => `h${i + 1}`,
    queryName: 's',
  });
  const element = step({
    title: '8. The context vector',
    intro: [
      'Summing the weighted rows gives the context vector, a single hidden_size vector that the decoder reads together with its own state to predict the next word. At the next output step the decoder state changes, so the weights, and the context, change too.',
    ],
    formula: `${symbol('context', 'c')} = \\sum_{i=1}^{n} ${alpha}\\, ${hi}`,
    predict: questions.nearestState,
    output: out,
    figures: [captioned(map, 'context vector c')],
    after: [
      experiment({
        label: '20 encoder steps',
        explain: 'Twenty states share the weight: see whether the context still sits near one of them.',
        apply: () => edit({ inputLength: 20 }, { program: true }),
      }),
      el('h3', { className: 'sub-title' }, 'The whole step at a glance'),
      el(
        'p',
        {},
        'The decoder state is paired with each encoder state, the small network scores each pair, softmax turns the scores into weights, and each encoder state flows into the context through a line as wide as its weight.',
      ),
      diagram.element,
    ],
  });
  return {
    element,
    show(r) {
      const { inputLength: n, hiddenSize: h } = state;
      map.update(asRow(r.context), {
        rowLabels: ['c'],
        colLabels: h <= 16 ? indexLabels(h) : undefined,
        ...layout(1, h),
      });
      out.textContent = formatNumpy(r.context, [h]);
      diagram.update({
        states: Array.from({ length: n }, (_, i) => r.encoderStates.row(i)),
        query: r.decoderState.data,
        scores: r.scores,
        weights: r.weights,
        context: r.context,
      });
      questions.nearestState.update(r);
    },
  };
}
