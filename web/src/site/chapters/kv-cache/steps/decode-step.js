// Step 2 of the KV-cache chapter: one decode step, the newest token's query
// against every key in the cache, and its mix of the cached values.
import { el } from '../../../dom.js';
import { asInput, indexLabels, liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol, tex } from '../../../math.js';
import { formatCell } from '../../../numpy-format.js';
import { numpyRepr, tracedMap } from './shared.js';

const favourite = (r) => {
  const w = Array.from(r.stepWeights.row(0));
  return r.labels[w.indexOf(Math.max(...w))];
};

export function decodeStep(ctx) {
  const { state, edit, figures, questions } = ctx;
  const xNew = asInput(new Heatmap({ palette: 'bone', label: 'the newest token', colLabels: indexLabels(8) }));
  figures.xNew = xNew;
  const q = tracedMap(ctx, 'q', { palette: 'orange', label: 'its query q', colLabels: indexLabels(4) }, 'q = x_t W_Q');
  const weights = tracedMap(
    ctx,
    'stepWeights',
    { palette: 'purple', weights: true, label: 'weights over the cached tokens', rotateColLabels: true },
    'weights: softmax(q K_cacheᵀ / √4), one per cached token',
  );
  const out = tracedMap(
    ctx,
    'stepOut',
    { palette: 'blue', label: 'the new output row', colLabels: indexLabels(4) },
    'output: weights · V_cache',
  );
  const code = outputBlock('the decode step as NumPy prints it');
  const reseed = liveExperiment({
    label: 'another seed',
    explain: (r) =>
      `Seed ${state.seed}: the newest token weights ${favourite(r)} most. Each seed draws other tokens and projections.`,
    apply: () => edit({ seed: (state.seed + 1) % 4294967296 }, { program: true }),
  });
  const element = step({
    title: '2. One decode step: a new query against the cache',
    intro: [
      el(
        'p',
        {},
        'At step ',
        tex('t'),
        ' only the newest token ',
        tex('x_t'),
        ' goes through the projections. Its query meets all ',
        tex('t'),
        ' keys in the cache (its own key included, appended just before), and the weights mix the ',
        tex('t'),
        ' cached values into one output row. The work grows with the length of the cache, not with its square.',
      ),
    ],
    formula: `${symbol('q', 'q_t')} = x_t W_Q, \\qquad ${symbol('stepWeights', 'a_t')} = \\operatorname{softmax}\\!\\left(\\frac{${symbol('q', 'q_t')} ${symbol('cacheK', 'K_{1:t}')}^\\top}{\\sqrt{d_k}}\\right), \\qquad ${symbol('stepOut', 'o_t')} = ${symbol('stepWeights', 'a_t')} ${symbol('cacheV', 'V_{1:t}')}`,
    predict: questions.favourite,
    output: code,
    figures: [captioned(xNew, 'the newest token x_t'), q.element, weights.element, out.element],
    after: [reseed.element],
  });
  return {
    element,
    needs: ['cacheK'],
    show(r) {
      const t = r.labels.length;
      xNew.update(r.xNew, { rowLabels: [r.labels[t - 1]] });
      q.map.update(r.q, { rowLabels: [`q${t}`] });
      weights.map.update(r.stepWeights, { rowLabels: [`q${t}`], colLabels: r.labels });
      out.map.update(r.stepOut, { rowLabels: [`o${t}`] });
      code.textContent = [numpyRepr(r.stepWeights, 'weights = '), numpyRepr(r.stepOut, 'output = ')].join('\n');
      code.title = `output row = [${Array.from(r.stepOut.data, formatCell).join(', ')}]`;
      questions.favourite.update(r);
      reseed.show(r);
    },
  };
}
