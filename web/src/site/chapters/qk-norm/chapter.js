// Chapter "QK-norm": logits grow with the square of the size of q and k,
// softmax saturates, and RMS-normalising q and k per head bounds them. One
// module per step in steps/ (see ../README.md); this file reads the state,
// builds the steps and recomputes.
import { stepChapter } from '../../lesson-kit/chapter-shell.js';
import { addPrerendered } from '../../math.js';
import { urlStore } from '../../url-state.js';
import { qkNormStages, SCHEMA } from './model.js';
import { qkNormQuestions } from './predict.js';
import { boundedStep } from './steps/bounded-step.js';
import { logitsStep } from './steps/logits-step.js';
import { normStep } from './steps/norm-step.js';
import { openedModelStep } from './steps/opened-model-step.js';
import { saturationStep } from './steps/saturation-step.js';
import { sizeStep } from './steps/size-step.js';
import formulas from './formulas.js';
import meta from './meta.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

const SOURCES = [
  {
    text: 'QK-norm as in',
    title: 'Dehghani et al. (2023), Scaling Vision Transformers to 22 Billion Parameters',
    url: 'https://arxiv.org/abs/2302.05442',
    note: 'There, growing attention logits made training diverge. Normalising queries and keys first appeared in Henry et al. (2020), Query-Key Normalization for Transformers',
  },
  {
    text: 'RMS normalisation from',
    title: 'Zhang & Sennrich (2019), Root Mean Square Layer Normalization',
    url: 'https://arxiv.org/abs/1910.07467',
    note: 'Applied per head to q and k in the Qwen3 Technical Report (2025) and the Gemma 3 Technical Report (2025). The explanations here are our own; every product, logit and weight is computed live by the WebAssembly core, the RMS normalisation in JavaScript',
  },
];

export default {
  ...meta, // id, title, summary

  /**
   * @param {HTMLElement} root
   * @param {{api: import('attention-lab').Attention, store?: any, signal?: AbortSignal}} context
   */
  render(root, { api, store = urlStore, signal }) {
    stepChapter(root, {
      store,
      schema: SCHEMA,
      title: meta.title,
      sources: SOURCES,
      lede: [
        'Attention compares a query with every key through a dot product, and nothing in the formula stops those dot products from growing. ',
        'This chapter makes queries and keys longer on purpose and watches softmax give up mixing, then applies the fix of recent models (Qwen3, Gemma 3): normalise q and k before they meet.',
      ],
      build: (kit) => {
        // predict, then reveal: one question per computing step
        const ctx = { ...kit, api, signal, questions: qkNormQuestions(() => kit.state.gain) };
        return {
          steps: [sizeStep(ctx), logitsStep(ctx), saturationStep(ctx), normStep(ctx), boundedStep(ctx)],
          after: [openedModelStep(ctx).element],
        };
      },
      stages: (state, trace) => qkNormStages(api, state, trace),
    });
  },
};
