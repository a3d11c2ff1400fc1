// Step 4 of the Bahdanau chapter: the first layer W_1, then tanh.
import { code, el } from '../../../dom.js';
import { asInput, experiment, folded, indexLabels, numberedLabels, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol, tex } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';
import { layout, W1 } from './shared.js';

export function layer1Step({ state, edit, figures, story, questions }) {
  const layer1Map = asInput(new Heatmap({ palette: 'bone', label: 'layer_1 weights W1' }));
  const map = new Heatmap({
    palette: 'green',
    label: 'tanh activations, one row per encoder step',
    explain: story('activations'),
  });
  Object.assign(figures, { layer1: layer1Map, activations: map });
  const out = outputBlock('activations as NumPy prints them');
  const element = step({
    title: '4. The first layer, with tanh',
    intro: [
      el(
        'p',
        {},
        'A dense layer with weights ',
        tex('W_1'),
        ' (',
        code('layer_1'),
        ', shape 2·hidden_size × attention_size) mixes the encoder and decoder entries of each row; ',
        tex('\\tanh'),
        ' squashes the results into (−1, 1). The top half of ',
        tex('W_1'),
        ' projects ',
        tex('h_i'),
        ', the bottom half projects ',
        tex('s'),
        ', and the two projections are added — hence “additive” attention. The non-linearity after the sum lets the score depend on the pair in ways a plain dot product cannot.',
      ),
    ],
    formula: [
      `${symbol('activations', 'a_i')} = \\tanh\\!\\big(${W1}^\\top ${symbol('inputs', 'x_i')}\\big) \\in \\mathbb{R}^{\\mathrm{attention}}`,
      `${symbol('activations', 'A')} = \\tanh(${symbol('inputs', 'X')} ${W1}) \\in \\mathbb{R}^{n \\times \\mathrm{attention}}`,
    ],
    predict: questions.saturation,
    output: folded(out),
    figures: [captioned(layer1Map, 'layer_1 (W1)'), captioned(map, 'activations = tanh(inputs · W1)')],
    after: [
      experiment({
        label: 'attention size 2',
        explain:
          'The first layer now gives each pair only 2 numbers: the columns of W1 and of the activations shrink to 2.',
        apply: () => edit({ attentionSize: 2 }, { program: true }),
      }),
      'The first heatmap is W1 itself: one row per entry of x_i (the top half multiplies h_i, the bottom half s), one column per attention unit. The second shows the activations, one row per encoder step.',
    ],
  });
  return {
    element,
    show(r) {
      const { inputLength: n, hiddenSize: h, attentionSize: a } = state;
      layer1Map.update(r.layer1, { ...layout(2 * h, a), rowLabels: undefined });
      map.update(r.activations, {
        rowLabels: numberedLabels('h', n),
        colLabels: a <= 16 ? indexLabels(a) : undefined,
        vmin: -1,
        vmax: 1,
        ...layout(n, a),
      });
      out.textContent = formatNumpy(r.activations.data, [n, a]);
      questions.saturation.update(r);
    },
  };
}
