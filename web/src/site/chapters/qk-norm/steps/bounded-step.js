// Step 5 of the QK-norm chapter: with QK-norm the logits are bounded by g²√d and no longer follow s.
import { el } from '../../../dom.js';
import { liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { shown } from '../../../explain/format.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol } from '../../../math.js';
import { logitBound } from '../model.js';
import { Kn, largestMagnitude, numpyRepr, Qn, Sn, tokens } from './shared.js';
import { saturationChart } from './saturation-step.js';

export function boundedStep({ state, edit, figures, story, questions }) {
  const logits = new Heatmap({
    palette: 'orange',
    label: 'logits Ŝ = Q̂K̂ᵀ/√d after QK-norm',
    colLabelsOnTop: true,
    explain: story('normLogits'),
  });
  const weights = new Heatmap({
    palette: 'purple',
    label: 'weights Â = softmax(Ŝ) after QK-norm',
    weights: true,
    colLabelsOnTop: true,
    explain: story('normWeights'),
  });
  figures.normLogits = logits;
  figures.normWeights = weights;
  const curve = saturationChart(
    'mean largest weight against the size s, with QK-norm',
    'with QK-norm: the same s from 1/4 to 16, a flat line',
  );
  const sentence = el('p', { className: 'live-sentence' });
  const tryGain = liveExperiment({
    label: 'g = 3',
    explain: (r) =>
      state.gain === 3
        ? `g = 3: the bound is 9·√${state.headDim} = ${shown(logitBound(state.headDim, 3))}, and the largest |logit| is now ${shown(largestMagnitude(r.normLogits))}: the gain, a learned weight, sets how sharp the head may be.`
        : 'A larger gain is how a trained model still makes a head sharp: the logits scale with g², within a bound it learns.',
    apply: () => edit({ gain: 3 }, { program: true }),
  });
  const out = outputBlock('logits after QK-norm as NumPy prints them');
  const element = step({
    title: '5. Bounded logits',
    intro: [
      'After the normalisation every q̂ and k̂ has length g√d, so by the Cauchy–Schwarz inequality no logit can exceed g²√d in size, whatever the projections did to the sizes of q and k. The size s is gone from the logits; only the directions of q and k and the learned gain remain.',
    ],
    formula: [
      `${Sn} = \\frac{${Qn}${Kn}^\\top}{\\sqrt d}`,
      `|${symbol('normLogits', '\\hat S_{ij}')}| \\le \\frac{\\lVert \\hat q_i\\rVert\\,\\lVert \\hat k_j\\rVert}{\\sqrt d} \\le g^2 \\sqrt d`,
    ],
    predict: questions.normDoubled,
    output: out,
    figures: [
      captioned(logits, 'logits after QK-norm'),
      captioned(weights, 'weights after QK-norm'),
      curve.chart.element,
    ],
    after: [sentence, tryGain.element],
  });
  return {
    element,
    needs: ['normLogits', 'normWeights', 'sweep'],
    show(r) {
      const labels = tokens(state.tokens);
      logits.update(r.normLogits, { rowLabels: labels, colLabels: labels });
      out.textContent = numpyRepr('norm_logits', r.normLogits);
      weights.update(r.normWeights, { rowLabels: labels, colLabels: labels });
      curve.draw(r.sweep, 'normed');
      const bound = logitBound(state.headDim, state.gain);
      const top = Math.max(...r.sweep.map((p) => p.normLogit));
      sentence.textContent = `Largest |logit| now ${shown(largestMagnitude(r.normLogits))}, under the bound g²√d = ${shown(bound)}; over the whole sweep of s it stays at most ${shown(top)}, where without QK-norm it reached ${shown(r.sweep[r.sweep.length - 1].logit)}.`;
      questions.normDoubled.update(r);
      tryGain.show(r);
    },
  };
}
