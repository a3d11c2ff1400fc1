// Step 2 of the RoPE chapter: the frequency of each pair, θ_i = base^(−2i/d),
// and how rope_theta and the config's rope_scaling (linear, llama3) change it.
import { el } from '../../../dom.js';
import { experiment, step } from '../../../chapter-kit.js';
import { shown } from '../../../explain/format.js';
import { scaledFrequency } from '../../../explain/rotary.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { LineChart } from '../../../figures/line-chart.js';
import { symbol } from '../../../math.js';
import { SCALINGS } from '../model.js';
import { choice, numberField } from './shared.js';

const LLAMA31 = {
  base: 500000,
  scaling: 'llama3',
  factor: 8,
  lowFreqFactor: 1,
  highFreqFactor: 4,
  originalMax: 8192,
};

/** How many pairs each band of the scaling holds: { kept, blended, slowed, all }. */
export function bands(d, base, scaling) {
  const count = { kept: 0, blended: 0, slowed: 0, all: 0, none: 0 };
  for (let i = 0; i < d / 2; i++) count[scaledFrequency(base ** ((-2 * i) / d), scaling).band]++;
  return count;
}

export function spectrumStep(ctx) {
  const { state, edit, figures, story, questions } = ctx;
  const map = new Heatmap({
    palette: 'green',
    label: 'frequencies θ_i per pair: row 1 from rope_theta, row 2 after rope_scaling',
    explain: story('freqs'),
  });
  map.element.dataset.sources = 'none'; // computed from the settings alone: nothing to outline
  figures.freqs = map;
  const chart = new LineChart({
    label: 'wavelength 2π/θ_i of each pair, in positions (logarithmic)',
    caption: 'wavelength of each pair in positions (log scale), as the model uses it',
    logY: true,
    xName: 'pair',
    height: 170,
  });
  const base = numberField('rope_theta', state.base, { min: 2, max: 1e9, width: '7.5em' }, (x) => edit({ base: x }));
  const scaling = choice('rope_scaling', SCALINGS, state.scaling, (x) => edit({ scaling: x }));
  const factor = numberField('factor', state.factor, { min: 1, max: 64 }, (x) => edit({ factor: x }));
  const low = numberField('low_freq_factor', state.lowFreqFactor, { min: 0.5, max: 64, step: 0.5 }, (x) =>
    edit({ lowFreqFactor: x }),
  );
  const high = numberField('high_freq_factor', state.highFreqFactor, { min: 1, max: 64, step: 0.5 }, (x) =>
    edit({ highFreqFactor: x }),
  );
  const original = numberField(
    'original_max_position_embeddings',
    state.originalMax,
    { min: 16, max: 1048576, integer: true, step: 256, width: '7.5em' },
    (x) => edit({ originalMax: x }),
  );
  const sentence = el('p', { className: 'live-sentence' });
  const tryLlama = experiment({
    label: 'Llama 3.1’s settings',
    explain:
      'rope_theta 500,000 and rope_scaling llama3 (factor 8, low 1, high 4, original 8192): short wavelengths are kept, long ones slowed 8 times, the ones between blended.',
    apply: () => edit(LLAMA31, { program: true }),
  });
  const element = step({
    title: '2. A spectrum of frequencies',
    intro: [
      'Each pair turns at its own speed. Pair 1 turns by one radian per position; every next pair is slower by the same factor, down to the last, which needs tens of thousands of positions for one turn (its wavelength). Fast pairs tell neighbours apart; slow pairs still change across a long text. The base, config.json’s rope_theta, sets how slow the slowest pair is: Llama 2 used 10,000, Llama 3 uses 500,000.',
      'To read texts longer than it was trained on, a model can stretch the slow end. rope_scaling “linear” divides every θ by a factor; Llama 3.1’s “llama3” divides only the pairs whose wavelength exceeds original_max_position_embeddings / low_freq_factor, keeps those below original / high_freq_factor, and blends the band in between.',
    ],
    formula: `${symbol('freqs', '\\theta_i')} = \\text{rope\\_theta}^{-2(i-1)/d}, \\quad i = 1, \\dots, d/2`,
    controls: [base.element, scaling.element, factor.element, low.element, high.element, original.element],
    predict: questions.slowerBase,
    figures: [captioned(map, 'θ_i for each pair'), chart.element],
    after: [sentence, tryLlama],
  });
  return {
    element,
    needs: ['freqs'],
    show(r) {
      const half = state.headDim / 2;
      const rows = r.freqs.rows === 2 ? ['rope_theta', 'scaled'] : ['rope_theta'];
      map.update(r.freqs, {
        rowLabels: rows,
        colLabels: Array.from({ length: half }, (_, i) => `θ${i + 1}`),
        rotateColLabels: half > 8, // θ10 … θ64 side by side would overlap
        pixelAbove: 512,
      });
      chart.reset();
      const used = r.freqs.data.subarray((r.freqs.rows - 1) * half);
      used.forEach((theta, i) => chart.add(i + 1, (2 * Math.PI) / theta));
      const b = bands(state.headDim, state.base, r.scaling);
      const slowest = (2 * Math.PI) / used[half - 1];
      const scaled =
        r.scaling?.rope_type === 'llama3'
          ? ` The llama3 scaling keeps ${b.kept} pairs, blends ${b.blended} and slows ${b.slowed}.`
          : r.scaling
            ? ` The linear scaling slows all ${half} pairs ${shown(r.scaling.factor)} times.`
            : '';
      sentence.textContent = `Pair 1 needs ${shown((2 * Math.PI) / used[0])} positions for a turn, pair ${half} ${shown(slowest)}.${scaled}`;
      questions.slowerBase.update(r);
    },
    sync() {
      base.set(state.base);
      scaling.node.value = state.scaling;
      factor.set(state.factor);
      low.set(state.lowFreqFactor);
      high.set(state.highFreqFactor);
      original.set(state.originalMax);
    },
  };
}
