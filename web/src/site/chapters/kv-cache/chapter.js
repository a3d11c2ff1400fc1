// Chapter "The KV cache and grouped-query attention": a prompt prefilled, tokens
// decoded one at a time from a growing cache of keys and values, the same rows as
// a full recomputation (bit for bit), the work saved, query heads sharing K/V
// heads, and the cache's bytes in real models. One module per step in steps/.
import { stepChapter } from '../../lesson-kit/chapter-shell.js';
import { onOpenedModel, openedModel } from '../../lesson-kit/opened-model.js';
import { addPrerendered } from '../../math.js';
import { urlStore } from '../../url-state.js';
import { kvCacheStages, kvHeadsFor, SCHEMA } from './model.js';
import { kvCacheQuestions } from './predict.js';
import { bytesStep } from './steps/bytes-step.js';
import { cacheStep } from './steps/cache-step.js';
import { costStep } from './steps/cost-step.js';
import { decodeStep } from './steps/decode-step.js';
import { fullStep } from './steps/full-step.js';
import { gqaStep } from './steps/gqa-step.js';
import { openedStep } from './steps/opened-step.js';
import formulas from './formulas.js';
import meta from './meta.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

const SOURCES = [
  {
    text: 'Multi-query attention:',
    title: 'Fast Transformer Decoding: One Write-Head is All You Need',
    url: 'https://arxiv.org/abs/1911.02150',
    note: 'Noam Shazeer, 2019',
  },
  {
    text: 'Grouped-query attention:',
    title: 'GQA: Training Generalized Multi-Query Transformer Models from Multi-Head Checkpoints',
    url: 'https://arxiv.org/abs/2305.13245',
    note: 'Ainslie et al., 2023. The explanations here are our own; every number is computed live by the WebAssembly core',
  },
];

export default {
  ...meta, // id, title, summary

  render(root, { api, store = urlStore, signal }) {
    const opened = { current: () => openedModel()?.model ?? null };
    const { steps, real } = stepChapter(root, {
      store,
      schema: SCHEMA,
      title: meta.title,
      sources: SOURCES,
      lede: [
        'A model that writes text produces one token per step, and every step attends over all the tokens so far. Recomputing the keys and values of the whole past at each step would repeat the same arithmetic again and again; keeping them in a cache makes each step cost one row. Below: the cache filled and grown, the proof that it changes no number, what it saves, what it costs in memory, and how grouped-query attention makes it smaller.',
      ],
      build: (kit) => {
        const ctx = { ...kit, questions: kvCacheQuestions(), opened };
        const steps = [cacheStep(ctx), decodeStep(ctx), fullStep(ctx), costStep(ctx), gqaStep(ctx), bytesStep(ctx)];
        const real = openedStep(ctx, { api, opened, trace: kit.trace, root });
        return { steps, after: [real.element], real };
      },
      settle: (state) => {
        state.kvHeads = kvHeadsFor(state.heads, state.kvHeads);
      },
      stages: (state, trace) => kvCacheStages(api, state, trace),
    });
    // A lesson on a host page may see a model opened later by another lesson; the site shows one chapter at a time.
    if (signal)
      onOpenedModel(() => {
        steps[5].show();
        real.read();
      }, signal);
    real.read();
  },
};
