// Step 5 of the Bahdanau chapter: the second layer w_2 gives one alignment score per encoder step.
import { code, el } from '../../../dom.js';
import { asInput, experiment, numberedLabels, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol, tex } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';
import { asColumn, hi, layout, sDec, W1, w2 } from './shared.js';

export function scoresStep({ state, edit, figures, story, questions }) {
  const layer2Map = asInput(new Heatmap({ palette: 'bone', label: 'layer_2 weights w2' }));
  const map = new Heatmap({
    palette: 'orange',
    label: 'alignment scores e, one per encoder step',
    explain: story('scores'),
  });
  Object.assign(figures, { layer2: layer2Map, scores: map });
  const out = outputBlock('alignment scores as NumPy prints them');
  const element = step({
    title: '5. The second layer: alignment scores',
    intro: [
      el(
        'p',
        {},
        'A second layer ',
        tex('w_2'),
        ' (',
        code('layer_2'),
        ', attention_size × 1) turns each row of activations into a single number, the alignment score ',
        tex('e_i'),
        ': how well source word ',
        tex('i'),
        ' fits what the decoder needs next. No tanh here: the scores go straight to softmax.',
      ),
    ],
    formula: `${symbol('scores', 'e_i')} = ${w2}^\\top ${symbol('activations', 'a_i')} = ${w2}^\\top \\tanh\\!\\big(${W1}^\\top [${hi}; ${sDec}]\\big), \\qquad ${symbol('scores', 'e')} = ${symbol('activations', 'A')}\\, ${w2} \\in \\mathbb{R}^{n \\times 1}`,
    predict: questions.highestScore,
    after: [
      experiment({
        label: 'new states and weights (seed + 1)',
        explain: 'New random states and weights from the next seed: see which encoder step scores highest now.',
        apply: () => edit({ seed: (state.seed + 1) % 4294967296 }, { program: true }),
      }),
    ],
    output: out,
    figures: [captioned(layer2Map, 'layer_2 (w2)'), captioned(map, 'scores e')],
  });
  return {
    element,
    show(r) {
      const n = state.inputLength;
      layer2Map.update(asColumn(r.layer2.data), { ...layout(state.attentionSize, 1) });
      map.update(asColumn(r.scores), { rowLabels: numberedLabels('h', n), ...layout(n, 1) });
      out.textContent = formatNumpy(r.scores, [n, 1]);
      questions.highestScore.update(r);
    },
  };
}
