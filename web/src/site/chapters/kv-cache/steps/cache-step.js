// Step 1 of the KV-cache chapter: the tokens, the prefill, and the cache of keys
// and values that grows by one row per decoded token.
import { el } from '../../../dom.js';
import { asInput, indexingNote, indexLabels, liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol, tex } from '../../../math.js';
import { MAX_PROMPT, MAX_STEPS, numpyLines } from '../model.js';
import { intField, tracedMap } from './shared.js';

/** Whether the first rows of `now` are the same bits as all of `before` (the cache before one more token). */
const keeps = (before, now) =>
  before !== null && before.rows < now.rows && before.data.every((x, k) => Object.is(x, now.data[k]));

function growText({ state }, r, before) {
  if (keeps(before, r.cacheK))
    return `The cache grew from ${before.rows} to ${r.cacheK.rows} rows, and its first ${before.rows} rows are the same bits as before; the step computed only the new row.`;
  if (state.steps >= MAX_STEPS)
    return `The chapter decodes at most ${MAX_STEPS} tokens: the cache holds ${r.cacheK.rows} rows now.`;
  return `Decodes token ${state.prompt + state.steps + 1} too: the cache gets row ${r.cacheK.rows + 1}.`;
}

export function cacheStep(ctx) {
  const { state, edit, figures, questions } = ctx;
  const fields = {
    seed: intField('seed', state.seed, 0, 4294967295, (seed) => edit({ seed })),
    prompt: intField('prompt tokens', state.prompt, 1, MAX_PROMPT, (prompt) => edit({ prompt })),
    steps: intField('decode steps', state.steps, 1, MAX_STEPS, (steps) => edit({ steps })),
  };
  const tokens = asInput(new Heatmap({ palette: 'bone', label: 'tokens X, one row each', colLabels: indexLabels(8) }));
  figures.tokens = tokens;
  const K = tracedMap(
    ctx,
    'cacheK',
    { palette: 'green', label: 'K cache, one row per token', colLabels: indexLabels(4) },
    'K cache: row i is k_i = x_i W_K',
  );
  const V = tracedMap(
    ctx,
    'cacheV',
    { palette: 'blue', label: 'V cache, one row per token', colLabels: indexLabels(4) },
    'V cache: row i is v_i = x_i W_V',
  );
  const code = outputBlock('the inputs as NumPy draws them');
  const growth = el('p', { className: 'worked' });
  let before = null; // the K cache shown last, to check what one more token changes
  const grow = liveExperiment({
    label: 'decode one more token',
    explain: (r) => growText(ctx, r, before),
    apply: () => edit({ steps: Math.min(MAX_STEPS, state.steps + 1) }, { program: true }),
  });
  const element = step({
    title: '1. Prefill, then decode: the cache grows',
    intro: [
      el(
        'p',
        {},
        'A language model writes one token at a time, and each new token attends to every token before it. Its query is new, but the keys and values of the earlier tokens are the same as at the previous step: a token’s ',
        tex('k_i = x_i W_K'),
        ' depends on that token alone (in one layer; deeper layers too, since causal attention never lets an earlier token see a later one). So they are kept, in the ',
        el('strong', {}, 'KV cache'),
        '.',
      ),
      'Generation has two phases. The prefill runs the whole prompt at once and fills the cache with one row per prompt token. Then every decode step computes one token’s query, key and value, appends the key and value to the cache, and attends over it. Here the tokens are random 8-number vectors (a real model’s would come from its embeddings and earlier layers), and one attention head of width 4 reads them. Rows marked * are generated ones.',
      indexingNote(),
    ],
    formula: `${symbol('cacheK', 'K_{1:t}')} = \\begin{bmatrix} ${symbol('cacheK', 'K_{1:t-1}')} \\\\ x_t W_K \\end{bmatrix}, \\qquad ${symbol('cacheV', 'V_{1:t}')} = \\begin{bmatrix} ${symbol('cacheV', 'V_{1:t-1}')} \\\\ x_t W_V \\end{bmatrix}`,
    controls: [fields.seed.element, fields.prompt.element, fields.steps.element],
    predict: questions.rowsPerStep,
    output: code,
    figures: [captioned(tokens, 'tokens X: one row each (* generated)'), K.element, V.element],
    after: [growth, grow.element],
  });
  return {
    element,
    needs: ['cacheK'],
    show(r) {
      tokens.update(r.X, { rowLabels: r.labels });
      K.map.update(r.cacheK, { rowLabels: r.labels });
      V.map.update(r.cacheV, { rowLabels: r.labels });
      code.textContent = numpyLines(state);
      const sizes = [state.prompt, ...r.loop.steps.map((s) => s.cacheRows)];
      growth.textContent = `Rows in the cache: ${sizes.map((n, i) => (i === 0 ? `${n} after the prefill` : `${n} after step ${i}`)).join(', ')}. Rows computed: ${r.loop.rowsComputed.join(', ')}.`;
      questions.rowsPerStep.update(r);
      grow.show(r);
      before = r.cacheK;
    },
    sync() {
      for (const [key, field] of Object.entries(fields)) field.set(state[key]);
    },
  };
}
