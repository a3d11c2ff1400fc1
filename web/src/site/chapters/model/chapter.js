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
  generateText,
  GENERATION_KEYS,
  generationOptions,
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
import { AttentionRows } from './rows.js';
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
    let rows = null; // the text's attention rows (AttentionRows): the run's, then generation's
    let arch = null; // the open model's boxes on this text (architectureOf)
    let chosen = 0; // the token the overview shows
    let steps = []; // generate's steps on this run's sentence
    let generating = null; // the AbortController of the generation running
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
        model?.delete();
        model = m;
        shape = shapeOf(m);
        source = from;
        root.dataset.modelSource = from;
        root.dataset.modelFamily = m.family;
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
      onSelectLayer: (layer) => choose(layer, Math.min(selected.head, shape.heads - 1)),
      onChooseToken: (i) => {
        chosen = i;
        drawOverview();
      },
    });
    const generation = generateStep({
      options: generationState,
      onOption: (name, value) => {
        generationState[name] = value;
        save();
      },
      onGenerate: () => generate(),
      onStop: () => generating?.abort(),
      onPick: (position) => pick(position),
      explain: (r, c) => explainGenerated(r, c),
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

    // ---- running the sentence and drawing
    function update() {
      if (!model) return;
      generating?.abort(); // a new sentence or model: what was generated belongs to the old one
      generating = null;
      steps = [];
      try {
        result = runSentence(model, sentence, pair);
        errors.hidden = true;
      } catch (error) {
        result = { message: message(error) };
      }
      labels = result.tokens ? tokenLabels(model, sentence, result.tokens) : [];
      words.show(result, shape, labels);
      for (const element of results) element.hidden = Boolean(result.message); // nothing stale
      if (result.message) {
        asked++;
        result = null;
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
      rows = new AttentionRows(result.attentions, shape.causal);
      arch = architectureOf(model, T, shape.window);
      chosen = T - 1;
      generation.reset(labels);
      generation.allow(
        shape.causal && typeof model.generate === 'function',
        !shape.causal
          ? 'BERT does not generate: an encoder predicts the tokens hidden by [MASK] from both sides, not the next token.'
          : 'This build of the library has no generate().',
      );
      root.dataset.genSteps = '0';
      root.dataset.modelRun = String(Number(root.dataset.modelRun) + 1 || 1);
      drawHead();
    }

    /** The output head's live sentence for the chosen token. */
    function headText() {
      if (!shape.causal) {
        const first = result.masked?.[0];
        const top = first?.top[0];
        return top
          ? `At the first [MASK] (token ${first.position + 1}) the most likely token is “${labelOf(top.id, top.token)}”, p = ${shown(top.p)}.`
          : 'The text has no [MASK]: nothing to predict.';
      }
      const T = result.tokens.length;
      const drawn = steps[chosen - T];
      if (drawn)
        return `Token ${chosen + 1} “${labels[chosen]}” was generated with p = ${shown(drawn.p)} (after the temperature, top-k and top-p; the model’s own p = ${shown(drawn.pModel)}).`;
      const top = result.next?.[0];
      if (chosen === T - 1 && top)
        return `After token ${chosen + 1} the most likely next token is “${labelOf(top.id, top.token)}”, p = ${shown(top.p)}.`;
      return `This run reads only the last token’s logits (token ${result.tokens.length}).`;
    }

    function drawOverview() {
      if (!result) return;
      overview.show({ arch, rows, chosen, labels, selectedLayer: selected.layer, headText: headText() });
      root.dataset.modelOverview = String(Number(root.dataset.modelOverview) + 1 || 1);
    }

    function drawHead() {
      if (!result) return;
      const tokens = labels;
      const weights = result.attentions[selected.layer][selected.head];
      const explains = typeof model.explainHead === 'function';
      view.show(result, selected, shape);
      drawOverview();
      drawGenerated();
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
      current.explainHead(sentence, { ...selected }).then(
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

    // ---- generation (step 8)
    async function generate() {
      if (!result || !shape.causal) return;
      generating?.abort();
      const controller = new AbortController();
      generating = controller;
      const T = result.tokens.length;
      const plan = generationOptions(generationState, T, shape.positions, shape.vocab);
      // A fresh start from the sentence: its rows and labels only.
      steps = [];
      rows = new AttentionRows(result.attentions, true);
      labels = labels.slice(0, T);
      chosen = T - 1;
      generation.begin(
        labels,
        plan.cut ? ` at most ${plan.cut} tokens: the model reads ${shape.positions} positions` : '',
      );
      root.dataset.genSteps = '0';
      root.dataset.genState = 'running';
      if (plan.message) return finish(controller, plan.message);
      const [current, run] = [model, result];
      const stale = () => current !== model || run !== result || generating !== controller;
      try {
        const out = await generateText(model, sentence, plan.options, {
          signal: controller.signal,
          onToken: (step) => stale() || addStep(step, T),
        });
        if (stale()) return;
        const why = { maxTokens: 'max tokens reached', stop: 'the model wrote its end-of-text token' }[out.stopReason];
        finish(
          controller,
          `done: ${out.ids.length} new tokens (${why ?? out.stopReason}). Choose a new token to see its row.`,
        );
      } catch (error) {
        if (stale()) return;
        finish(
          controller,
          error?.name === 'AbortError'
            ? `stopped after ${steps.length} new tokens.`
            : `generation failed: ${message(error)}`,
        );
      }
    }

    function finish(controller, text) {
      if (generating === controller) generating = null;
      generation.done(text);
      root.dataset.genState = 'done';
    }

    /** One generated token: its label, its rows (the maps grow), the overview on it. */
    function addStep(step, T) {
      steps.push(step);
      const position = T + steps.length - 1;
      labels.push(tokenLabel(step.token));
      rows.add(step.attentions);
      generation.addToken(labels[position], step.p, steps.length - 1, position, step.id);
      chosen = rows.length - 1;
      drawGenerated();
      drawOverview();
      root.dataset.genSteps = String(steps.length);
    }

    /** The chosen head's map over the sentence and what was generated (once something was). */
    function drawGenerated() {
      if (steps.length === 0 || !rows) return;
      generation.showMap(rows.matrix(selected.layer, selected.head), labels, selected);
    }

    /** A generated token chosen: the overview and a sentence show its row. */
    function pick(position) {
      if (position >= rows.length) {
        generation.showPicked(
          `Token ${position + 1} “${labels[position]}” was the last one drawn: generation stopped before reading it, so it has no row yet.`,
        );
        return;
      }
      chosen = position;
      drawOverview();
      const row = rows.row(selected.layer, selected.head, position);
      let best = 0;
      for (let j = 1; j < row.length; j++) if (row[j] > row[best]) best = j;
      generation.showPicked(
        `Token ${position + 1} “${labels[position]}”: in ${headName(selected)} it puts its largest weight, ${shown(row[best])}, on token ${best + 1} “${labels[best]}” (an even spread over the ${row.length} tokens it reads: ${shown(1 / row.length)}). The overview above shows its rows in every layer.`,
      );
      root.dataset.genPicked = String(position);
    }

    /** A cell of the generation map: where its number comes from. */
    function explainGenerated(r, c) {
      if (!rows || r >= rows.length) return null;
      const row = rows.row(selected.layer, selected.head, r);
      const w = c < row.length ? row[c] : 0;
      const T = result.tokens.length;
      const cell = `weight[${r + 1}][${c + 1}] = ${shown(w)}: how much token ${r + 1} “${labels[r]}” reads token ${c + 1} “${labels[c]}” in ${headName(selected)}`;
      if (c >= row.length) return { text: `${cell}; masked: a token never reads a later one`, sources: [] };
      if (r < T)
        return {
          text: `${cell}; a token of the sentence: the same number as step 4’s map of this head (outlined), since a causal model’s earlier rows do not change when tokens follow`,
          sources: [{ figure: figures[TENSORS.weights], cells: [[r, c]] }],
        };
      const sum = row.reduce((a, b) => a + b, 0);
      return {
        text: `${cell}; a generated token’s row as generate() returned it: the softmax of its query against the keys of tokens 1 … ${row.length}, the earlier ones read from the key/value cache, so its ${row.length} weights (outlined) sum to ${shown(sum)}`,
        sources: [{ figure: generation.map, cells: Array.from(row, (_, j) => [r, j]) }],
      };
    }

    signal?.addEventListener('abort', () => {
      generating?.abort();
      publishOpenedModel(null);
      loader.cancel();
      model?.delete();
      model = null;
    });
    open.offerLlama(loader.hasDemo('llama'));
    loader.start(state.source);
  },
};
