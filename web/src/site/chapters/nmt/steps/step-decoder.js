// The NMT chapter, step 2: the decoder GRU and its states h_t, explained like
// the encoder's (step-encoder.js), with the embeddings of the characters it reads.
import { experiment, step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { symbol, tex } from '../../../math.js';
import { chars, units } from '../model.js';
import { embeddingsMap, stateMap } from './step-encoder.js';

export const ht = symbol('decoder', 'h_t');

export function decoderStep({ explain, question, onTry }) {
  const decoderMap = stateMap({
    palette: 'blue',
    label: 'decoder states h_t: one row per output character, one column per hidden unit',
    explain,
  });
  const previousMap = embeddingsMap(
    'embeddings E[y_(t−1)] of the characters the decoder reads (start, then its output)',
  );
  const element = step({
    title: '2. The decoder keeps track of what it wrote',
    intro: [
      el(
        'p',
        {},
        'The decoder is another GRU. It starts from the encoder’s final states and, at output step ',
        tex('t'),
        ', reads the character it wrote last (a start symbol at first; during training the correct previous character, which is called teacher forcing).',
      ),
    ],
    formula: `${ht} = \\mathrm{GRU}(E[y_{t-1}],\\, ${symbol('decoder', 'h_{t-1}')})`,
    figures: [decoderMap.element, previousMap.element],
    after: [
      'One row per output character: the decoder state that asks the question of step 3.',
      experiment({
        label: 'the input written another way',
        explain: 'A different input: one row per character the decoder now writes.',
        apply: () => onTry('other'),
      }),
    ],
    predict: question,
  });
  return {
    element,
    decoderMap,
    previousMap,
    show(r) {
      decoderMap.element.hidden = false;
      decoderMap.update(r.decoderStates, { rowLabels: chars(r.output), colLabels: units(r.decoderStates.cols) });
      question.update(r);
    },
    hide() {
      decoderMap.element.hidden = true;
      previousMap.element.hidden = true;
      question.update(null);
    },
    showInputs(y, r) {
      const labels = ['start', ...chars(r.output).slice(0, -1)];
      previousMap.update(y, { rowLabels: labels, colLabels: units(y.cols) });
      previousMap.element.hidden = false;
    },
  };
}
