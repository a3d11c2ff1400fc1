// Chapter "Online softmax and FlashAttention": attention computed over blocks of
// keys with a running maximum and sum, drawn block by block, compared with the
// full softmax to the bit, and the memory each way holds. Steps in steps/.
import { el } from '../../dom.js';
import { credit, errorLine, guarded, inputEditor, showSteps } from '../../chapter-kit.js';
import { tracedFigures } from '../../explain/trace.js';
import { addPrerendered } from '../../math.js';
import { linkFormulas } from '../../formula-links.js';
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

function credits() {
  return [
    credit({
      text: 'The online softmax:',
      title: 'Online normalizer calculation for softmax',
      url: 'https://arxiv.org/abs/1805.02867',
      note: 'Maxim Milakov and Natalia Gimelshein, 2018',
    }),
    credit({
      text: 'Blocks of keys and values kept on chip:',
      title: 'FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness',
      url: 'https://arxiv.org/abs/2205.14135',
      note: 'Dao et al., 2022. The explanations here are our own; every number is computed live by the WebAssembly core',
    }),
  ];
}

export default {
  ...meta, // id, title, summary

  render(root, { api, store = urlStore }) {
    const state = { ...store.readState(SCHEMA) };
    const { trace, figures, story } = tracedFigures();
    const edit = inputEditor(
      state,
      () => steps,
      () => update(),
    );
    const ctx = { state, edit, figures, story, questions: flashQuestions() };
    const steps = [tilesStep(ctx), runningStep(ctx), equalStep(ctx), memoryStep(ctx)];
    const error = errorLine();

    function update() {
      guarded(error, () => {
        const run = flashStages(api, state, trace);
        showSteps(steps, run.r, run.failures);
        store.writeState(SCHEMA, state);
      });
    }

    root.append(
      el('h1', { className: 'chapter-title' }, meta.title),
      ...credits(),
      el(
        'p',
        { className: 'lede' },
        'Attention’s softmax seems to need every score of a row before it can produce a single weight. It does not: a running maximum and a running sum, corrected as each new block of keys arrives, give the same result in one pass over the keys. That is the idea behind FlashAttention, which never writes the N × N weight matrix to memory.',
      ),
      ...steps.map((s) => s.element),
      error,
    );
    linkFormulas(root, figures);
    update();
  },
};
