// The NMT chapter, step 1: the bidirectional GRU encoder and its outputs s_j.
// Its cells explain themselves from the GRU weights, which the engine sends
// when a reader opens one (lesson-kit/gru-states.js); the input characters' embeddings, the
// encoder's input, are drawn then too.
import { asInput, experiment, step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { Heatmap } from '../../../figures/heatmap.js';
import { symbol, tex } from '../../../math.js';
import { chars, units } from '../model.js';

export const sj = symbol('encoder', 's_j');

/** A hidden-unit map: one row per character, one column per unit. */
export const stateMap = (options) => new Heatmap({ annotate: false, cellWidth: 7, cellHeight: 16, ...options });

/** The embeddings a GRU reads, drawn once the weights are fetched. */
export function embeddingsMap(label) {
  const map = asInput(stateMap({ palette: 'blue', label }));
  map.element.hidden = true;
  return map;
}

export function encoderStep({ explain, question, onTry }) {
  const encoderMap = stateMap({
    palette: 'orange',
    label: 'encoder outputs s_j: one row per input character, one column per hidden unit',
    colLabels: [],
    explain,
  });
  const inputsMap = embeddingsMap('embeddings e_j of the input characters, the encoder’s input');
  const element = step({
    title: '1. The encoder reads the input; the decoder receives all of its outputs',
    intro: [
      el(
        'p',
        {},
        'Each input character becomes a learned vector (an embedding). A recurrent network (a GRU) reads them left to right and another right to left; ',
        'their states are added, so the output ',
        tex('s_j'),
        ' at character ',
        tex('j'),
        ' knows what surrounds it on both sides (is this “3” a day, or the start of “31”?).',
      ),
    ],
    formula: `${sj} = \\overrightarrow{\\mathrm{GRU}}(e_j, \\overrightarrow{s}_{j-1}) + \\overleftarrow{\\mathrm{GRU}}(e_j, \\overleftarrow{s}_{j+1})`,
    figures: [encoderMap.element, inputsMap.element],
    after: [
      'The decoder receives every one of these vectors, not just the last. The heatmap shows them for the input typed below: one row per character, one column per hidden unit. Open a cell to see its arithmetic: the page then asks the model for its weights and draws the embeddings the GRUs read.',
      experiment({
        label: 'a shorter input',
        explain:
          'One row per character: the map loses rows, and the rows that remain change too, since each state reads both sides.',
        apply: () => onTry('short'),
      }),
    ],
    predict: question,
  });
  return {
    element,
    encoderMap,
    inputsMap,
    show(r) {
      encoderMap.element.hidden = false;
      encoderMap.update(r.encoderOutputs, { rowLabels: chars(r.input), colLabels: units(r.encoderOutputs.cols) });
      question.update(r);
    },
    /** No readable input: nothing of the last one stays drawn. */
    clear() {
      encoderMap.element.hidden = true;
      inputsMap.element.hidden = true;
      question.update(null);
    },
    showInputs(x, r) {
      inputsMap.update(x, { rowLabels: chars(r.input), colLabels: units(x.cols) });
      inputsMap.element.hidden = false;
    },
  };
}
