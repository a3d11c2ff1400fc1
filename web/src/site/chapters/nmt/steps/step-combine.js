// The NMT chapter, step 4: context and state combined into the attention vector (Luong's equation 5).
import { step } from '../../../chapter-kit.js';

export function combineStep() {
  const element = step({
    title: '4. Context and state are combined into the attention vector',
    formula: 'a_t = \\tanh\\left(W_c [c_t; h_t]\\right)',
    intro: [
      'This is Luong’s equation (5): the attention vector mixes what the decoder was looking at with what it remembers.',
    ],
  });
  return { element, show() {} };
}
