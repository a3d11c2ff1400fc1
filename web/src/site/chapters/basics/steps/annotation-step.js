// Step 2 of the Basics chapter: one annotation h̄, edited by the reader.
import { el } from '../../../dom.js';
import { step } from '../../../chapter-kit.js';
import { tex } from '../../../math.js';
import { vectorInput } from './vector-input.js';

export function annotationStep(ctx) {
  const input = vectorInput(ctx, 'annotation', 'annotation h̄', 'orange');
  ctx.figures.annotation = input.map;
  const element = step({
    title: '2. One annotation',
    intro: [
      el(
        'p',
        {},
        'An annotation ',
        tex('\\bar h_s'),
        ' is the encoder’s hidden state at source position ',
        tex('s'),
        ': what the encoder knew after reading that word. It has as many entries as the decoder state, so the two can be compared.',
      ),
    ],
    controls: [el('span', { className: 'control-label' }, 'h̄ ='), input.editor.element],
    output: input.out,
    figures: [input.map.element],
  });
  return { element, show: input.show, sync: input.sync };
}
