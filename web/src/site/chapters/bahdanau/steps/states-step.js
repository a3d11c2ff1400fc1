// Step 2 of the Bahdanau chapter: the drawn encoder states h_i and decoder state s.
import { code, el } from '../../../dom.js';
import { asInput, folded, indexLabels, numberedLabels, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { tex } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';
import { layout } from './shared.js';

export function statesStep({ state, figures }) {
  const encoderMap = asInput(new Heatmap({ palette: 'orange', label: 'encoder states, one row per encoder step' }));
  const decoderMap = asInput(new Heatmap({ palette: 'purple', label: 'decoder state s' }));
  Object.assign(figures, { encoder: encoderMap, decoder: decoderMap });
  const encoderOut = outputBlock('encoder_states as NumPy prints it');
  const decoderOut = outputBlock('decoder_state as NumPy prints it');
  const element = step({
    title: '2. The encoder states and the decoder state',
    intro: [
      el(
        'p',
        {},
        'Row ',
        tex('i'),
        ' of ',
        code('encoder_states'),
        ' is ',
        tex('h_i'),
        ', what the encoder knew after reading source word ',
        tex('i'),
        '. The decoder state ',
        tex('s'),
        ' summarises what has been translated so far. Both have ',
        code('hidden_size'),
        ' entries.',
      ),
    ],
    output: folded(encoderOut),
    figures: [captioned(encoderMap, 'encoder_states: row i is h_i'), captioned(decoderMap, 'decoder_state s')],
    after: [decoderOut],
  });
  return {
    element,
    show(r) {
      const { inputLength: n, hiddenSize: h } = state;
      const colLabels = h <= 16 ? indexLabels(h) : undefined;
      encoderMap.update(r.encoderStates, { rowLabels: numberedLabels('h', n), colLabels, ...layout(n, h) });
      encoderOut.textContent = formatNumpy(r.encoderStates.data, [n, h]);
      decoderMap.update(r.decoderState, { rowLabels: ['s'], colLabels, ...layout(1, h) });
      decoderOut.textContent = formatNumpy(r.decoderState.data, [1, h]);
    },
  };
}
