// Step 4 of the RoPE chapter: Hugging Face's half pairing (i with i + d/2)
// against the paper's interleaved pairing (2i − 1 with 2i), on the same q.
import { el } from '../../../dom.js';
import { indexLabels, liveExperiment, step } from '../../../chapter-kit.js';
import { shown } from '../../../explain/format.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol } from '../../../math.js';
import { toHalf } from '../model.js';

const pairList = (d, interleaved) =>
  Array.from({ length: Math.min(3, d / 2) }, (_, i) =>
    interleaved ? `(${2 * i + 1}, ${2 * i + 2})` : `(${i + 1}, ${i + 1 + d / 2})`,
  ).join(', ');

export function pairingStep({ state, edit, figures, story, questions }) {
  const half = new Heatmap({ palette: 'orange', label: 'q at position m, half pairing', explain: story('qHalf') });
  const interleaved = new Heatmap({
    palette: 'blue',
    label: 'q at position m, interleaved pairing',
    explain: story('qInterleaved'),
  });
  figures.qHalf = half;
  figures.qInterleaved = interleaved;
  const sentence = el('p', { className: 'live-sentence' });
  const tryZero = liveExperiment({
    label: 'position 0',
    explain: () =>
      state.queryAt === 0
        ? 'm = 0: nothing turns, and both layouts give q itself.'
        : 'Sets m = 0, where every angle is 0: the two layouts must agree there.',
    apply: () => edit({ queryAt: 0 }, { program: true }),
  });
  const element = step({
    title: '4. Which coordinates make a pair',
    intro: [
      'The RoFormer paper pairs neighbours: coordinates 1 and 2, 3 and 4, and so on (“interleaved”; Meta’s original Llama code does the same with complex numbers). Hugging Face’s implementation pairs coordinate i with i + d/2 instead, the “half” layout, which needs no reshaping on a GPU. The rotation is the same idea; only the names of the coordinates differ.',
      'So the two layouts give different vectors for the same q. A checkpoint converted from one to the other has the rows of its W_q and W_k permuted (odd coordinates first, then even ones), so that the very same pairs turn together.',
    ],
    formula: [
      `\\text{half: } (${symbol('qHalf', "q'_i")}, ${symbol('qHalf', "q'_{i+d/2}")}), \\qquad \\text{interleaved: } (${symbol('qInterleaved', "q''_{2i-1}")}, ${symbol('qInterleaved', "q''_{2i}")})`,
    ],
    predict: questions.samePairing,
    figures: [captioned(half, 'half: i with i + d/2'), captioned(interleaved, 'interleaved: 2i − 1 with 2i')],
    after: [sentence, tryZero.element],
  });
  return {
    element,
    needs: ['qHalf', 'qInterleaved'],
    show(r) {
      const cols = indexLabels(state.headDim);
      half.update(r.qHalf, { colLabels: cols, rowLabels: [`pos ${state.queryAt}`] });
      interleaved.update(r.qInterleaved, { colLabels: cols, rowLabels: [`pos ${state.queryAt}`] });
      const d = state.headDim;
      const order = toHalf(d)
        .slice(0, Math.min(4, d))
        .map((j) => j + 1);
      sentence.textContent =
        `Half pairs ${pairList(d, false)}, …; interleaved pairs ${pairList(d, true)}, …. ` +
        `Reorder q as coordinates ${order.join(', ')}, … (odd ones first) and turn it with the half layout: that gives the interleaved result, reordered the same way; the largest difference is ${shown(r.layoutGap)}.`;
      questions.samePairing.update(r);
      tryZero.show(r);
    },
  };
}
