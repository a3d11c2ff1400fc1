// Step 5 of the Q/K/V chapter: scale by 1/√d_k, then softmax row by row.
import { el } from '../../../dom.js';
import { experiment, numberedLabels, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol, tex } from '../../../math.js';
import { alpha, numpyRepr, Sij } from './shared.js';

export function softmaxStep({ state, figures, story, questions, redraw }) {
  const map = new Heatmap({
    palette: 'purple',
    label: 'attention weights: row i is how word i spreads its attention',
    weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
    colLabelsOnTop: true,
    explain: story('weights'),
  });
  figures.weights = map;
  const out = outputBlock('attention weights as NumPy prints them');
  const scaleLine = el('p', { className: 'worked' });
  const element = step({
    title: '5. Scale, then softmax row by row',
    intro: [
      el(
        'p',
        {},
        'Each row of scores becomes a set of weights with softmax. First the scores are divided by ',
        tex('\\sqrt{d_k}'),
        ', the square root of the key length: the dot product of two random vectors spreads wider as they get longer (its variance grows with ',
        tex('d_k'),
        '), and without the scaling softmax would hand almost all the weight to one word.',
      ),
    ],
    formula: `${alpha} = \\operatorname{softmax}_j\\!\\left(\\frac{${Sij}}{\\sqrt{d_k}}\\right) = \\frac{\\exp(${Sij}/\\sqrt{d_k})}{\\sum_{l} \\exp(${symbol('scores', 'S_{il}')}/\\sqrt{d_k})}`,
    predict: questions.scalingEffect,
    output: out,
    figures: [captioned(map, 'weights: each row adds up to 1')],
    after: [
      scaleLine,
      experiment({
        label: 'draw new weights (the next seed)',
        explain: 'New W_Q, W_K and W_V from the next seed, same words: see which rows stay sharp and which flatten.',
        apply: () => redraw(state.seed + 1),
      }),
    ],
  });
  return {
    element,
    needs: ['weights'],
    show(r) {
      const n = state.words.length;
      const labels = numberedLabels('word_', n);
      scaleLine.textContent = `d_k = ${r.dk}, so every score is divided by √${r.dk} ≈ ${Math.sqrt(r.dk).toFixed(4)} before softmax; each row of weights adds up to 1.`;
      map.update(r.weights, { rowLabels: labels, colLabels: labels, rotateColLabels: n > 4 });
      out.textContent = numpyRepr(r.weights.data, [n, n], 'weights = ', { float: true });
      questions.scalingEffect.update(r);
    },
  };
}
