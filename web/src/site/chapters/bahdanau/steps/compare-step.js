// Step 9 of the Bahdanau chapter: additive against dot-product scoring of the same states.
import { el } from '../../../dom.js';
import { experiment, numberedLabels, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { tex } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';
import { layout } from './shared.js';

const differences = () => [
  el(
    'p',
    {},
    'The Basics chapter scored with a plain dot product, ',
    tex('e_i = s^\\top h_i'),
    '. The additive score used here differs in three ways:',
  ),
  el(
    'ul',
    {},
    el(
      'li',
      {},
      'it has parameters (',
      tex('W_1'),
      ', ',
      tex('w_2'),
      ') that training adapts, where the dot product is fixed;',
    ),
    el(
      'li',
      {},
      'the encoder and decoder states need not have the same length, since ',
      tex('W_1'),
      ' maps their concatenation to the attention size;',
    ),
    el(
      'li',
      {},
      'the tanh makes the score a non-linear function of the pair, so “similar” can mean more than “pointing the same way”.',
    ),
  ),
  el(
    'p',
    {},
    'The price is speed: every pair goes through a small network, whereas dot products for all pairs are a single matrix product. ',
    'Transformers therefore use dot products, divided by ',
    tex('\\sqrt{d_k}'),
    ' so that long vectors do not push softmax into saturation (Vaswani et al., 2017, who also note that additive attention does better than unscaled dot products for large ',
    tex('d_k'),
    ').',
  ),
];

export function compareStep({ state, edit, figures, story, questions }) {
  const map = new Heatmap({
    palette: 'orange',
    label: 'weights from additive and from dot-product scores',
    weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
    rowLabels: ['additive', 'dot product'],
    explain: story('compare'),
  });
  figures.compare = map;
  const out = outputBlock('dot-product scores and weights of the same states');
  const element = step({
    title: '9. Additive versus dot-product scoring',
    intro: differences(),
    formula:
      'e_i^{\\text{additive}} = w_2^\\top \\tanh\\!\\big(W_1^\\top [h_i; s]\\big) \\qquad\\text{vs.}\\qquad e_i^{\\text{dot}} = s^\\top h_i',
    predict: questions.agreement,
    output: out,
    figures: [captioned(map, 'weights from the two scoring functions')],
    after: [
      experiment({
        label: 'compare on another seed (seed + 1)',
        explain:
          'New states and weights: see whether the additive and the dot-product scores still agree on the best step.',
        apply: () => edit({ seed: (state.seed + 1) % 4294967296 }, { program: true }),
      }),
      'With untrained random weights the two rankings have no reason to agree: the additive network has not learned what “relevant” means yet.',
    ],
  });
  return {
    element,
    show(r) {
      const n = state.inputLength;
      const both = new Float64Array(2 * n);
      both.set(r.weights, 0);
      both.set(r.dotWeights, n);
      map.update({ rows: 2, cols: n, data: both }, { colLabels: numberedLabels('h', n), ...layout(2, n) });
      out.textContent = [
        '# dot-product scores of the same states: encoder_states @ decoder_state[0]',
        formatNumpy(r.dotScores, [n]),
        '# their softmax weights',
        formatNumpy(r.dotWeights, [n]),
      ].join('\n');
      questions.agreement.update(r);
    },
  };
}
