// Step 1 of the Basics chapter: the decoder hidden state h, edited by the reader.
import { el } from '../../../dom.js';
import { indexingNote, liveExperiment, step } from '../../../chapter-kit.js';
import { tex } from '../../../math.js';
import { shown } from '../../../explain/format.js';
import { clearArgmax } from '../../../predict.js';
import { vectorInput } from './vector-input.js';

// Try h = [1, 0, 0]: every score becomes the first entry of its annotation (said from the live annotations).
function firstEntryText({ state }) {
  const firsts = state.annotations.map((a) => a[0]);
  const best = clearArgmax(firsts);
  const winner = best === null ? 'no single step wins (a tie)' : `encoder step ${best + 1} wins`;
  return `Each score becomes the first entry of its annotation (${firsts.map(shown).join(', ')}), so ${winner}.`;
}

export function decoderStep(ctx) {
  const input = vectorInput(ctx, 'decoder', 'decoder hidden state h', 'purple');
  ctx.figures.decoder = input.map;
  const tryFirst = liveExperiment({
    label: 'h = [1, 0, 0]',
    explain: () => firstEntryText(ctx),
    apply: () => ctx.edit({ decoder: [1, 0, 0] }, { program: true }),
  });
  const element = step({
    title: '1. The decoder hidden state',
    intro: [
      el(
        'p',
        {},
        'We stand at the first decoding step. A toy recurrent decoder with three hidden units has state ',
        tex('h'),
        '. Real models use hundreds of units; three keep the arithmetic visible.',
      ),
      indexingNote(),
    ],
    controls: [el('span', { className: 'control-label' }, 'h ='), input.editor.element],
    output: input.out,
    figures: [input.map.element],
    after: [
      'Type a number, drag the handle beside it up or down, or use the arrow keys: everything below follows.',
      tryFirst.element,
    ],
  });
  return {
    element,
    show: () => {
      input.show();
      tryFirst.show();
    },
    sync: input.sync,
  };
}
