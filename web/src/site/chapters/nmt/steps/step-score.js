// The NMT chapter, step 3: the decoder state as the query of attention, and the four score functions.
import { step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { symbol } from '../../../math.js';
import { ht } from './step-decoder.js';
import { sj } from './step-encoder.js';

const alpha = symbol('attention', '\\alpha_{tj}');

export function scoreStep() {
  const element = step({
    title: '3. Its state is the query of attention over all encoder outputs',
    intro: [
      el(
        'p',
        {},
        'The decoder state scores every encoder output; a softmax turns the scores into weights that sum to 1, and the context vector is the weighted average of the encoder outputs. Four score functions are available:',
      ),
    ],
    formula: [
      `${alpha} = \\frac{\\exp \\operatorname{score}(${ht}, ${sj})}{\\sum_{k} \\exp \\operatorname{score}(${ht}, ${symbol('encoder', 's_k')})}`,
      `c_t = \\sum_j ${alpha}\\, ${sj}`,
      '\\operatorname{score}(h_t, s_j) = \\begin{cases} h_t^\\top s_j & \\text{Luong dot} \\\\ h_t^\\top W_a s_j & \\text{Luong general} \\\\ v_a^\\top \\tanh(W_a [h_t; s_j]) & \\text{Luong concat} \\\\ v_a^\\top \\tanh(W_1 h_t + W_2 s_j + b) & \\text{Bahdanau (additive)} \\end{cases}',
    ],
    after: [
      'Luong’s concat and Bahdanau’s additive score are the same function up to the bias b; in Bahdanau’s paper the query is the previous decoder state and the context is fed into the recurrent step, which this model does not do.',
    ],
  });
  return { element, show() {} };
}
