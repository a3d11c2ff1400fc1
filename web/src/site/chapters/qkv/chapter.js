// Chapter "Q/K/V attention from scratch": four tiny word vectors, random
// integer projections W_Q, W_K, W_V (NumPy-exact, seed 42), and the general
// attention mechanism computed one matrix at a time. One module per step in
// qkv/ (see README.md); this file reads the state, builds the steps and recomputes.
import { el } from '../../dom.js';
import { credit, errorLine, guarded, inputEditor, showSteps } from '../../chapter-kit.js';
import { tracedFigures } from '../../explain/trace.js';
import { addPrerendered } from '../../math.js';
import { linkFormulas } from '../../formula-links.js';
import { urlStore } from '../../url-state.js';
import { SCHEMA, WEIGHT_KEYS, drawWeights, qkvStages, resolveWeights } from './model.js';
import { qkvQuestions } from './predict.js';
import { outputStep } from './steps/output-step.js';
import { projectedStep } from './steps/projected-step.js';
import { projectionsStep } from './steps/projections-step.js';
import { scoresStep } from './steps/scores-step.js';
import { softmaxStep } from './steps/softmax-step.js';
import { wordsStep } from './steps/words-step.js';
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
    const read = store.readState(SCHEMA);
    const weights = resolveWeights(api, read);
    const state = { seed: read.seed, words: read.words, WQ: weights.WQ, WK: weights.WK, WV: weights.WV };
    // Weights typed by the reader go into the URL; drawn ones follow from the seed.
    let customWeights = weights.custom;
    const save = () =>
      store.writeState(SCHEMA, {
        ...state,
        ...Object.fromEntries(WEIGHT_KEYS.map((k) => [k, customWeights ? state[k] : null])),
      });
    const { trace, figures, story } = tracedFigures(); // every figure explains its cells from the trace
    const setInputs = inputEditor(
      state,
      () => steps,
      () => update(),
    );
    /** inputEditor's edit, and `custom`: whether the weights are now typed (they go into the URL) or drawn. */
    const edit = (next, { custom, ...options } = {}) => {
      if (custom !== undefined) customWeights = custom;
      setInputs(next, options);
    };
    const ctx = {
      state,
      edit,
      figures,
      story,
      questions: qkvQuestions(), // predict, then reveal: one per computing step
      redraw: (seed) => edit({ seed, ...drawWeights(api, seed) }, { program: true, custom: false }),
    };
    const steps = [
      wordsStep(ctx),
      projectionsStep(ctx),
      projectedStep(ctx),
      scoresStep(ctx),
      softmaxStep(ctx),
      outputStep(ctx),
    ];
    const error = errorLine();

    function update() {
      guarded(error, () => {
        const run = qkvStages(api, state.words, state.WQ, state.WK, state.WV, trace);
        showSteps(steps, run.r, run.failures);
        save();
      });
    }

    root.append(
      el('h1', { className: 'chapter-title' }, meta.title),
      credit({
        text: 'Follows part (2) of',
        title: 'neqkir/attention-mechanism',
        url: 'https://github.com/neqkir/attention-mechanism',
        note: 'which works through the example of Stefania Cristina’s “The Attention Mechanism from Scratch” (Machine Learning Mastery)',
      }),
      credit({
        text: 'Example and draws from',
        title: 'The Attention Mechanism from Scratch',
        url: 'https://machinelearningmastery.com/the-attention-mechanism-from-scratch/',
        note: 'Scaling by √d_k from Vaswani et al. (2017), “Attention Is All You Need”. The explanations here are our own; every number is computed live by the WebAssembly core',
      }),
      el(
        'p',
        { className: 'lede' },
        'Bahdanau attention compared one decoder state with every encoder state. The general mechanism behind Transformers turns that into three roles that every word plays at once: ',
        'it asks a question (its query), it advertises what it contains (its key), and it offers content to pass on (its value). ',
        'Each role is a different linear projection of the same word vector. Below, four three-number “words” go through the whole computation; edit any entry, or draw new projections with another seed.',
      ),
      ...steps.map((s) => s.element),
      error,
    );
    linkFormulas(root, figures);
    update();
  },
};
