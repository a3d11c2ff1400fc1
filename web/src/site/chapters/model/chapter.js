// Chapter "Open a real model": a GPT-2 from the files of a Hugging Face
// folder (the reader's, picked or dropped; a course site's model-src folder;
// or the small demo model the project trained), run on a typed sentence: the
// model view (every layer × head), one head large with its q, k, v and value
// mix (every weight explained down to q·k/√d_k through the trace), the head
// view (lines between tokens) and the next-token list.
import { credit, errorLine } from '../../chapter-kit.js';
import { el } from '../../dom.js';
import { storyForFigures, Trace } from '../../explain/trace.js';
import { tracedApi } from '../../explain/traced-api.js';
import { openedModel, setOpenedModel } from '../../lesson-kit/opened-model.js';
import { addPrerendered } from '../../math.js';
import { urlStore } from '../../url-state.js';
import { headStep, headName, modelViewStep } from './steps/head-step.js';
import { clampHead, findings, headMix, MAX_SENTENCE, runSentence, SCHEMA, TENSORS, tokenLabel } from './model.js';
import { message, modelLoader } from './loader.js';
import { linesStep } from './steps/lines-step.js';
import { nextStep } from './steps/next-step.js';
import { modelQuestions } from './predict.js';
import { openStep } from './steps/open-step.js';
import { sentenceStep } from './steps/sentence-step.js';
import formulas from './formulas.js';
import meta from './meta.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

function credits() {
  return [
    credit({
      text: 'The model is GPT-2 (Radford et al., 2019),',
      title: 'Language Models are Unsupervised Multitask Learners',
      url: 'https://cdn.openai.com/better-language-models/language_models_are_unsupervised_multitask_learners.pdf',
      note: 'read from the files Hugging Face saves',
    }),
    credit({
      text: 'The model view and the head view follow',
      title: 'bertviz',
      url: 'https://github.com/jessevig/bertviz',
      note: 'by Jesse Vig (A Multiscale Visualization of Attention in the Transformer Model, 2019), here in the browser with no Python',
    }),
  ];
}

export default {
  ...meta, // id, title, summary

  render(root, { api, store = urlStore, signal, assets = {} }) {
    const state = store.readState(SCHEMA);
    let { sentence } = state;
    let selected = { layer: state.layer, head: state.head };
    let source = 'demo';
    const save = () => store.writeState(SCHEMA, { sentence, ...selected, source });

    let model = null;
    let result = null; // the last run of `sentence`
    let asked = 0; // explainHead calls: only the latest one's answer is shown
    const trace = new Trace();
    const figures = {}; // tensor name -> the heatmap drawing it
    const story = storyForFigures(trace, figures);
    const errors = errorLine();

    const open = openStep({
      onOpen: (files, label) => loader.openFiles(files, label, 'own'),
      onDemo: () => loader.loadDemo(),
      onCancel: () => loader.cancel(),
    });
    const loader = modelLoader({
      api,
      open,
      signal,
      assets,
      hasModel: () => Boolean(model),
      onModel: (m, from) => {
        model?.delete();
        model = m;
        setOpenedModel(m); // the chapters that show a real model's numbers read it there
        source = from;
        root.dataset.modelSource = from;
        save();
        update();
      },
      onFailed: () => (root.dataset.modelFailed = String(Number(root.dataset.modelFailed ?? 0) + 1)),
    });
    const words = sentenceStep({
      sentence,
      maxLength: MAX_SENTENCE,
      onInput: (text) => {
        sentence = text;
        save();
        update();
      },
    });
    const choose = (layer, head) => {
      selected = { layer, head };
      save();
      drawHead();
    };
    const questions = modelQuestions(); // predict, then reveal
    const view = modelViewStep({ onSelect: choose, predict: questions.everyHead });
    const head = headStep({ story, figures, predict: questions.oneHead });
    const lines = linesStep();
    const next = nextStep({ predict: questions.nextToken });
    const results = [view.element, head.element, lines.element, next.element];

    root.append(
      el('h1', { className: 'chapter-title' }, meta.title),
      ...credits(),
      errors,
      open.element,
      words.element,
      ...results,
    );

    // ---- running the sentence and drawing
    function update() {
      if (!model) return;
      try {
        result = runSentence(model, sentence);
        errors.hidden = true;
      } catch (error) {
        result = { message: message(error) };
      }
      words.show(result);
      for (const element of results) element.hidden = Boolean(result.message); // nothing stale
      if (result.message) {
        asked++;
        result = null;
        root.dataset.modelRun = 'message';
        root.dataset.modelExplained = 'false';
        return;
      }
      selected = clampHead(selected, model.config);
      view.showFindings(findings(result.attentions), (f) => choose(f.layer, f.head));
      next.show(result.next);
      questions.everyHead.update(result);
      questions.nextToken.update(result);
      root.dataset.modelRun = String(Number(root.dataset.modelRun) + 1 || 1);
      drawHead();
    }

    function drawHead() {
      if (!result) return;
      const tokens = result.tokens.map(tokenLabel);
      const weights = result.attentions[selected.layer][selected.head];
      view.show(result, selected);
      lines.show(result.attentions, tokens, selected.layer);
      // Until this head's q, k, v arrive its weights explain nothing (no stale story).
      tracedApi(api, trace).input(TENSORS.weights, weights);
      head.show(weights, tokens, selected, null);
      questions.oneHead.update({ weights, tokens });
      root.dataset.modelExplained = 'false';
      root.dataset.modelHead = headName(selected);
      const ask = ++asked;
      const current = model;
      current.explainHead(sentence, { ...selected }).then(
        (inputs) => {
          if (ask !== asked || current !== model) return;
          const mixed = headMix(api, trace, inputs, weights, tokens);
          head.show(weights, tokens, selected, inputs, mixed);
          root.dataset.modelExplained = 'true';
        },
        (error) => {
          if (ask !== asked || current !== model) return;
          errors.hidden = false;
          errors.textContent = message(error);
        },
      );
    }

    signal?.addEventListener('abort', () => {
      loader.cancel();
      if (openedModel() === model) setOpenedModel(null);
      model?.delete();
      model = null;
    });
    loader.start(state.source === 'own');
  },
};
