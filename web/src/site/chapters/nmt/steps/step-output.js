// The NMT chapter, step 5: the attention vector predicts the next character.
import { step } from '../../../chapter-kit.js';

export function outputStep() {
  const element = step({
    title: '5. The attention vector predicts the next character',
    formula: 'p(y_t \\mid y_{<t}, x) = \\operatorname{softmax}(W_o a_t + b_o)',
    intro: [
      'Training minimises the cross-entropy of the correct character at every step (with Adam and gradient clipping); translating picks the most likely character, feeds it back in, and stops at the end symbol.',
    ],
  });
  return { element, show() {} };
}
