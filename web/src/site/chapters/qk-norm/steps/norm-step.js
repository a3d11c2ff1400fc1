// Step 4 of the QK-norm chapter: RMS-normalise each query and key (per head), times a gain g.
import { el } from '../../../dom.js';
import { indexLabels, liveExperiment, step } from '../../../chapter-kit.js';
import { shown } from '../../../explain/format.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol } from '../../../math.js';
import { EPSILON } from '../model.js';
import { K, Kn, numberField, Q, Qn, tokens } from './shared.js';

export function normStep({ state, edit, figures, story, questions }) {
  const maps = {};
  for (const [name, palette, what] of [
    ['Qn', 'orange', 'normalised queries Q̂'],
    ['Kn', 'green', 'normalised keys K̂'],
  ]) {
    maps[name] = new Heatmap({ palette, label: what, annotate: false, explain: story(name) });
    figures[name] = maps[name];
  }
  const gain = numberField('gain g', state.gain, { min: 0.25, max: 4, step: 0.25 }, (x) => edit({ gain: x }));
  const sentence = el('p', { className: 'live-sentence' });
  const tryHuge = liveExperiment({
    label: 's = 16',
    explain: (r) =>
      state.size === 16
        ? `s = 16: Q is 16 times Q₀, yet q̂1 is the same as at s = 1 up to ε; its length is ${shown(Math.hypot(...r.Qn.row(0)))}.`
        : 'Makes q and k 16 times longer: the normalised rows do not change (the ε of 10⁻⁶ aside).',
    apply: () => edit({ size: 16 }, { program: true }),
  });
  const element = step({
    title: '4. RMS-normalise q and k, head by head',
    intro: [
      el(
        'p',
        {},
        'QK-norm divides every query and every key by its root mean square, the square root of the mean of its squared entries, before the dot product; a learned gain g per channel then sets the scale the model wants. ',
        'Dehghani et al. (2023) introduced it (with LayerNorm) to keep the 22B ViT stable; Qwen3 and Gemma 3 apply RMSNorm over each head’s q and k (their ',
        el('code', {}, 'q_norm'),
        ' and ',
        el('code', {}, 'k_norm'),
        ' weights, of the head size), before the rotary embedding. Here the same g is typed for every channel; ε = ',
        el('code', {}, String(EPSILON)),
        ' keeps a zero row finite.',
      ),
    ],
    formula: [
      `${symbol('Qn', '\\hat q_i')} = \\frac{${symbol('Q', 'q_i')}}{\\sqrt{\\tfrac1d \\sum_c q_{ic}^2 + \\varepsilon}} \\odot ${symbol('gain', 'g')}`,
      `${Qn} = \\operatorname{RMSNorm}(${Q}), \\quad ${Kn} = \\operatorname{RMSNorm}(${K})`,
    ],
    controls: [gain.element],
    predict: questions.normLength,
    figures: [captioned(maps.Qn, 'Q̂: each row has RMS g'), captioned(maps.Kn, 'K̂')],
    after: [sentence, tryHuge.element],
  });
  return {
    element,
    needs: ['Qn', 'Kn'],
    show(r) {
      const labels = tokens(state.tokens);
      const cols = indexLabels(state.headDim);
      maps.Qn.update(r.Qn, { rowLabels: labels, colLabels: cols });
      maps.Kn.update(r.Kn, { rowLabels: labels, colLabels: cols });
      const before = Math.hypot(...r.Q.row(0));
      const after = Math.hypot(...r.Qn.row(0));
      sentence.textContent = `‖q1‖ = ${shown(before)} before, ‖q̂1‖ = ${shown(after)} after: every normalised row has length g·√d = ${shown(state.gain)}·√${state.headDim} = ${shown(state.gain * Math.sqrt(state.headDim))}, whatever s was.`;
      questions.normLength.update(r);
      tryHuge.show(r);
    },
    sync: () => gain.set(state.gain),
  };
}
