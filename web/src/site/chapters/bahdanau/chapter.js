// Chapter "Bahdanau additive attention": the alignment network of Bahdanau et
// al. (2014) computed step by step with random NumPy-exact inputs, following a
// NumPy walk-through of the paper (seed 42, 5 encoder steps, 16 hidden units,
// attention size 10). One module per step in bahdanau/ (see README.md); this
// file reads the state, builds the steps and recomputes.
import { stepChapter } from '../../lesson-kit/chapter-shell.js';
import { addPrerendered } from '../../math.js';
import { urlStore } from '../../url-state.js';
import { bahdanauAttention, SCHEMA } from './model.js';
import { bahdanauQuestions } from './predict.js';
import { compareStep } from './steps/compare-step.js';
import { contextStep } from './steps/context-step.js';
import { layer1Step } from './steps/layer1-step.js';
import { pairsStep } from './steps/pairs-step.js';
import { scoresStep } from './steps/scores-step.js';
import { sizesStep } from './steps/sizes-step.js';
import { softmaxStep } from './steps/softmax-step.js';
import { statesStep } from './steps/states-step.js';
import { weightedStep } from './steps/weighted-step.js';
import { whyStep } from './steps/why-step.js';
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
          text: 'The attention mechanism of',
          title:
            'Bahdanau, Cho and Bengio (2014), “Neural Machine Translation by Jointly Learning to Align and Translate”',
          url: 'https://arxiv.org/abs/1409.0473',
          note: 'Appendix A of the paper defines the alignment model computed here',
        },
        {
          text: 'Reproduces the numbers of a NumPy walk-through of that paper written after',
          title: 'DeepLearning.AI’s course “Natural Language Processing with Attention Models”',
          url: 'https://www.coursera.org/learn/attention-models-in-nlp',
          note: 'Same seed, sizes and draws; the explanations here are our own and every number is computed live by the WebAssembly core',
        },
      ],
      lede: [
        'A plain encoder–decoder network hands the decoder one fixed-size vector for the whole source sentence, and long sentences do not fit. ',
        'Bahdanau attention lets the decoder look back at every encoder state instead: at each output step a tiny neural network rates how well each encoder state matches what the decoder needs now, ',
        'and the decoder receives a blend of the encoder states weighted by those ratings. Here that network runs on random inputs, drawn exactly as NumPy draws them, so you can compare every number with the original NumPy code.',
      ],
      build: (kit) => {
        const ctx = { ...kit, questions: bahdanauQuestions() };
        return {
          steps: [
            whyStep(),
            sizesStep(ctx),
            statesStep(ctx),
            pairsStep(ctx),
            layer1Step(ctx),
            scoresStep(ctx),
            softmaxStep(ctx),
            weightedStep(ctx),
            contextStep(ctx),
            compareStep(ctx),
          ],
        };
      },
      // One computation, no stages: it shows every step or the error line.
      stages: (state, trace) => ({ r: bahdanauAttention(api, state, trace), failures: {} }),
    });
  },
};
