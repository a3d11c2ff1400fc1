// Step 1 of the QK-norm chapter: queries and keys drawn from a seed, times a size s.
import { el } from '../../../dom.js';
import { asInput, indexingNote, indexLabels, liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { shown } from '../../../explain/format.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol } from '../../../math.js';
import { DIMS } from '../model.js';
import { K, numberField, numberSelect, numpyLines, Q, tokens } from './shared.js';

const rowNorm = (m, i) => Math.hypot(...m.row(i));

export function sizeStep(ctx) {
  const { state, edit, figures, story, questions } = ctx;
  const inputs = {};
  const maps = {};
  for (const [name, palette, what] of [
    ['Q0', 'bone', 'queries before the size'],
    ['K0', 'bone', 'keys before the size'],
  ]) {
    inputs[name] = asInput(new Heatmap({ palette, label: `${name}: ${what}`, annotate: false }));
    figures[name] = inputs[name];
  }
  for (const [name, palette, what] of [
    ['Q', 'orange', 'queries Q = s·Q₀'],
    ['K', 'green', 'keys K = s·K₀'],
  ]) {
    maps[name] = new Heatmap({ palette, label: what, annotate: false, explain: story(name) });
    figures[name] = maps[name];
  }
  const seed = numberField('seed', state.seed, { min: 0, max: 4294967295, integer: true }, (x) => edit({ seed: x }));
  const dim = numberSelect('head size d', DIMS, state.headDim, (d) => edit({ headDim: d }));
  const n = numberField('tokens n', state.tokens, { min: 2, max: 8, integer: true }, (x) => edit({ tokens: x }));
  const size = numberField('size s', state.size, { min: 0.25, max: 16, step: 0.25 }, (x) => edit({ size: x }));
  const tryLarge = liveExperiment({
    label: 's = 4',
    explain: (r) =>
      state.size === 4
        ? `s = 4: every query is 4 times as long as q₀; ‖q1‖ = ${shown(rowNorm(r.Q, 0))}.`
        : 'Makes every query and key 4 times longer; watch the logits and the weights below.',
    apply: () => edit({ size: 4 }, { program: true }),
  });
  const code = outputBlock('the NumPy lines that reproduce these numbers');
  const sentence = el('p', { className: 'live-sentence' });
  const element = step({
    title: '1. Queries and keys, and their size',
    intro: [
      el(
        'p',
        {},
        'In a trained model nothing holds the length of a head’s queries and keys in place: the weights that project them can grow during training, and with them q and k. ',
        'To watch what that does, draw one query and one key per token from a seed (NumPy’s ',
        el('code', {}, 'RandomState(seed).randn'),
        ', three draws: Q₀, K₀ and the values V) and multiply them by one size s.',
      ),
      indexingNote(),
    ],
    formula: `${Q} = s\\,${symbol('Q0', 'Q_0')}, \\qquad ${K} = s\\,${symbol('K0', 'K_0')}`,
    controls: [seed.element, dim.element, n.element, size.element],
    predict: questions.longestQuery,
    output: code,
    figures: [
      captioned(inputs.Q0, 'Q₀: one row per token, drawn'),
      captioned(maps.Q, 'Q = s·Q₀'),
      captioned(inputs.K0, 'K₀: drawn'),
      captioned(maps.K, 'K = s·K₀'),
    ],
    after: [sentence, tryLarge.element],
  });
  return {
    element,
    needs: ['Q', 'K'],
    show(r) {
      const labels = tokens(state.tokens);
      const cols = indexLabels(state.headDim);
      inputs.Q0.update(r.Q0, { rowLabels: labels, colLabels: cols });
      inputs.K0.update(r.K0, { rowLabels: labels, colLabels: cols });
      maps.Q.update(r.Q, { rowLabels: labels, colLabels: cols });
      maps.K.update(r.K, { rowLabels: labels, colLabels: cols });
      code.textContent = numpyLines(state);
      const top = (m) => Math.max(...Array.from(m.data, Math.abs));
      sentence.textContent = `Each figure has its own colour scale, so Q looks like Q₀: read the colour bars. The largest |entry| of Q₀ is ${shown(top(r.Q0))}, of Q ${shown(top(r.Q))}; ‖q1‖ = ${shown(rowNorm(r.Q, 0))}.`;
      questions.longestQuery.update(r);
      tryLarge.show(r);
    },
    sync() {
      seed.set(state.seed);
      dim.node.value = String(state.headDim);
      n.set(state.tokens);
      size.set(state.size);
    },
  };
}
