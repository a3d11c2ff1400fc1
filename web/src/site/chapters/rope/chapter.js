// Chapter "Rotary position embeddings": q's coordinates in pairs, each turning
// with the position at its own frequency; the spectrum of frequencies and its
// scalings; scores that depend only on m − n; the two pairing layouts; a real
// model's q. One module per step in steps/ (see ../README.md); this file reads
// the state, builds the steps and recomputes.
import { stepChapter } from '../../lesson-kit/chapter-shell.js';
import { addPrerendered } from '../../math.js';
import { urlStore } from '../../url-state.js';
import { ropeStages, SCHEMA } from './model.js';
import { ropeQuestions } from './predict.js';
import { openedModelStep } from './steps/opened-model-step.js';
import { pairingStep } from './steps/pairing-step.js';
import { pairsStep } from './steps/pairs-step.js';
import { relativeStep } from './steps/relative-step.js';
import { spectrumStep } from './steps/spectrum-step.js';
import formulas from './formulas.js';
import meta from './meta.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

const SOURCES = [
  {
    text: 'RoPE is from',
    title: 'Su et al. (2021), RoFormer: Enhanced Transformer with Rotary Position Embedding',
    url: 'https://arxiv.org/abs/2104.09864',
  },
  {
    text: 'rope_theta 500,000 and the llama3 scaling as in',
    title: 'Grattafiori et al. (2024), The Llama 3 Herd of Models',
    url: 'https://arxiv.org/abs/2407.21783',
    note: 'The scaling’s three bands follow the rule Hugging Face transformers applies to a config’s rope_scaling. The explanations here are our own; every rotation and score is computed live by the WebAssembly core',
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
        'The Transformer of 2017 added a position vector to every token. Most open language models of recent years (Llama, Mistral, Qwen, Gemma, SmolLM) instead turn the query and the key by an angle that grows with the position. ',
        'This chapter takes one query and one key apart pair by pair, shows why the turned vectors score each other by their distance alone, and ends in the model you open.',
      ],
      build: (kit) => {
        const ctx = { ...kit, api, signal, questions: ropeQuestions() };
        return {
          steps: [pairsStep(ctx), spectrumStep(ctx), relativeStep(ctx), pairingStep(ctx)],
          after: [openedModelStep(ctx).element],
        };
      },
      stages: (state, trace) => ropeStages(api, state, trace),
    });
  },
};
