// The Bahdanau chapter's opening step: why attention (the fixed-size bottleneck).
import { el } from '../../../dom.js';
import { step } from '../../../chapter-kit.js';
import { lengthSketch } from '../../../figures/length-sketch.js';

export function whyStep() {
  const element = step({
    title: 'Why attention: the bottleneck',
    intro: [
      el(
        'p',
        {},
        'Before attention, an encoder–decoder translator read the whole source sentence into one vector of fixed size and generated the translation from that vector alone. ',
        'Short sentences fit; long ones do not: Bahdanau, Cho and Bengio measured translation quality falling steadily once sentences grew beyond about twenty words. ',
        'Their fix keeps every encoder state and lets the decoder choose, at each output word, which ones to read. With it, quality held up on long sentences.',
      ),
    ],
    figures: [lengthSketch()],
  });
  return { element, show() {} };
}
