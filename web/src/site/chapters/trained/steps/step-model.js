// Step 1: the model, and where attention sits in it (the three uses as boxes).
import { step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { UsesDiagram } from '../../../figures/uses-diagram.js';
import { tex } from '../../../math.js';
import { START } from '../model.js';

export function modelStep({ onSelect }) {
  const diagram = new UsesDiagram({
    onSelect,
    caption:
      'The three places attention appears. Choose a purple box to show its maps below: queries always come from the block the box sits in; in encoder–decoder attention the keys and values are the encoder’s outputs.',
  });
  const line = el('p', { className: 'trained-model-line' }, 'loading the model…');
  const element = step({
    title: '1. The model, and where attention sits in it',
    intro: [
      el(
        'p',
        {},
        'Characters become vectors (the encoder and decoder have separate embedding tables, since they read different alphabets), scaled by ',
        tex('\\sqrt{d_{model}}'),
        ' and added to a positional encoding. Each layer applies attention, then a position-wise feed-forward network, each wrapped in a residual connection. We normalise before each sublayer (pre-LN) rather than after it as the paper does: with pre-LN this small model trains with a short warm-up and no tuning, and the residual path stays an identity.',
      ),
    ],
    formula: [
      'x \\leftarrow x + \\operatorname{MultiHead}(\\operatorname{LN}(x))',
      'x \\leftarrow x + \\operatorname{FFN}(\\operatorname{LN}(x))',
      '\\operatorname{FFN}(x) = \\max(0, xW_1 + b_1)W_2 + b_2',
    ],
    output: line,
    figures: [diagram.element],
  });
  return {
    element,
    /** @param {{model: object, source: string, steps: number, use: string, input: string, output?: string}} data */
    show({ model, source, steps, use, input, output }) {
      const o = model.options;
      line.textContent =
        `${source}: ${o.layers} encoder and ${o.layers} decoder layers, ${o.heads} heads, d_model ${o.dModel}, d_ff ${o.dFF}, ` +
        `${model.parameterCount.toLocaleString('en')} parameters, trained ${steps.toLocaleString('en')} steps of ${o.batch} examples.`;
      diagram.update({
        layers: o.layers,
        heads: o.heads,
        selected: use,
        source: `input: “${input}”`,
        target: `written so far: ${START}${output ?? ''}`,
      });
    },
  };
}
