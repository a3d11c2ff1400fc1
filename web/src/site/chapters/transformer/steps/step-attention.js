// The hands-on Transformer chapter, step 4: softmax, then the weighted sum of values.
import { experiment, outputBlock, step } from '../../../chapter-kit.js';
import { symbol } from '../../../math.js';
import { figure, numpyOrSize, setControl, sym, tokenFigure } from './parts.js';

export function attentionStep(ctx) {
  const weightsFig = tokenFigure({
    palette: 'orange',
    label: 'attention weights softmax(Q Kᵀ / √d_k)',
    weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
    explain: ctx.explain('weights'),
  });
  const outFig = figure({
    palette: 'green',
    label: 'output = weights · V',
    explain: ctx.explain('output'),
  });
  Object.assign(ctx.figures, { weights: weightsFig, output: outFig });
  const weightsOut = outputBlock('attention weights as NumPy prints them');
  return {
    element: step({
      title: '4. Softmax, then a weighted sum of values',
      intro: [
        'Each row of scaled scores goes through a softmax, giving weights that are positive and sum to 1. The output for a query is the weighted average of the value rows.',
      ],
      formula: `${symbol('output', '\\operatorname{Attention}(Q, K, V)')} = ${symbol('weights', '\\operatorname{softmax}\\!\\Big(\\frac{Q K^\\top}{\\sqrt{d_k}}\\Big)')} ${sym.V}`,
      output: weightsOut,
      figures: [weightsFig.element, outFig.element],
      predict: ctx.questions.weights,
      after: [
        experiment({
          label: 'd_model = 2',
          explain:
            'Each query and key has 2 numbers: compare how sharp the rows of the weights are now with d_model = 8.',
          apply: () => setControl(weightsFig.element.closest('article') ?? document, 'd_model', 2),
        }),
      ],
    }),
    show(proj, view) {
      weightsFig.update(proj.attention.weights, view.labels);
      outFig.update(proj.attention.output, view.rowsOnly);
      weightsOut.textContent = numpyOrSize(proj.attention.weights, 'weights');
      ctx.questions.weights.update({ weights: proj.attention.weights, tokens: view.tokens });
    },
  };
}
