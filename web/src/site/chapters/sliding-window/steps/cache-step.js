// Step 4 of the sliding-window chapter: a cache that keeps only the last W tokens
// against one that also keeps the first s (StreamingLLM), on the opened model:
// the next-token distribution of each against the full context's.
import { el } from '../../../dom.js';
import { liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { shown } from '../../../explain/format.js';
import { openedModelView } from '../../../lesson-kit/opened-model.js';
import { cacheComparison } from '../model.js';
import { LONG_TEXT, modelIds } from './sinks-step.js';
import { intField, remountableView } from './shared.js';

const quote = (token) => JSON.stringify(token);

function report(c) {
  const line = (name, r) =>
    `${name.padEnd(22)} ${String(r.kept).padStart(2)} tokens  top-1 ${quote(r.top.token)} (p ${shown(r.top.p)})  TV to full ${r.tv === 0 ? '0' : shown(r.tv)}`;
  return [
    `${c.T} tokens read; the full context's top-1 is ${quote(c.full.top.token)} (p ${shown(c.full.top.p)}).`,
    line('full context', c.full),
    line(`last ${c.window}`, c.recent),
    line(`first ${c.sinks} + last ${c.window}`, c.streaming),
  ].join('\n');
}

export function cacheStep(ctx) {
  const { state, edit, questions, signal } = ctx;
  const fields = {
    cacheWindow: intField('recent tokens kept W', state.cacheWindow, 1, 48, (cacheWindow) => edit({ cacheWindow })),
    cacheSinks: intField('first tokens kept s', state.cacheSinks, 0, 8, (cacheSinks) => edit({ cacheSinks })),
  };
  let shownFor = null;
  const streaming = liveExperiment({
    label: 'keep no first tokens',
    explain: (c) =>
      c
        ? `With s = ${c.sinks}: the window alone is ${shown(c.recent.tv)} from the full context in total variation, the window with the first ${c.sinks} ${shown(c.streaming.tv)}.`
        : 'Open a model in the model chapter first.',
    apply: () => edit({ cacheSinks: 0 }, { program: true }),
  });
  const view = remountableView(openedModelView, signal, () => ({
    empty: 'Open a model in the chapter “Open a real model”: this step then runs it on a longer text three ways.',
    accepts: (model) => typeof model.runIds === 'function' && model.family !== 'bert',
    refused: (model) => `The ${model.family} model open now reads in both directions; it has no next-token cache.`,
    question: questions.streaming,
    show: async ({ model }) => {
      const ids = await modelIds(model, LONG_TEXT);
      const c = await cacheComparison(model, ids, state.cacheWindow, state.cacheSinks);
      const out = outputBlock('the next-token distribution three ways');
      out.textContent = report(c);
      streaming.show(c);
      return { nodes: [out], data: c };
    },
  }));
  view.remount();
  const element = step({
    title: '4. A cache that keeps only a window',
    intro: [
      el(
        'p',
        {},
        'A windowed model needs to cache only the last W keys and values. What if a model trained with full attention is run that way, dropping every older token? StreamingLLM (Xiao et al., 2023) showed that it breaks down, and that keeping the first few tokens, the sinks, as well as the recent window restores it. Here the model you opened reads a longer text (cut to its positions, at most 64 tokens) three ways: all of it, only the last W tokens, and the first s tokens followed by the last W, numbered 1, 2, … within what is kept, as StreamingLLM does. Each next-token distribution is compared with the full context’s by the total variation distance, half the sum of the absolute differences (0: the same; 1: no overlap).',
      ),
    ],
    formula: '\\operatorname{TV}(p, q) = \\tfrac{1}{2} \\sum_{t} \\lvert p_t - q_t \\rvert',
    controls: [fields.cacheWindow.element, fields.cacheSinks.element],
    after: [view.element(), streaming.element],
  });
  return {
    element,
    needs: [],
    show() {
      const key = `${state.cacheWindow},${state.cacheSinks}`;
      if (shownFor !== null && shownFor !== key) view.remount();
      shownFor = key;
    },
    sync() {
      for (const [k, field] of Object.entries(fields)) field.set(state[k]);
    },
  };
}
