// Chapter "Attention Basics": dot-product scoring, softmax and the context
// vector, following Udacity's Attention Basics notebook step by step. One module
// per step in basics/ (see README.md); this file reads the state, builds the
// steps and recomputes.
import { el } from '../../dom.js';
import { stepChapter } from '../../lesson-kit/chapter-shell.js';
import { addPrerendered } from '../../math.js';
import { urlStore } from '../../url-state.js';
import { basicsStages, SCHEMA } from './model.js';
import { basicsQuestions } from './predict.js';
import { annotationStep } from './steps/annotation-step.js';
import { annotationsStep } from './steps/annotations-step.js';
import { contextStep } from './steps/context-step.js';
import { decoderStep } from './steps/decoder-step.js';
import { scoresStep } from './steps/scores-step.js';
import { singleScoreStep } from './steps/single-score-step.js';
import { softmaxStep } from './steps/softmax-step.js';
import { weightedStep } from './steps/weighted-step.js';
import formulas from './formulas.js';
import meta from './meta.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

export default {
  ...meta, // id, title, summary

  /**
   * @param {HTMLElement} root
   * @param {{api: import('attention-lab').Attention}} context
   */
  render(root, { api, store = urlStore }) {
    stepChapter(root, {
      store,
      schema: SCHEMA,
      title: meta.title,
      sources: [
        {
          text: 'Reproduces, step by step, the',
          title: 'Attention Basics notebook of Udacity’s deep-learning course',
          url: 'https://github.com/udacity/deep-learning-v2-pytorch/blob/master/attention/Attention_Basics.ipynb',
          note: 'The explanations here are our own; every number is computed live by the WebAssembly core',
        },
      ],
      lede: [
        'A decoder producing a translation one word at a time does not have to squeeze the whole source sentence into its own state. ',
        'At each step it can look back at every encoder state (an “annotation”), decide how relevant each one is, and blend them into a context vector. ',
        'This chapter does that with three-number vectors, small enough to follow every multiplication. Edit any number: everything below it is recomputed.',
      ],
      build: (kit) => {
        const ctx = {
          ...kit,
          api,
          questions: basicsQuestions(), // predict, then reveal: one per computing step
        };
        const softmax = softmaxStep(ctx);
        const steps = [
          decoderStep(ctx),
          annotationStep(ctx),
          singleScoreStep(ctx),
          annotationsStep(ctx),
          scoresStep(ctx),
          softmax,
          weightedStep(ctx),
          contextStep(ctx),
        ];
        // A failing step shows its error in place, with a way to the explanation of overflow.
        const why = () =>
          el(
            'button',
            {
              type: 'button',
              className: 'small',
              on: { click: () => softmax.overflowHeading.scrollIntoView({ behavior: 'smooth', block: 'start' }) },
            },
            'why numbers overflow, and how softmax avoids it',
          );
        return { steps, why };
      },
      stages: (state, trace) => basicsStages(api, state, trace),
    });
  },
};
