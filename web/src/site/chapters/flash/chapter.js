// Chapter "Online softmax and FlashAttention": attention computed over blocks of
// keys with a running maximum and sum, drawn block by block, compared with the
// full softmax to the bit, and the memory each way holds. Steps in steps/.
import { stepChapter } from '../../lesson-kit/chapter-shell.js';
import { addPrerendered } from '../../math.js';
import { urlStore } from '../../url-state.js';
import { flashStages, SCHEMA } from './model.js';
import { flashQuestions } from './predict.js';
import { equalStep } from './steps/equal-step.js';
import { memoryStep } from './steps/memory-step.js';
import { runningStep } from './steps/running-step.js';
import { tilesStep } from './steps/tiles-step.js';
import formulas from './formulas.js';
import meta from './meta.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

const SOURCES = [
  {
    text: 'The online softmax:',
    title: 'Online normalizer calculation for softmax',
    url: 'https://arxiv.org/abs/1805.02867',
    note: 'Maxim Milakov and Natalia Gimelshein, 2018',
  },
  {
    text: 'Blocks of keys and values kept on chip:',
    title: 'FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness',
    url: 'https://arxiv.org/abs/2205.14135',
    note: 'Dao et al., 2022. The explanations here are our own; every number is computed live by the WebAssembly core',
  },
];

export default {
  ...meta, // id, title, summary

  render(root, { api, store = urlStore }) {
    stepChapter(root, {
      store,
      schema: SCHEMA,
      title: meta.title,
      sources: SOURCES,
      lede: [
        'Attention’s softmax seems to need every score of a row before it can produce a single weight. It does not: a running maximum and a running sum, corrected as each new block of keys arrives, give the same result in one pass over the keys. That is the idea behind FlashAttention, which never writes the N × N weight matrix to memory.',
      ],
      build: (kit) => {
        const ctx = { ...kit, questions: flashQuestions() };
        return { steps: [tilesStep(ctx), runningStep(ctx), equalStep(ctx), memoryStep(ctx)] };
      },
      stages: (state, trace) => flashStages(api, state, trace),
    });
  },
};
