// Chapter "Open a real model": a checkpoint from the files of a Hugging Face
// folder (the reader's, picked or dropped; a course site's model-src folder;
// or the small demo model the project trained) of any family openModel reads
// (GPT-2, BERT, and the Llama-like ones), run on a typed sentence: the model
// view (every layer × head, grouped by shared key/value heads), one head large
// with its q, k (before and after the rotation), v and value mix (every weight
// explained down to q·k/√d_k through the trace), the head view (lines between
// tokens) and the predictions (the next token, or BERT's [MASK]).
import { credit, errorLine } from '../../chapter-kit.js';
import { el } from '../../dom.js';
import { shown } from '../../explain/format.js';
import { storyForFigures, Trace } from '../../explain/trace.js';
import { tracedApi } from '../../explain/traced-api.js';
import { publishOpenedModel } from '../../lesson-kit/opened-model.js';
import { addPrerendered } from '../../math.js';
import { urlStore } from '../../url-state.js';
import { headStep, headName, modelViewStep } from './steps/head-step.js';
import {
  clampHead,
  findings,
  GENERATION_KEYS,
  headMix,
  keysOpen,
  MAX_SENTENCE,
  runSentence,
  SCHEMA,
  shapeOf,
  TENSORS,
  tokenLabel,
  tokenLabels,
} from './model.js';
import { message, modelLoader } from './loader.js';
import { linesStep } from './steps/lines-step.js';
import { nextStep } from './steps/next-step.js';
import { modelQuestions } from './predict.js';
import { openStep } from './steps/open-step.js';
import { sentenceStep } from './steps/sentence-step.js';
import { overviewStep } from './steps/overview-step.js';
import { generateStep } from './steps/generate-step.js';
import { architectureOf } from './architecture.js';
import { generationFlow } from './generation.js';
import formulas from './formulas.js';
import meta from './meta.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

function credits() {
  return [
    credit({
      text: 'The models are GPT-2 (Radford et al., 2019), BERT (Devlin et al., 2019) and the Llama-like families,',
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
    let { sentence, pair } = state;
    let selected = { layer: state.layer, head: state.head };
    let source = 'demo';
    const generationState = Object.fromEntries(GENERATION_KEYS.map((k) => [k, state[k]]));
    const save = () => store.writeState(SCHEMA, { sentence, pair, ...selected, source, ...generationState });

    let model = null;
    let shape = null; // shapeOf(model)
    let result = null; // the last run of `sentence`
    let labels = []; // its tokens as the figures show them
    let asked = 0; // explainHead calls: only the latest one's answer is shown
    let arch = null; // the open model's boxes on this text (architectureOf)
    const trace = new Trace();
    const figures = {}; // tensor name -> the heatmap drawing it
    const story = storyForFigures(trace, figures);
    const errors = errorLine();

    const open = openStep({
      onOpen: (files, label) => loader.openFiles(files, label, 'own'),
      onDemo: (which) => loader.loadDemo(which),
      onCancel: () => loader.cancel(),
    });
    const loader = modelLoader({
      api,
      open,
      signal,
      assets,
      hasModel: () => Boolean(model),
      onModel: (m, from) => {
        // The other chapters drop the old model now: the new one is published only once it runs the sentence.
        if (model) publishOpenedModel(null);
        model?.delete();
        model = m;
        shape = shapeOf(m);
        source = from;
        root.dataset.modelSource = from;
        root.dataset.modelFamily = m.family;
        root.dataset.modelThread = m.offThread ? 'worker' : 'page'; // the page's fallback: no worker could start
        root.dataset.modelThreads = String(m.threads ?? 1); // the wasm threads its passes run on
        save();
        update();
      },
      onFailed: () => (root.dataset.modelFailed = String(Number(root.dataset.modelFailed ?? 0) + 1)),
    });
    const setText = (text, second = pair) => {
      sentence = text;
      pair = second;
      words.sync(sentence, pair);
      save();
      update();
    };
    const words = sentenceStep({
      sentence,
      pair,
      maxLength: MAX_SENTENCE,
      onInput: (text) => {
        sentence = text;
        save();
        update();
      },
      onPair: (text) => {
        pair = text;
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
    const view = modelViewStep({
      onSelect: choose,
      predict: questions.everyHead,
      onRepeat: () => setText(`${sentence.trim()} ${sentence.trim()}`),
    });
    const head = headStep({
      story,
      figures,
      predict: questions.oneHead,
      onNextHead: () => {
        const n = selected.layer * shape.heads + selected.head + 1;
        const at = n % (shape.layers * shape.heads);
        choose(Math.floor(at / shape.heads), at % shape.heads);
      },
    });
    const lines = linesStep();
    const next = nextStep({
      predict: questions.nextToken,
      onMask: () => {
        const wordsOf = sentence.trim().split(/\s+/);
        if (wordsOf.length > 1) wordsOf[wordsOf.length - 2] = '[MASK]';
        else wordsOf[0] = '[MASK]';
        setText(wordsOf.join(' '));
      },
      onCut: () => setText(sentence.trim().split(/\s+/).slice(0, -1).join(' ') || sentence),
    });
    const overview = overviewStep({
      predict: questions.wholeModel,
      onSelectLayer: (layer) => choose(layer, Math.min(selected.head, shape.heads - 1)),
      onChooseToken: (i) => {
        flow.choose(i);
        drawOverview();
      },
    });
    const generation = generateStep({
      options: generationState,
      onOption: (name, value) => {
        generationState[name] = value;
        save();
      },
      onGenerate: () => flow.generate(),
      onStop: () => flow.stop(),
      onPick: (position) => flow.pick(position),
      explain: (r, c) => flow.explain(r, c),
    });
    const flow = generationFlow({
      root,
      view: generation,
      figures,
      options: generationState,
      live: () => ({ model, shape, result, sentence, selected, labels }),
      onChange: () => drawOverview(),
    });
    const results = [view.element, head.element, lines.element, next.element, overview.element, generation.element];

    root.append(
      el('h1', { className: 'chapter-title' }, meta.title),
      ...credits(),
      errors,
      open.element,
      words.element,
      ...results,
    );

    /** A predicted token's label: bytes known for the sentence's own ids. */
    const labelOf = (id, token) => {
      const at = result?.ids?.indexOf(id) ?? -1;
      return at >= 0 ? labels[at] : tokenLabel(token);
    };

    // ---- running the sentence and drawing (the model answers from its worker: the latest run wins)
    let runs = 0;
    async function update() {
      if (!model) return;
      const [ticket, current] = [++runs, model];
      let run;
      let named = [];
      try {
        run = await runSentence(current, sentence, pair);
        if (run.tokens) named = await tokenLabels(current, sentence, run.tokens);
      } catch (error) {
        run = { message: message(error) };
      }
      if (ticket !== runs || current !== model) return;
      [result, labels] = [run, named];
      if (!result.message) errors.hidden = true;
      words.show(result, shape, labels);
      for (const element of results) element.hidden = Boolean(result.message); // nothing stale
      if (result.message) {
        asked++;
        result = null;
        flow.reset(); // a new sentence or model: what was generated belongs to the old one
        root.dataset.modelRun = 'message';
        root.dataset.modelExplained = 'false';
        return;
      }
      selected = clampHead(selected, shape);
      const T = result.tokens.length;
      view.showFindings(
        findings(result.attentions, (l) => keysOpen(shape, l, T)),
        (f) => {
          choose(f.layer, f.head);
          head.figure.scrollIntoView({ block: 'start' }); // below the sticky toolbar (scroll-margin-top)
        },
      );
      view.showRepeat(result, shape);
      next.show(result, shape, labelOf);
      questions.everyHead.update(result);
      questions.nextToken.update({ run: result, labelOf });
      arch = architectureOf(model, T, shape.window);
      flow.reset(); // a new sentence or model: what was generated belongs to the old one
      root.dataset.modelRun = String(Number(root.dataset.modelRun) + 1 || 1);
      drawHead();
    }

    /** The output head's live sentence for the chosen token. */
    function headText(chosen) {
      if (!shape.causal) {
        const first = result.masked?.[0];
        const top = first?.top[0];
        return top
          ? `At the first [MASK] (token ${first.position + 1}) the most likely token is “${labelOf(top.id, top.token)}”, p = ${shown(top.p)}.`
          : 'The text has no [MASK]: nothing to predict.';
      }
      const T = result.tokens.length;
      const drawn = flow.drawnText(chosen);
      if (drawn) return drawn;
      const top = result.next?.[0];
      if (chosen === T - 1 && top)
        return `After token ${chosen + 1} the most likely next token is “${labelOf(top.id, top.token)}”, p = ${shown(top.p)}.`;
      return `This run reads only the last token’s logits (token ${result.tokens.length}).`;
    }

    function drawOverview() {
      if (!result) return;
      const { rows, labels: all, chosen } = flow.text();
      overview.show({ arch, rows, chosen, labels: all, selectedLayer: selected.layer, headText: headText(chosen) });
      root.dataset.modelOverview = String(Number(root.dataset.modelOverview) + 1 || 1);
    }

    function drawHead() {
      if (!result) return;
      const tokens = labels;
      const weights = result.attentions[selected.layer][selected.head];
      const explains = typeof model.explainHead === 'function';
      view.show(result, selected, shape);
      drawOverview();
      flow.draw();
      lines.show(result.attentions, tokens, selected.layer);
      // Until this head's q, k, v arrive its weights explain nothing (no stale story).
      tracedApi(api, trace).input(TENSORS.weights, weights);
      head.show(weights, tokens, selected, null, null, { shape, explains });
      head.showNext(weights, tokens, selected);
      questions.oneHead.update({ weights, tokens });
      root.dataset.modelHead = headName(selected);
      publishOpenedModel({ model, sentence, ...selected }); // the rope and qk-norm chapters show this head
      const ask = ++asked;
      if (!explains) {
        root.dataset.modelExplained = 'none';
        return;
      }
      root.dataset.modelExplained = 'false';
      const current = model;
      const context = { shape, layer: selected.layer, config: model.config };
      // BERT reads the pair too (its run did): the same tokens as the maps.
      const which = model.family === 'bert' && pair ? { ...selected, pair } : { ...selected };
      current.explainHead(sentence, which).then(
        (inputs) => {
          if (ask !== asked || current !== model) return;
          const mixed = headMix(api, trace, inputs, weights, tokens, context);
          head.show(weights, tokens, selected, inputs, mixed, { shape, explains });
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
      flow.stop();
      publishOpenedModel(null);
      loader.cancel();
      model?.delete();
      model = null;
    });
    open.offerLlama(loader.hasDemo('llama'));
    loader.start(state.source);
  },
};
