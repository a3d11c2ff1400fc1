// Chapter "Neural machine translation with attention": a character-level
// encoder-decoder that turns human-written dates into ISO dates, trained live
// in a Web Worker, with its attention plot for any input the reader types.
import { credit, errorLine, step } from '../chapter-kit.js';
import { createEngine } from './nmt-engine.js';
import { el } from '../dom.js';
import { Heatmap } from '../figures/heatmap.js';
import { tex } from '../math.js';
import { LineChart } from '../figures/line-chart.js';
import { urlStore } from '../url-state.js';
import { loadDataScript } from '../data-script.js';
import { chars, decodeBase64, DEFAULT_INPUT, SCHEMA, SCORES, TASKS, units } from './nmt-model.js';

// The site's copy, then the package's (the site hosted from node_modules/attention-lab/dist/site/).
const SITE_CHECKPOINTS = ['nmt-checkpoint.js', '../elements/nmt-checkpoint.js'];

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
    const save = () => store.writeState(SCHEMA, { task, score, input: input === DEFAULT_INPUT[task] ? null : input });
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
    const status = el('p', { className: 'nmt-status', attrs: { 'aria-live': 'polite' } }, 'loading the model…');
    const startButton = el('button', { type: 'button', disabled: true }, 'Start');
    const pauseButton = el('button', { type: 'button', disabled: true }, 'Pause');
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
    curve.draw();

    // ---- the worker (or, where the page's security policy forbids blob: workers,
    // the same engine on the main thread in one-step slices)
    let worker;
    let engine;
    let ready = false;
    const send = (message) => (engine ? engine(message) : worker?.postMessage(message));
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
      const parts = [
        `${s.source}: ${s.options ? `${s.options.task}, ${s.options.attention}, hidden ${s.options.hidden}` : ''}`,
        `step ${s.steps}`,
        Number.isFinite(s.loss) ? `loss ${s.loss.toFixed(4)}` : null,
        Number.isFinite(s.accuracy) ? `held-out exact match ${(100 * s.accuracy).toFixed(1)}% (200 examples)` : null,
        s.running && Number.isFinite(s.stepsPerSecond) ? `${s.stepsPerSecond.toFixed(1)} steps/s` : null,
        s.running ? 'training…' : 'paused',
        engine ? 'on the main thread (this page’s security policy blocks workers)' : null,
      ];
      status.textContent = parts.filter(Boolean).join(' · ');
      root.dataset.nmtSteps = String(s.steps);
    };
    const setRunning = (running) => {
      state.running = running;
      startButton.disabled = running;
      pauseButton.disabled = !running;
      showStatus();
    };

    function onTranslation(r) {
      if (r.input !== input) return; // a newer input is on its way
      inputError.hidden = true;
      outputText.textContent = r.output === '' ? '(empty)' : r.output;
      root.dataset.nmtOutput = r.output;
      root.dataset.nmtInput = r.input;
      const inChars = chars(r.input);
      const outChars = chars(r.output);
      if (r.attention.rows > 0) {
        attentionMap.update(r.attention, { rowLabels: outChars, colLabels: inChars });
      }
      encoderMap.update(r.encoderOutputs, { rowLabels: inChars, colLabels: units(r.encoderOutputs.cols) });
      if (r.decoderStates.rows > 0)
        decoderMap.update(r.decoderStates, { rowLabels: outChars, colLabels: units(r.decoderStates.cols) });
    }

    function onMessage({ data }) {
      if (!root.isConnected) {
        worker?.terminate(); // the reader moved to another chapter
        engine?.({ type: 'stop' });
        return;
      }
      if (data.type === 'ready') {
        ready = true;
        Object.assign(state, { steps: data.steps, options: data.options, accuracy: data.accuracy, loss: NaN });
        curve.reset();
        for (const b of [startButton, resetButton, shippedButton]) b.disabled = false;
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
        showStatus();
      } else if (data.type === 'translation') {
        onTranslation(data);
      } else if (data.type === 'translation-error') {
        if (data.input !== input) return;
        inputError.hidden = false;
        inputError.textContent = data.message;
        outputText.textContent = '—';
      } else if (data.type === 'error') {
        errors.hidden = false;
        errors.textContent = data.message;
        setRunning(false);
      }
    }

    function startOnMainThread() {
      worker?.terminate();
      worker = undefined;
      engine = createEngine(
        async () => api,
        (message) => onMessage({ data: message }),
        { chunk: 1 },
      );
      send({ type: 'init', checkpoint, input });
    }

    // A module worker where the host names one (the custom elements: it imports the
    // page's own API module, so the wasm is downloaded once); else the bundled
    // worker source from a Blob URL, which also works for pages opened from file://.
    function startWorker(workerSource) {
      let url;
      try {
        if (typeof assets.nmtWorker === 'function') worker = assets.nmtWorker();
        else if (assets.nmtWorker) worker = new Worker(assets.nmtWorker, { type: 'module' });
        else {
          url = URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
          worker = new Worker(url);
        }
      } catch {
        startOnMainThread(); // e.g. CSP without worker-src blob:
        return;
      } finally {
        if (url) URL.revokeObjectURL(url);
      }
      worker.onmessage = onMessage;
      worker.onerror = (e) => {
        if (!ready) {
          e.preventDefault();
          startOnMainThread();
          return;
        }
        errors.hidden = false;
        errors.textContent = `training worker failed: ${e.message}`;
      };
      worker.postMessage({ type: 'init', checkpoint, input });
    }

    // ---- controls
    startButton.addEventListener('click', () => {
      send({ type: 'start' });
      setRunning(true);
    });
    pauseButton.addEventListener('click', () => {
      send({ type: 'pause' });
      setRunning(false);
    });
    const setInput = (text) => {
      input = text;
      inputBox.value = text;
      save();
    };
    const fromScratch = () => {
      state.source = 'from scratch';
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
      send({ type: 'translate', input });
    });

    root.append(
      el('h2', {}, 'Neural machine translation with attention'),
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
        formula:
          's_j = \\overrightarrow{\\mathrm{GRU}}(e_j, \\overrightarrow{s}_{j-1}) + \\overleftarrow{\\mathrm{GRU}}(e_j, \\overleftarrow{s}_{j+1})',
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
        formula: 'h_t = \\mathrm{GRU}(E[y_{t-1}],\\, h_{t-1})',
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
        formula:
          '\\alpha_{tj} = \\frac{\\exp \\operatorname{score}(h_t, s_j)}{\\sum_{k} \\exp \\operatorname{score}(h_t, s_k)}, \\qquad c_t = \\sum_j \\alpha_{tj}\\, s_j \\\\[6pt]' +
          '\\operatorname{score}(h_t, s_j) = \\begin{cases} h_t^\\top s_j & \\text{Luong dot} \\\\ h_t^\\top W_a s_j & \\text{Luong general} \\\\ v_a^\\top \\tanh(W_a [h_t; s_j]) & \\text{Luong concat} \\\\ v_a^\\top \\tanh(W_1 h_t + W_2 s_j + b) & \\text{Bahdanau (additive)} \\end{cases}',
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
          'The model below opens with a checkpoint trained by this very code (npm run train-checkpoint). Reset it to train from scratch with any score function: the training runs in a Web Worker, so the page stays responsive, and the attention plot refreshes every few seconds.',
          'The second task, reversing a string of digits, learns in a few dozen steps and shows the cleanest alignment there is: the first output digit attends to the last input digit, and so on — an anti-diagonal.',
        ],
        controls: [
          el('label', { className: 'control-label' }, 'Task ', taskSelect),
          el('label', { className: 'control-label' }, 'Score function ', scoreSelect),
          startButton,
          pauseButton,
          resetButton,
          shippedButton,
        ],
        output: status,
        figures: [curve.element],
        after: [errors],
      }),
      step({
        title: 'The attention plot',
        intro: [
          'Type a date in any of the formats above (or digits, for the reversal task). Each row is an output character; the columns are the input characters; a dark cell means the decoder attended to that input character while writing that output character.',
        ],
        controls: [el('label', { className: 'control-label' }, 'Input ', inputBox), el('span', {}, ' → '), outputText],
        output: inputError,
        figures: [attentionMap.element],
      }),
    );
    // Removed from the page (an <attention-lesson> disconnected): stop training,
    // free the trainer and end the worker.
    signal?.addEventListener('abort', () => {
      engine?.({ type: 'stop' });
      worker?.terminate();
      worker = undefined;
    });
    // The checkpoint (and the worker's source) are data scripts loaded now, not
    // part of the page's first load.
    Promise.all([
      loadDataScript('seq2seq-dates', assets.nmtCheckpoint ? [assets.nmtCheckpoint] : SITE_CHECKPOINTS),
      assets.nmtWorker ? null : loadDataScript('nmt-worker', [assets.nmtWorkerSource ?? 'nmt-worker-source.js']),
    ]).then(
      ([checkpointBase64, workerSource]) => {
        if (signal?.aborted) return;
        checkpoint = decodeBase64(checkpointBase64);
        startWorker(workerSource);
      },
      (error) => {
        errors.hidden = false;
        errors.textContent = `could not load the model: ${error.message}`;
      },
    );
  },
};
