// Step 2 of the QK-norm chapter: the logits q·k/√d grow with the square of the size.
import { el } from '../../../dom.js';
import { liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { shown } from '../../../explain/format.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { K, largestMagnitude, numpyRepr, Q, S, tokens } from './shared.js';

export function logitsStep({ state, edit, figures, story, questions }) {
  const map = new Heatmap({
    palette: 'orange',
    label: 'logits S = QKᵀ/√d: rows are queries, columns are keys',
    colLabelsOnTop: true,
    explain: story('logits'),
  });
  figures.logits = map;
  const sentence = el('p', { className: 'live-sentence' });
  const tryDouble = liveExperiment({
    label: 'double s',
    explain: () =>
      `Sets s to ${shown(Math.min(16, state.size * 2))}: both q and k double, so every logit is multiplied by 4.`,
    apply: () => edit({ size: Math.min(16, state.size * 2) }, { program: true }),
  });
  const out = outputBlock('logits as NumPy prints them');
  const element = step({
    title: '2. The logits grow like s²',
    intro: [
      'A logit is a dot product of a query and a key, divided by √d. Scale both by s and every product q_i k_j picks up s twice: the logits grow with the square of the size, while the √d, fixed by the head size, does nothing about it.',
    ],
    formula: `${S} = \\frac{${Q}${K}^\\top}{\\sqrt d} = s^2\\,\\frac{Q_0 K_0^\\top}{\\sqrt d}`,
    predict: questions.doubledLogits,
    output: out,
    figures: [captioned(map, 'logits: row = query token, column = key token')],
    after: [sentence, tryDouble.element],
  });
  return {
    element,
    needs: ['logits'],
    show(r) {
      const labels = tokens(state.tokens);
      map.update(r.logits, { rowLabels: labels, colLabels: labels });
      out.textContent = numpyRepr('logits', r.logits);
      const now = largestMagnitude(r.logits);
      sentence.textContent = `The largest |logit| is ${shown(now)} at s = ${shown(state.size)}; at s = ${shown(2 * state.size)} it would be ${shown(r.doubled)}, ${shown(r.doubled / now)} times as large.`;
      questions.doubledLogits.update(r);
      tryDouble.show(r);
    },
  };
}
