// Step 4 of the KV-cache chapter: multiply-adds per generated token with and
// without the cache, counted for this head and charted over a long context.
import { el } from '../../../dom.js';
import { liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { LineChart } from '../../../figures/line-chart.js';
import { tex } from '../../../math.js';
import { D_K, D_MODEL, MAX_CONTEXT, totals, withCache, withoutCache } from '../model.js';
import { intField, thousands } from './shared.js';

const POINTS = 200; // points of the ratio curve, spread over 1 … context

export function costStep(ctx) {
  const { state, edit, questions } = ctx;
  const context = intField('context length', state.context, 1, MAX_CONTEXT, (c) => edit({ context: c }));
  const chart = new LineChart({
    label: 'multiply-adds per token, recomputing over cached, against the token’s position',
    caption: 'recomputing ÷ cached, per token (log scale): it grows like t',
    logY: true,
    xName: 'token',
  });
  const table = outputBlock('multiply-adds per decode step');
  const summary = el('p', { className: 'worked' });
  const longer = liveExperiment({
    label: 'a 32,768-token context',
    explain: () => {
      const { cached, recomputed } = { cached: withCache(state.context), recomputed: withoutCache(state.context) };
      return `At token ${thousands(state.context)} the cached step costs ${thousands(cached)} multiply-adds and recomputing ${thousands(recomputed)}: ${thousands(Math.round(recomputed / cached))} times as many.`;
    },
    apply: () => edit({ context: 32768 }, { program: true }),
  });
  const element = step({
    title: '4. The cost per step, with and without the cache',
    intro: [
      el(
        'p',
        {},
        'Counting the multiply-adds of this one head (tokens of width ',
        tex(`d = ${D_MODEL}`),
        ', head width ',
        tex(`d_k = ${D_K}`),
        ', only the key positions causal attention uses): with the cache, token ',
        tex('t'),
        ' costs its own three projections and one row of ',
        tex('t'),
        ' scores and ',
        tex('t'),
        ' weighted values. Recomputing costs the projections of all ',
        tex('t'),
        ' tokens and every visible pair, about ',
        tex('t^2/2'),
        ' of them. The cache turns a cost quadratic in the position into a linear one; its price is memory, the subject of steps 5 and 6.',
      ),
    ],
    formula: [
      `\\text{cached}(t) = 3\\,d\\,d_k + 2\\,t\\,d_k`,
      `\\text{recomputed}(t) = 3\\,t\\,d\\,d_k + t(t+1)\\,d_k`,
    ],
    controls: [context.element],
    predict: questions.costRatio,
    output: table,
    figures: [chart.element],
    after: [summary, longer.element],
  });
  return {
    element,
    needs: ['cacheK'],
    show(r) {
      table.textContent = [
        'token   cached   recomputed   ratio',
        ...r.costs.map(
          (c) =>
            `${String(c.t).padStart(5)} ${String(c.cached).padStart(8)} ${String(c.recomputed).padStart(12)}   ${(c.recomputed / c.cached).toFixed(2)}×`,
        ),
      ].join('\n');
      chart.reset();
      const n = state.context;
      for (let i = 0; i < POINTS; i++) {
        const t = Math.max(1, Math.round(1 + ((n - 1) * i) / (POINTS - 1)));
        if (i > 0 && t === chart.points.at(-1)?.[0]) continue;
        chart.points.push([t, withoutCache(t) / withCache(t)]);
      }
      chart.draw();
      const sum = totals(n);
      summary.textContent = `Generating ${thousands(n)} tokens one by one: ${thousands(sum.cached)} multiply-adds with the cache, ${thousands(sum.recomputed)} without (${thousands(Math.round(Number(sum.recomputed) / Number(sum.cached)))}×).`;
      questions.costRatio.update(r);
      longer.show(r);
    },
    sync: () => context.set(state.context),
  };
}
