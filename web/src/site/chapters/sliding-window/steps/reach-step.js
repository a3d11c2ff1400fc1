// Step 2 of the sliding-window chapter: how far back information reaches after
// L layers: the window as a 0/1 matrix M and M^L, whose entries count chains.
import { el } from '../../../dom.js';
import { asInput, liveExperiment, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol, tex } from '../../../math.js';
import { earliestReached, firstNonzero, MAX_LAYERS } from '../model.js';
import { intField, tracedMap } from './shared.js';

/** The fewest layers after which the last token reaches token 1 (null when W = 1: never). */
const layersToReachStart = (length, window) => (window === 1 ? null : Math.ceil((length - 1) / (window - 1)));

export function reachStep(ctx) {
  const { state, edit, figures, questions } = ctx;
  const layers = intField('layers L', state.layers, 1, MAX_LAYERS, (l) => edit({ layers: l }));
  const M = asInput(new Heatmap({ palette: 'green', label: 'the window M as 0 and 1', colLabelsOnTop: true }));
  figures.M = M;
  const P = tracedMap(
    ctx,
    'reach',
    { palette: 'blue', label: 'reach after L layers, M to the power L', colLabelsOnTop: true },
    'M to the power L: chains of L windowed steps from token i back to token j; hatched where there is none',
  );
  const summary = el('p', { className: 'worked' });
  const whole = liveExperiment({
    label: 'just enough layers to reach token 1',
    explain: (r) => {
      const need = layersToReachStart(r.length, r.window);
      if (need === null) return 'With W = 1 no number of layers reaches back: every token only ever reads itself.';
      if (need > MAX_LAYERS)
        return `It takes ${need} layers, more than the ${MAX_LAYERS} this page computes; widen the window.`;
      return `Token 1 needs ⌈(${r.length} − 1) / (${r.window} − 1)⌉ = ${need} ${need === 1 ? 'layer' : 'layers'}; with L = ${r.layers}, token ${r.length} reaches back to token ${firstNonzero(r.reach, r.length - 1)}.`;
    },
    apply: () => {
      const need = layersToReachStart(state.length, state.window);
      if (need !== null) edit({ layers: Math.min(need, MAX_LAYERS) }, { program: true });
    },
  });
  const element = step({
    title: '2. How far information reaches after L layers',
    intro: [
      el(
        'p',
        {},
        'One layer moves information at most ',
        tex('W - 1'),
        ' tokens forward. But the next layer’s query at token ',
        tex('i'),
        ' reads keys that were themselves computed from a window, so the reach adds up: after ',
        tex('L'),
        ' layers, token ',
        tex('i'),
        ' can hold information from as far back as ',
        tex('i - L(W-1)'),
        '. This is how a Mistral-style stack sees beyond its window (the receptive field of stacked convolutions works the same way). Count it with matrices: write the window as ',
        tex('M'),
        ' (1 where a key is visible) and multiply. Entry ',
        tex('(i, j)'),
        ' of ',
        tex('M^L'),
        ' counts the chains ',
        tex('i \\to \\dots \\to j'),
        ' of ',
        tex('L'),
        ' windowed steps; information from ',
        tex('j'),
        ' can arrive at ',
        tex('i'),
        ' exactly when that count is above 0. The count says only that a path exists, not how much of the signal survives it.',
      ),
    ],
    formula: [
      `${symbol('reach', 'M^L')} = ${symbol('M', 'M')} \\cdot M^{L-1}, \\qquad M^0 = I`,
      'M_{ij} = 1 \\text{ when } i - W < j \\le i, \\text{ else } 0',
    ],
    controls: [layers.element],
    predict: questions.reachesBack,
    figures: [captioned(M, 'M: 1 where key j is in query i’s window'), P.element],
    after: [summary, whole.element],
  });
  return {
    element,
    needs: ['reach'],
    show(r) {
      const pairs = { rowLabels: r.labels, colLabels: r.labels };
      M.update(r.M, pairs);
      P.map.update(r.reach, { ...pairs, isMasked: (i, j) => r.reach.get(i, j) === 0 });
      const first = firstNonzero(r.reach, r.length - 1);
      const rule = earliestReached(r.length, r.window, r.layers);
      summary.textContent = `After ${r.layers} ${r.layers === 1 ? 'layer' : 'layers'} of window ${r.window}, token ${r.length} can hold information from token ${first} on (the first nonzero entry of its row); the rule max(1, i − L(W − 1)) = max(1, ${r.length} − ${r.layers}·${r.window - 1}) gives ${rule}${first === rule ? ', the same' : ''}. The largest count in that row is ${Math.max(...r.reach.row(r.length - 1))} chains.`;
      questions.reachesBack.update(r);
      whole.show(r);
    },
    sync() {
      layers.set(state.layers);
    },
  };
}
