// Chapter "Neural machine translation with attention": a character-level
// encoder-decoder that turns human-written dates into ISO dates, trained live
// in a Web Worker, with its attention plot for any input the reader types
// (each cell explained from the model's own scores), a line diagram played one
// output character at a time, and each output character shaded by its probability.
import { cellStory, credit, errorLine, step } from '../chapter-kit.js';
import { startShippedModel } from './engine-connection.js';
import { runControls } from './run-controls.js';
import { el } from '../dom.js';
import { Heatmap } from '../figures/heatmap.js';
import { addPrerendered, symbol, tex } from '../math.js';
import { linkFormulas } from '../formula-links.js';
import { LineChart } from '../figures/line-chart.js';
import { TokenLines } from '../figures/token-lines.js';
import { urlStore } from '../url-state.js';
import {
  characterConfidence,
  chars,
  confidenceWarning,
  DATE_FORMATS,
  DEFAULT_INPUT,
  explainAttention,
  inputProblem,
  LOW_CONFIDENCE,
  outputNote,
  playbackCaption,
  REVERSAL_MILESTONES,
  SCHEMA,
  SCORES,
  TASKS,
  trainingStatus,
  translationCheck,
  units,
} from './nmt-model.js';
import formulas from '../formulas/nmt.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

// The site's copy, then the package's (the site hosted from node_modules/attention-lab/dist/site/).
const SITE_CHECKPOINTS = ['nmt-checkpoint.js', '../elements/nmt-checkpoint.js'];

// Formula symbols linked to their figures (formula-links.js).
const sj = symbol('encoder', 's_j');
const ht = symbol('decoder', 'h_t');
const alpha = symbol('attention', '\\alpha_{tj}');

export default {
  id: 'nmt',
  title: 'Neural machine translation with attention',
  summary:
    'Train an encoder–decoder with attention to normalise dates, live in a Web Worker, and watch which input characters each output character attends to.',

  /**
   * @param {HTMLElement} root
   * @param {{api: import('attention-lab').Attention}} context
   */
  render(root, { api, store = urlStore, signal, assets = {} }) {
    const read = store.readState(SCHEMA);
    let task = read.task;
    let input = read.input ?? DEFAULT_INPUT[task];
    let score = read.score;
    let pauseAt = read.pauseAt;
    const save = () =>
      store.writeState(SCHEMA, { task, score, input: input === DEFAULT_INPUT[task] ? null : input, pauseAt });
    let checkpoint = null; // the shipped checkpoint's bytes, loaded with the chapter

    // ---- widgets
    const errors = errorLine();
    const inputBox = el('input', {
      type: 'text',
      value: input,
      className: 'nmt-input',
      attrs: { 'aria-label': 'input to translate', maxlength: 40, spellcheck: 'false' },
    });
    const outputText = el('output', { className: 'nmt-output', attrs: { 'aria-live': 'polite' } }, '…');
    const inputError = el('p', { className: 'error nmt-input-error', attrs: { role: 'alert' }, hidden: true });
    const sampleButton = el('button', { type: 'button', className: 'small', disabled: true }, 'Random example');
    const confidenceNote = el('p', { className: 'nmt-confidence', hidden: true });
    const emptyNote = el('p', { className: 'nmt-empty-note', attrs: { 'aria-live': 'polite' }, hidden: true });
    const formats = el('details', { className: 'nmt-formats' });
    const status = el('p', { className: 'nmt-status', attrs: { 'aria-live': 'polite' } }, 'loading the model…');
    const { startButton, pauseButton, pauseAtField, setRunning } = runControls({
      send: (message) => send(message),
      onChange: (running) => {
        state.running = running;
        showStatus();
      },
      pauseAt,
      onPauseAt: (step) => {
        pauseAt = step;
        save();
      },
    });
    const resetButton = el('button', { type: 'button', disabled: true }, 'Reset (train from scratch)');
    const shippedButton = el('button', { type: 'button', disabled: true }, 'Load the shipped checkpoint');
    const scoreSelect = el(
      'select',
      { attrs: { 'aria-label': 'score function' } },
      ...SCORES.map(([id, label]) => el('option', { value: id, selected: id === score }, label)),
    );
    const taskSelect = el(
      'select',
      { attrs: { 'aria-label': 'task' } },
      ...TASKS.map(([id, label]) => el('option', { value: id, selected: id === task }, label)),
    );
    const curve = new LineChart({
      label: 'training loss per step',
      className: 'loss-curve',
      width: 340,
      logY: true,
      xName: 'step',
      empty: 'press Start to train',
      caption: 'Training loss (cross-entropy per output character, log scale) against steps',
    });
    const attentionMap = new Heatmap({
      palette: 'purple',
      label: 'attention weights: output characters (rows) over input characters (columns)',
      vmin: 0,
      vmax: 1,
      cellWidth: 30,
      cellHeight: 24,
      colLabelsOnTop: true,
      format: (w) => (w >= 0.05 ? w.toFixed(1).replace(/^0/, '') : ''),
      explain: (r, c) => story(r, c),
    });
    const encoderMap = new Heatmap({
      palette: 'orange',
      label: 'encoder outputs s_j: one row per input character, one column per hidden unit',
      annotate: false,
      cellWidth: 7,
      cellHeight: 16,
      colLabels: [],
    });
    const decoderMap = new Heatmap({
      palette: 'blue',
      label: 'decoder states h_t: one row per output character, one column per hidden unit',
      annotate: false,
      cellWidth: 7,
      cellHeight: 16,
    });
    attentionMap.element.classList.add('nmt-attention');
    const lines = new TokenLines({
      label: 'attention as lines: input characters on top, output characters below',
      orientation: 'horizontal',
      keyLabel: 'input',
      queryLabel: 'output',
      caption:
        'Each line joins an output character to an input character and is as opaque as its weight. Hover or focus a character to isolate its lines.',
    });
    lines.element.classList.add('nmt-lines');
    const playButton = el('button', { type: 'button', disabled: true }, 'Play');
    const stepButton = el('button', { type: 'button', disabled: true }, 'Step');
    const allButton = el('button', { type: 'button', disabled: true }, 'Show all');
    const playbackText = el('p', { className: 'nmt-playback', attrs: { 'aria-live': 'polite' } }, '');

    // ---- the latest translation, which the figures draw and the readouts explain
    let translation = null;
    let outputSpans = [];
    // The output characters as a "figure" the attention readout outlines.
    const outputFigure = {
      highlight(cells) {
        outputSpans.forEach((span, t) =>
          span.classList.toggle(
            'is-source',
            cells.some(([, c]) => c === t),
          ),
        );
      },
    };
    const story = cellStory(
      { decoder: decoderMap, encoder: encoderMap, output: outputFigure },
      () => translation !== null && translation.attention.rows > 0,
      (r, c) => explainAttention(translation, r, c),
    );

    // ---- the engine, in a worker (or, where the page's security policy forbids
    // blob: workers, on the main thread in one-step slices): engine-connection.js
    let connection = null;
    let model = null; // what the model reads: { alphabet, maxLength, task }, from its 'ready' message
    const send = (message) => connection?.send(message);
    let state = {
      steps: 0,
      loss: NaN,
      accuracy: NaN,
      stepsPerSecond: NaN,
      running: false,
      options: null,
      source: 'shipped checkpoint',
    };
    const showStatus = () => {
      const s = state;
      const o = s.options;
      status.textContent = trainingStatus(s, {
        examples: 'examples',
        onMainThread: connection?.onMainThread,
        before: [`${s.source}: ${o ? `${o.task}, ${o.attention}, hidden ${o.hidden}` : ''}`],
      });
      root.dataset.nmtSteps = String(s.steps);
    };

    /** Hides the attention figures (nothing to draw, or the input cannot be read) and says why. */
    function clearPlot(why) {
      translation = null;
      attentionMap.element.hidden = true;
      lines.element.hidden = true;
      decoderMap.element.hidden = true;
      confidenceNote.hidden = true;
      emptyNote.hidden = !why;
      emptyNote.textContent = why ?? '';
      stopPlayback();
      playbackText.textContent = why ? 'Nothing to play yet.' : '';
      for (const b of [playButton, stepButton, allButton]) b.disabled = true;
      root.dataset.nmtPlot = 'cleared';
    }

    /** The output characters, each as opaque as the model was sure of it. */
    function showOutput(r) {
      const confidence = characterConfidence(r);
      outputSpans = confidence.map(({ char, p, runnerUp }) =>
        el(
          'span',
          {
            className: p < LOW_CONFIDENCE ? 'nmt-char is-unsure' : 'nmt-char',
            title: `p = ${p.toFixed(3)} (runner-up “${runnerUp.char}”, ${runnerUp.p.toFixed(3)})`,
            dataset: { p: p.toFixed(4) },
          },
          char,
        ),
      );
      outputSpans.forEach((span, t) => span.style.setProperty('--p', String(confidence[t].p)));
      outputText.replaceChildren(...(outputSpans.length ? outputSpans : ['(nothing)']));
      const trained = model?.task ?? task; // the task of the model that wrote this output
      const warnings = [confidenceWarning(confidence), translationCheck(trained, r.input, r.output)];
      const text = warnings.filter(Boolean).join(' ');
      confidenceNote.hidden = !text;
      confidenceNote.textContent = text;
    }

    function onTranslation(r) {
      if (r.input !== input) return; // a newer input is on its way
      inputError.hidden = true;
      root.dataset.nmtOutput = r.output;
      root.dataset.nmtInput = r.input;
      const inChars = chars(r.input);
      const outChars = chars(r.output);
      encoderMap.update(r.encoderOutputs, { rowLabels: inChars, colLabels: units(r.encoderOutputs.cols) });
      showOutput(r);
      if (r.attention.rows === 0) {
        clearPlot(outputNote(r.output, state.steps));
        return;
      }
      translation = r;
      const note = outputNote(r.output, state.steps);
      emptyNote.hidden = !note;
      emptyNote.textContent = note ?? '';
      attentionMap.element.hidden = false;
      lines.element.hidden = false;
      decoderMap.element.hidden = false;
      attentionMap.update(r.attention, { rowLabels: outChars, colLabels: inChars });
      decoderMap.update(r.decoderStates, { rowLabels: outChars, colLabels: units(r.decoderStates.cols) });
      for (const b of [playButton, stepButton, allButton]) b.disabled = false;
      if (playIndex >= outChars.length) playIndex = outChars.length - 1;
      drawLines();
      root.dataset.nmtPlot = 'drawn';
    }

    // ---- playback: the lines of one output character at a time (Distill's "Attention and Augmented RNNs")
    let playIndex = -1; // the output character shown alone, or -1 for all of them
    let timer = null;
    function drawLines() {
      if (!translation) return;
      const outChars = chars(translation.output);
      // Characters not yet reached are shown as dots: the translation is written one at a time.
      const queries = playIndex < 0 ? outChars : outChars.map((ch, t) => (t <= playIndex ? ch : '·'));
      lines.update({
        queries,
        keys: chars(translation.input),
        heads: [{ name: 'attention', weights: translation.attention }],
      });
      lines.select(playIndex);
      playbackText.textContent =
        playIndex < 0
          ? 'All output characters. Press Play or Step to write them one at a time.'
          : playbackCaption(translation, playIndex);
      root.dataset.nmtPlayback = String(playIndex);
    }
    function stepPlayback() {
      if (!translation || !root.isConnected) {
        stopPlayback();
        return;
      }
      const last = translation.attention.rows - 1;
      if (playIndex >= last) {
        if (timer) {
          stopPlayback(); // played to the end: stay on the last character
          return;
        }
        playIndex = 0;
      } else {
        playIndex += 1;
      }
      drawLines();
    }
    function stopPlayback() {
      if (timer) clearInterval(timer);
      timer = null;
      playButton.textContent = 'Play';
      playButton.setAttribute('aria-pressed', 'false');
    }
    playButton.setAttribute('aria-pressed', 'false');
    playButton.addEventListener('click', () => {
      if (timer) {
        stopPlayback();
        return;
      }
      if (!translation) return;
      if (playIndex < 0 || playIndex >= translation.attention.rows - 1) playIndex = -1;
      playButton.textContent = 'Pause playback';
      playButton.setAttribute('aria-pressed', 'true');
      stepPlayback();
      timer = setInterval(stepPlayback, 900);
    });
    stepButton.addEventListener('click', () => {
      stopPlayback();
      stepPlayback();
    });
    allButton.addEventListener('click', () => {
      stopPlayback();
      playIndex = -1;
      drawLines();
    });

    function onMessage({ data }) {
      if (!root.isConnected) {
        connection?.stop(); // the reader moved to another chapter
        return;
      }
      if (data.type === 'ready') {
        model = { alphabet: data.alphabet, maxLength: data.maxInputLength, task: data.options.task };
        Object.assign(state, { steps: data.steps, options: data.options, accuracy: data.accuracy, loss: NaN });
        curve.reset();
        for (const b of [startButton, resetButton, shippedButton, sampleButton]) b.disabled = false;
        setRunning(false);
        root.dataset.nmtReady = 'true';
      } else if (data.type === 'progress') {
        state.steps = data.steps;
        if (data.loss !== undefined) {
          state.loss = data.loss;
          state.stepsPerSecond = data.stepsPerSecond;
          curve.add(data.steps, data.loss);
        }
        if (data.accuracy !== undefined) state.accuracy = data.accuracy;
        if (data.paused) setRunning(false); // it reached "pause at step"
        showStatus();
      } else if (data.type === 'sample') {
        setInput(data.input);
      } else if (data.type === 'translation') {
        onTranslation(data);
      } else if (data.type === 'translation-error') {
        if (data.input !== input) return;
        // The reader's words for it (the API's message names the function and its argument).
        showInputProblem((model && inputProblem(input, model)) ?? 'The model could not translate this input.');
      } else if (data.type === 'error') {
        errors.hidden = false;
        errors.textContent = `Training stopped: ${data.message}`;
        setRunning(false);
      }
    }

    // ---- controls
    const setInput = (text) => {
      input = text;
      inputBox.value = text;
      save();
    };
    const showInputProblem = (message) => {
      inputError.hidden = false;
      inputError.textContent = message;
      outputText.textContent = '—';
      clearPlot(null);
    };
    const fromScratch = () => {
      state.source = 'from scratch';
      curve.reset();
      // The old model's plot goes at once; the new model's translation says what it wrote.
      clearPlot('Training from scratch: the new model starts from random weights.');
      send({ type: 'reset', options: { task, attention: score, seed: 0 }, input });
      setRunning(false);
    };
    taskSelect.addEventListener('change', () => {
      const previousDefault = input === DEFAULT_INPUT[task];
      task = taskSelect.value;
      save();
      if (previousDefault || task === 'reverse') setInput(DEFAULT_INPUT[task]);
      fromScratch();
    });
    resetButton.addEventListener('click', fromScratch);
    shippedButton.addEventListener('click', () => {
      state.source = 'shipped checkpoint';
      score = 'luong-general';
      scoreSelect.value = score;

      if (task !== 'dates') {
        task = 'dates';
        taskSelect.value = task;
        setInput(DEFAULT_INPUT.dates);
      }
      save();
      send({ type: 'reset', checkpoint, input });
    });
    scoreSelect.addEventListener('change', () => {
      score = scoreSelect.value;
      save();
      fromScratch();
    });
    inputBox.addEventListener('input', () => {
      setInput(inputBox.value);
      const problem = model && inputProblem(input, model);
      if (problem) showInputProblem(problem);
      else send({ type: 'translate', input });
    });
    sampleButton.addEventListener('click', () => send({ type: 'sample' }));
    const fillFormats = () => {
      formats.replaceChildren(
        task === 'dates'
          ? el('summary', {}, `The ${DATE_FORMATS.length} formats the model was trained on`)
          : el('summary', {}, 'What the reversal model was trained on'),
      );
      if (task === 'dates') {
        formats.append(
          el(
            'p',
            {},
            'Each written for 21 November 2026, in lower case, Title case or UPPER case, days with or without a leading zero. Numbers are read day first (dd/mm); years run from 1950 to 2049, so a two-digit year 50–99 is 19xx and 00–49 is 20xx.',
          ),
          el(
            'ul',
            { className: 'nmt-format-list' },
            ...DATE_FORMATS.map(([pattern, example]) => el('li', {}, el('code', {}, example), ` (${pattern})`)),
          ),
        );
      } else {
        formats.append(el('p', {}, 'Strings of 3 to 12 digits; the target is the same digits in reverse order.'));
      }
    };
    fillFormats();
    taskSelect.addEventListener('change', fillFormats);

    root.append(
      el('h1', { className: 'chapter-title' }, 'Neural machine translation with attention'),
      credit({
        text: 'Follows the decoder of TensorFlow’s',
        title: 'Neural machine translation with attention tutorial',
        url: 'https://www.tensorflow.org/text/tutorials/nmt_with_attention',
        note: 'with Luong et al.’s attention (arXiv:1508.04025) on a character-level date task. The model, its gradients and the training loop are our own C++ compiled to WebAssembly',
      }),
      el(
        'p',
        { className: 'lede' },
        'A translator reads a whole sentence and writes another. Here the “sentences” are dates as people write them — ',
        '“21 November 2026”, “nov 21, 2026”, “Saturday 21/11/26”, “2026 Nov 21st” — and the translation is the ISO form 2026-11-21. ',
        'The task is small enough to train in your browser in about a minute, yet it needs attention: to write the day, the decoder must find the day in the input, wherever the format put it.',
      ),
      step({
        title: '1. The encoder reads the input; the decoder receives all of its outputs',
        intro: [
          el(
            'p',
            {},
            'Each input character becomes a learned vector (an embedding). A recurrent network (a GRU) reads them left to right and another right to left; ',
            'their states are added, so the output ',
            tex('s_j'),
            ' at character ',
            tex('j'),
            ' knows what surrounds it on both sides (is this “3” a day, or the start of “31”?).',
          ),
        ],
        formula: `${sj} = \\overrightarrow{\\mathrm{GRU}}(e_j, \\overrightarrow{s}_{j-1}) + \\overleftarrow{\\mathrm{GRU}}(e_j, \\overleftarrow{s}_{j+1})`,
        figures: [encoderMap.element],
        after: [
          'The decoder receives every one of these vectors, not just the last. The heatmap shows them for the input typed below: one row per character, one column per hidden unit.',
        ],
      }),
      step({
        title: '2. The decoder keeps track of what it wrote',
        intro: [
          el(
            'p',
            {},
            'The decoder is another GRU. It starts from the encoder’s final states and, at output step ',
            tex('t'),
            ', reads the character it wrote last (a start symbol at first; during training the correct previous character, which is called teacher forcing).',
          ),
        ],
        formula: `${ht} = \\mathrm{GRU}(E[y_{t-1}],\\, ${symbol('decoder', 'h_{t-1}')})`,
        figures: [decoderMap.element],
        after: ['One row per output character: the decoder state that asks the question of step 3.'],
      }),
      step({
        title: '3. Its state is the query of attention over all encoder outputs',
        intro: [
          el(
            'p',
            {},
            'The decoder state scores every encoder output; a softmax turns the scores into weights that sum to 1, and the context vector is the weighted average of the encoder outputs. Four score functions are available:',
          ),
        ],
        formula: [
          `${alpha} = \\frac{\\exp \\operatorname{score}(${ht}, ${sj})}{\\sum_{k} \\exp \\operatorname{score}(${ht}, ${symbol('encoder', 's_k')})}`,
          `c_t = \\sum_j ${alpha}\\, ${sj}`,
          '\\operatorname{score}(h_t, s_j) = \\begin{cases} h_t^\\top s_j & \\text{Luong dot} \\\\ h_t^\\top W_a s_j & \\text{Luong general} \\\\ v_a^\\top \\tanh(W_a [h_t; s_j]) & \\text{Luong concat} \\\\ v_a^\\top \\tanh(W_1 h_t + W_2 s_j + b) & \\text{Bahdanau (additive)} \\end{cases}',
        ],
        after: [
          'Luong’s concat and Bahdanau’s additive score are the same function up to the bias b; in Bahdanau’s paper the query is the previous decoder state and the context is fed into the recurrent step, which this model does not do.',
        ],
      }),
      step({
        title: '4. Context and state are combined into the attention vector',
        formula: 'a_t = \\tanh\\left(W_c [c_t; h_t]\\right)',
        intro: [
          'This is Luong’s equation (5): the attention vector mixes what the decoder was looking at with what it remembers.',
        ],
      }),
      step({
        title: '5. The attention vector predicts the next character',
        formula: 'p(y_t \\mid y_{<t}, x) = \\operatorname{softmax}(W_o a_t + b_o)',
        intro: [
          'Training minimises the cross-entropy of the correct character at every step (with Adam and gradient clipping); translating picks the most likely character, feeds it back in, and stops at the end symbol.',
        ],
      }),
      step({
        title: 'Train it, and watch where it looks',
        intro: [
          'The model below opens with a checkpoint trained by this very code (npm run train-checkpoint). Reset it to train from scratch with any score function: the training runs in a Web Worker, so the page stays responsive, and the loss curve and the attention plot beside it refresh as it learns (the plot every few seconds).',
          `The second task, reversing a string of digits, shows the cleanest alignment there is: the first output digit attends to the last input digit, and so on — an anti-diagonal. How fast it learns, measured with the default seed and Luong’s general score: ${REVERSAL_MILESTONES.text}.`,
          'Type a date (or digits, for the reversal task) beside the loss curve. Each row of the plot is an output character, each column an input character; a dark cell means the decoder attended to that input character while writing that output character. Output characters are as dark as the model is sure of them.',
        ],
        controls: [
          el('label', { className: 'control-label' }, 'Task ', taskSelect),
          el('label', { className: 'control-label' }, 'Score function ', scoreSelect),
          startButton,
          pauseButton,
          pauseAtField,
          resetButton,
          shippedButton,
        ],
        output: status,
        after: [
          errors,
          el(
            'div',
            { className: 'nmt-live' },
            el('div', { className: 'nmt-live-curve' }, curve.element),
            el(
              'div',
              { className: 'nmt-live-plot' },
              el(
                'div',
                { className: 'controls nmt-io' },
                el('label', { className: 'control-label' }, 'Input ', inputBox),
                el('span', {}, ' → '),
                outputText,
                sampleButton,
              ),
              inputError,
              confidenceNote,
              emptyNote,
              attentionMap.element,
              formats,
            ),
          ),
        ],
      }),
      step({
        title: 'One output character at a time',
        intro: [
          'The same weights as lines from each output character up to the input characters, as opaque as the weights. Play writes the translation one character at a time, as the decoder does, and shows where each character looked; it keeps going while the model trains.',
        ],
        controls: [playButton, stepButton, allButton],
        output: playbackText,
        figures: [lines.element],
      }),
    );
    linkFormulas(root, { encoder: encoderMap, decoder: decoderMap, attention: attentionMap });
    curve.draw(); // now on the page, so it paints with the theme's colours
    // Removed from the page (an <attention-lesson> disconnected): stop training,
    // free the trainer and end the worker.
    signal?.addEventListener('abort', () => {
      stopPlayback();
      connection?.stop();
      connection = null;
    });
    const showError = (message) => {
      errors.hidden = false;
      errors.textContent = message;
    };
    startShippedModel({
      api,
      assets,
      signal,
      model: 'rnn',
      checkpoint: { key: 'seq2seq-dates', urls: assets.nmtCheckpoint ? [assets.nmtCheckpoint] : SITE_CHECKPOINTS },
      input,
      onMessage: (data) => onMessage({ data }),
      onError: showError,
    }).then(
      (started) => started && ({ checkpoint, connection } = started),
      (error) =>
        showError(`The model could not be loaded (${error.message}). Check the connection and reload the page.`),
    );
  },
};
