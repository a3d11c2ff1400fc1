// Step 1 of the sliding-window chapter: causal attention that sees only the last
// W keys; the weights outside the window are masked to 0.
import { el } from '../../../dom.js';
import { asInput, indexingNote, indexLabels, liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol, tex } from '../../../math.js';
import { MAX_LENGTH, numpyLines, visible } from '../model.js';
import { intField, tracedMap } from './shared.js';

export function windowStep(ctx) {
  const { state, edit, figures, questions } = ctx;
  const fields = {
    seed: intField('seed', state.seed, 0, 4294967295, (seed) => edit({ seed })),
    length: intField('tokens', state.length, 2, MAX_LENGTH, (length) => edit({ length })),
    window: intField('window W', state.window, 1, MAX_LENGTH, (window) => edit({ window })),
  };
  const inputs = ['Q', 'K', 'V'].map((name) => {
    const map = asInput(
      new Heatmap({ palette: 'bone', label: `${name}, one row per token`, colLabels: indexLabels(4) }),
    );
    figures[name] = map;
    return map;
  });
  const S = tracedMap(
    ctx,
    'scaled',
    { palette: 'orange', label: 'scaled scores, the keys outside the window hatched', colLabelsOnTop: true },
    'S̃ = Q Kᵀ / √4: hatched where the window hides the key',
  );
  const A = tracedMap(
    ctx,
    'weights',
    { palette: 'purple', label: 'windowed attention weights', colLabelsOnTop: true, vmin: 0, vmax: 1 },
    'A: softmax over the keys in the window; 0 elsewhere',
  );
  const code = outputBlock('the inputs and the window as NumPy writes them');
  const band = el('p', { className: 'worked' });
  const narrow = liveExperiment({
    label: 'a window of 1',
    explain: (r) =>
      state.window === 1
        ? `Window 1: every query sees only its own key, so every weight on the diagonal is ${r.weights.get(0, 0)} and the output is V itself.`
        : 'Sets W = 1: each query sees only itself.',
    apply: () => edit({ window: 1 }, { program: true }),
  });
  const element = step({
    title: '1. The window mask',
    intro: [
      el(
        'p',
        {},
        'Causal attention lets query ',
        tex('i'),
        ' read every key up to itself, so the work and the cache grow with the whole text. A sliding window keeps only the last ',
        tex('W'),
        ' keys: key ',
        tex('j'),
        ' is visible from query ',
        tex('i'),
        ' when ',
        tex('i - W < j \\le i'),
        '. Longformer (Beltagy et al., 2020) used such local windows; Mistral 7B uses a window of 4,096 in every layer, and Gemma 2 and 3 alternate windowed layers with full ones. Below, random queries, keys and values (4 numbers each), their scaled scores with the hidden keys hatched, and the weights: each row sums to 1 over at most ',
        tex('W'),
        ' keys.',
      ),
      indexingNote(),
    ],
    formula: [
      `${symbol('weights', 'A')}_{ij} = \\frac{e^{${symbol('scaled', '\\tilde S')}_{ij}}}{\\sum_{i - W < j' \\le i} e^{\\tilde S_{ij'}}} \\text{ for } i - W < j \\le i`,
      'A_{ij} = 0 \\text{ otherwise}',
    ],
    controls: [fields.seed.element, fields.length.element, fields.window.element],
    predict: questions.keysSeen,
    output: code,
    figures: [...inputs.map((map, i) => captioned(map, `${'QKV'[i]}: one row per token`)), S.element, A.element],
    after: [band, narrow.element],
  });
  return {
    element,
    needs: ['weights'],
    show(r) {
      for (const [i, name] of ['Q', 'K', 'V'].entries()) inputs[i].update(r[name], { rowLabels: r.labels });
      const see = visible(state.window);
      const hidden = (i, j) => !see(i, j);
      S.map.update(r.scaled, { rowLabels: r.labels, colLabels: r.labels, isMasked: hidden });
      A.map.update(r.weights, { rowLabels: r.labels, colLabels: r.labels, isMasked: hidden });
      code.textContent = numpyLines(state);
      const kept = Math.min(state.window, state.length);
      band.textContent = `Window ${state.window}: query ${state.length} sees keys ${state.length - kept + 1} to ${state.length}; ${state.window >= state.length ? 'the window is as long as the text, so this is plain causal attention.' : `a band ${kept} wide along the diagonal; the first ${kept - 1} ${kept - 1 === 1 ? 'query sees' : 'queries see'} fewer keys because fewer exist.`}`;
      questions.keysSeen.update(r);
      narrow.show(r);
    },
    sync() {
      for (const [key, field] of Object.entries(fields)) field.set(state[key]);
    },
  };
}
