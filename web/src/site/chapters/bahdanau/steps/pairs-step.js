// Step 3 of the Bahdanau chapter: every encoder state paired with the decoder state, [h_i; s].
import { code, el } from '../../../dom.js';
import { experiment, folded, numberedLabels, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol, tex } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';
import { hi, layout, sDec } from './shared.js';

export function pairsStep({ state, edit, figures, story, questions }) {
  const map = new Heatmap({
    palette: 'viridis',
    label: 'concatenated inputs [h_i; s], one row per encoder step',
    explain: story('inputs'),
  });
  figures.inputs = map;
  const out = outputBlock('inputs as NumPy prints them');
  const shapeLine = el('p', { className: 'worked' });
  const element = step({
    title: '3. Pairing every encoder state with the decoder state',
    intro: [
      el(
        'p',
        {},
        'The alignment network looks at one pair ',
        tex('(h_i, s)'),
        ' at a time, as one long vector: the encoder state followed by the decoder state. ',
        'Doing all pairs at once means repeating ',
        tex('s'),
        ' once per encoder step (NumPy’s ',
        code('decoder_state.repeat(input_length, axis=0)'),
        ') and gluing it to the right of the encoder states (',
        code('np.concatenate(..., axis=1)'),
        ').',
      ),
    ],
    formula: `${symbol('inputs', 'x_i')} = \\begin{bmatrix} ${hi} \\\\ ${sDec} \\end{bmatrix} \\in \\mathbb{R}^{2\\,\\mathrm{hidden}}, \\qquad ${symbol('inputs', 'X')} = \\big[\\, ${symbol('encoder', 'H')} \\;\\big|\\; \\pmb{1}\\, ${sDec}^\\top \\big] \\in \\mathbb{R}^{n \\times 2\\,\\mathrm{hidden}}`,
    predict: questions.sameHalf,
    output: folded(out),
    figures: [captioned(map, 'inputs: [h_i ; s] on row i')],
    after: [
      experiment({
        label: '8 encoder steps',
        explain:
          'Eight encoder states, so eight pairs: the matrix gains rows, one per state, each ending with the same decoder state.',
        apply: () => edit({ inputLength: 8 }, { program: true }),
      }),
      shapeLine,
      'In the heatmap the right half is striped vertically: every row carries the same decoder state.',
    ],
  });
  return {
    element,
    show(r) {
      const { inputLength: n, hiddenSize: h } = state;
      map.update(r.inputs, { rowLabels: numberedLabels('h', n), ...layout(n, 2 * h) });
      out.textContent = formatNumpy(r.inputs.data, [n, 2 * h]);
      shapeLine.textContent = `inputs.shape == (${n}, ${2 * h}) == (input_length, 2*hidden_size): columns 1–${h} are h_i (NumPy’s inputs[:, :${h}], indices 0–${h - 1}), columns ${h + 1}–${2 * h} are the same s on every row (inputs[:, ${h}:])`;
      questions.sameHalf.update(r);
    },
  };
}
