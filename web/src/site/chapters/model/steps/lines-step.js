// The model chapter's head view: every head of the chosen layer as lines
// between tokens, one colour per head (figures/token-lines.js).
import { step } from '../../../chapter-kit.js';
import { TokenLines } from '../../../figures/token-lines.js';

/** The head view: every head of the chosen layer as lines between tokens. */
export function linesStep() {
  const lines = new TokenLines({
    label: 'head view: lines from each token to the tokens it reads, one colour per head',
  });
  const element = step({
    title: '5. The head view',
    intro: [
      'All heads of the chosen layer at once, one colour each (bertviz’s head view): a line from a token on the left to a token on the right is as opaque as the weight. Hover or focus a token to isolate its lines.',
    ],
    figures: [lines.element],
  });
  return {
    element,
    show(attentions, tokens, layer) {
      lines.update({
        queries: tokens,
        keys: tokens,
        heads: attentions[layer].map((weights, h) => ({ name: `head ${h + 1}`, weights })),
      });
      lines.caption.textContent = `Head view of layer ${layer + 1}: every head at once; a line is as opaque as its weight.`;
    },
  };
}
