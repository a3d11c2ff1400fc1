// Step 3 of the QK-norm chapter: large logits saturate softmax (one key takes all).
import { el } from '../../../dom.js';
import { liveExperiment, step } from '../../../chapter-kit.js';
import { shown } from '../../../explain/format.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { LineChart } from '../../../figures/line-chart.js';
import { symbol } from '../../../math.js';
import { S, tokens } from './shared.js';

/** A chart of the mean largest weight against log₂ s, from sweep() points. */
export function saturationChart(label, caption) {
  const chart = new LineChart({ label, caption, xName: 'log₂ s', height: 160 });
  return {
    chart,
    draw(points, key) {
      chart.reset();
      for (const p of points) chart.add(Math.log2(p.s), p[key]);
    },
  };
}

export function saturationStep({ state, edit, figures, story, questions }) {
  const map = new Heatmap({
    palette: 'purple',
    label: 'weights A = softmax(S), row by row',
    weights: true,
    colLabelsOnTop: true,
    explain: story('weights'),
  });
  figures.weights = map;
  const curve = saturationChart(
    'mean largest weight against the size s, without QK-norm',
    'mean over the rows of the largest weight, s from 1/4 to 16',
  );
  const sentence = el('p', { className: 'live-sentence' });
  const tryTiny = liveExperiment({
    label: 's = 1/4',
    explain: (r) =>
      state.size === 0.25
        ? `s = 1/4: the logits are tiny and every weight is near 1/${state.tokens} = ${shown(1 / state.tokens)}; row 1’s largest is ${shown(Math.max(...r.weights.row(0)))}.`
        : 'Shrinks q and k to a quarter: the logits come close to 0 and softmax spreads the weight evenly.',
    apply: () => edit({ size: 0.25 }, { program: true }),
  });
  const element = step({
    title: '3. Softmax saturates',
    intro: [
      'Softmax only looks at differences between logits, and e^x turns a difference of a few units into a large ratio. Once the logits spread over tens, each row puts nearly all its weight on one key. Such a head has stopped mixing, and its gradient almost vanishes: a small change of a logit no longer moves the weights. Dehghani et al. (2023) saw exactly this while training a 22-billion-parameter vision Transformer: logits growing without bound, attention rows collapsing to one key, and the loss diverging.',
    ],
    formula: `${symbol('weights', 'A_{ij}')} = \\frac{e^{${S}_{ij}}}{\\sum_{j'} e^{${S}_{ij'}}}`,
    predict: questions.saturation,
    figures: [captioned(map, 'weights: each row sums to 1'), curve.chart.element],
    after: [sentence, tryTiny.element],
  });
  return {
    element,
    needs: ['weights', 'sweep'],
    show(r) {
      const labels = tokens(state.tokens);
      map.update(r.weights, { rowLabels: labels, colLabels: labels });
      curve.draw(r.sweep, 'plain');
      const last = r.sweep[r.sweep.length - 1];
      sentence.textContent = `On the curve: the mean largest weight goes from ${shown(r.sweep[0].plain)} at s = 1/4 to ${shown(last.plain)} at s = 16 (1/n = ${shown(1 / state.tokens)} would be an even spread, 1 one key per row).`;
      questions.saturation.update(r);
      tryTiny.show(r);
    },
  };
}
