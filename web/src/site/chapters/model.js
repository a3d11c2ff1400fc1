// Chapter "Open a real model": a GPT-2 from the files of a Hugging Face
// folder (the reader's, picked or dropped; a course site's model-src folder;
// or the small demo model the project trained), run on a typed sentence: the
// model view (every layer × head), one head large with its q, k, v and value
// mix (every weight explained down to q·k/√d_k through the trace), the head
// view (lines between tokens) and the next-token list.
import { credit, errorLine, step } from '../chapter-kit.js';
import { el } from '../dom.js';
import { storyForFigures, Trace } from '../explain/trace.js';
import { TokenLines } from '../figures/token-lines.js';
import { addPrerendered } from '../math.js';
import { loadDataScript } from '../data-script.js';
import { urlStore } from '../url-state.js';
import { headStep, headName, modelViewStep } from './model-head-step.js';
import {
  clampHead,
  demoFiles,
  findings,
  folderUrls,
  MAX_SENTENCE,
  runSentence,
  SCHEMA,
  tokenLabel,
} from './model-model.js';
import { nextStep } from './model-next-step.js';
import { openStep } from './model-open-step.js';
import { sentenceStep } from './model-sentence-step.js';
import { TENSORS, traceModelHead } from './model-trace.js';
import formulas from '../formulas/model.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

// The site's copy, then the package's (the site hosted from node_modules/attention-lab/dist/site/).
const DEMO_SCRIPTS = ['gpt2-demo.js', '../elements/gpt2-demo.js'];
const message = (error) => (error instanceof Error ? error.message : String(error));

/** The head view: every head of the chosen layer as lines between tokens. */
function linesStep() {
  const lines = new TokenLines({
    label: 'head view: lines from each token to the tokens it reads, one colour per head',
  });
  const element = step({
    title: '5. The head view',
    intro: [
      'All heads of the chosen layer at once, one colour each (bertviz’s head view): a line from a token on the left to a token on the right is as opaque as the weight. Hover or focus a token to isolate its lines.',
    ],
    figures: [lines.element],
  });
  return {
    element,
    show(attentions, tokens, layer) {
      lines.update({
        queries: tokens,
        keys: tokens,
        heads: attentions[layer].map((weights, h) => ({ name: `head ${h + 1}`, weights })),
      });
      lines.caption.textContent = `Head view of layer ${layer + 1}: every head at once; a line is as opaque as its weight.`;
    },
  };
}

export default {
  id: 'model',
  title: 'Open a real model',
  summary:
    'Open a GPT-2 from its Hugging Face files (or the built-in demo model) and see every layer and head on your sentence, each weight explained down to q·k/√d_k.',

  render(root, { api, store = urlStore, signal, assets = {} }) {
    const state = store.readState(SCHEMA);
    let { sentence } = state;
    let selected = { layer: state.layer, head: state.head };
    let source = 'demo';
    const save = () => store.writeState(SCHEMA, { sentence, ...selected, source });

    let model = null;
    let loading = null; // the AbortController of the model being opened
    let result = null; // the last run of `sentence`
    let asked = 0; // explainHead calls: only the latest one's answer is shown
    const trace = new Trace();
    const figures = {}; // tensor name -> the heatmap drawing it
    const story = storyForFigures(trace, figures);
    const errors = errorLine();

    const open = openStep({
      onOpen: (files, label) => openFiles(files, label, 'own'),
      onDemo: () => loadDemo(),
      onCancel: () => loading?.abort(),
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
    const view = modelViewStep({ onSelect: choose });
    const head = headStep({ story, figures });
    const lines = linesStep();
    const next = nextStep();
    const results = [view.element, head.element, lines.element, next.element];

    root.append(
      el('h1', {}, 'Open a real model'),
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
      errors,
      open.element,
      words.element,
      ...results,
    );

    // ---- opening a model
    function openFiles(files, label, from) {
      loading?.abort();
      const controller = new AbortController();
      loading = controller;
      open.loading(label);
      api.openModel(files, { onProgress: (p) => open.progress(p), signal: controller.signal }).then(
        (m) => {
          if (loading !== controller || signal?.aborted) return m.delete();
          loading = null;
          model?.delete();
          model = m;
          source = from;
          const c = m.config;
          open.done(
            `open: ${label} (${c.n_layer} layers × ${c.n_head} heads, n_embd ${c.n_embd}, ${c.vocab_size} tokens, at most ${c.n_positions} per text)`,
          );
          root.dataset.modelSource = from;
          save();
          update();
        },
        (error) => {
          if (loading === controller) loading = null;
          if (error?.name === 'AbortError')
            open.done(model ? 'loading cancelled: the model before stays open' : 'loading cancelled');
          else {
            open.showError(message(error));
            open.done(model ? 'the model before stays open' : 'no model open');
          }
          root.dataset.modelFailed = String(Number(root.dataset.modelFailed ?? 0) + 1);
        },
      );
    }

    function loadDemo() {
      open.loading('the demo model');
      loadDataScript('gpt2-demo', assets.demoModel ? [assets.demoModel] : DEMO_SCRIPTS).then(
        (value) => openFiles(demoFiles(value), 'the demo model', 'demo'),
        (error) => open.showError(`the demo model could not be loaded (${message(error)})`),
      );
    }

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
      trace.add({ name: TENSORS.weights, value: weights });
      head.show(weights, tokens, selected, null);
      root.dataset.modelExplained = 'false';
      root.dataset.modelHead = headName(selected);
      const ask = ++asked;
      const current = model;
      current.explainHead(sentence, { ...selected }).then(
        (inputs) => {
          if (ask !== asked || current !== model) return;
          const mixed = traceModelHead(api, trace, inputs, weights, tokens);
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
      loading?.abort();
      model?.delete();
      model = null;
    });

    if (assets.modelSrc) {
      try {
        openFiles(folderUrls(assets.modelSrc, document.baseURI), assets.modelSrc, 'own');
      } catch (error) {
        open.showError(message(error));
        loadDemo();
      }
    } else {
      if (state.source === 'own')
        open.showError(
          'This link was made with a model of your own: open its folder again (a link cannot carry files). Meanwhile, the demo model.',
        );
      loadDemo();
    }
  },
};
