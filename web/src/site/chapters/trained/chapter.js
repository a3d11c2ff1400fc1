// Chapter "A Transformer trained in your browser": the encoder–decoder
// Transformer of "Attention is all you need", trained on the NMT chapter's
// date task by the C++ core (a TransformerTrainer in the training worker). It
// opens with a shipped checkpoint, so every map already means something. This
// module holds the state and the engine's messages; each step is a module in
// trained/ that builds its DOM and shows the data it is handed.
import { credit, errorLine } from '../../chapter-kit.js';
import { storyForFigures, Trace } from '../../explain/trace.js';
import { el } from '../../dom.js';
import { addPrerendered } from '../../math.js';
import { loadDataScript } from '../../data-script.js';
import { urlStore } from '../../url-state.js';
import { startShippedModel } from '../../lesson-kit/engine-connection.js';
import { runControls } from '../../lesson-kit/run-controls.js';
import { decodeBase64, trainingStatus, translationCheck } from '../../lesson-kit/seq2seq-model.js';
import { DEFAULT_INPUT, MAX_INPUT, SCHEMA, TASKS, tracePositions, traceTranslation, unreadable } from './model.js';
import { modelStep } from './steps/step-model.js';
import { positionsStep } from './steps/step-positions.js';
import { headsStep } from './steps/step-heads.js';
import { findingsStep } from './steps/step-findings.js';
import { playbackStep } from './steps/step-playback.js';
import { trainingStep } from './steps/step-training.js';
import { rnnStep } from './steps/step-rnn.js';
import speed from '../../lesson-kit/training-speed.js';
import formulas from './formulas.js';
import meta from './meta.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

// The site's copies, then the package's (the site hosted from node_modules/attention-lab/dist/site/).
const TRANSFORMER_CHECKPOINTS = ['transformer-checkpoint.js', '../elements/transformer-checkpoint.js'];
const RNN_CHECKPOINTS = ['nmt-checkpoint.js', '../elements/nmt-checkpoint.js'];

/** Why the model cannot translate `input` (the engine's message as a fallback). */
function refusal(input, model, message) {
  const bad = model ? unreadable(input, model.alphabet) : null;
  if (bad) return `The model cannot read “${bad}”: it knows letters, digits, spaces and , . / - only.`;
  if (input.length === 0) return 'Type something to translate.';
  if (input.length > (model?.maxInputLength ?? MAX_INPUT))
    return `The model reads at most ${model.maxInputLength} characters.`;
  return message;
}

/** Start, Pause, "pause at step", Reset, the shipped checkpoint and the task (step 6's controls). */
function trainingControls({ task, pauseAt, send, onChange, onPauseAt }) {
  const controls = runControls({ send, onChange, pauseAt, onPauseAt });
  const scratchButton = el('button', { type: 'button', disabled: true }, 'Reset (train from scratch)');
  const shippedButton = el('button', { type: 'button', disabled: true }, 'Load the shipped checkpoint');
  const taskSelect = el(
    'select',
    { attrs: { 'aria-label': 'task' } },
    ...TASKS.map(([id, label]) => el('option', { value: id, selected: id === task }, label)),
  );
  return { ...controls, scratchButton, shippedButton, taskSelect };
}

/** The title, the credit and the lede. */
const chapterHead = () => [
  el('h1', { className: 'chapter-title' }, meta.title),
  credit({
    text: 'The model of Vaswani et al.,',
    title: 'Attention is all you need (2017)',
    url: 'https://arxiv.org/abs/1706.03762',
    note: 'trained here on the NMT chapter’s date task. The model, its gradients, Adam and the training loop are our own C++ compiled to WebAssembly',
  }),
  credit({
    text: 'Its three uses of multi-head attention as the',
    title: 'neqkir/attention-mechanism notes',
    url: 'https://github.com/neqkir/attention-mechanism',
    note: 'lay them out (after The Annotated Transformer, Harvard NLP)',
  }),
  el(
    'p',
    { className: 'lede' },
    'The Transformer chapter showed the three uses of attention with random weights, so every map was noise. Here the same mechanism is trained: a small encoder–decoder Transformer learned to turn dates as people write them into ISO dates, and its heads found jobs. It opens with a checkpoint trained by this same code; you can also train it from scratch below, in a Web Worker, and watch the heads sharpen.',
  ),
];

/**
 * Loads the shipped Transformer into the engine (a worker, or the main thread) and the NMT
 * chapter's RNN: data scripts fetched when the chapter opens, not with the page.
 */
function loadModels({ api, assets, signal, input, onMessage, onError, onStarted, onRnn, onRnnError }) {
  startShippedModel({
    api,
    assets,
    signal,
    model: 'transformer',
    checkpoint: {
      key: 'transformer-dates',
      urls: assets.transformerCheckpoint ? [assets.transformerCheckpoint] : TRANSFORMER_CHECKPOINTS,
    },
    input,
    onMessage,
    onError,
  }).then(
    (started) => started && onStarted(started),
    (error) => onError(`The model could not be loaded (${error.message}). Reload the page to try again.`),
  );
  // The RNN translates on the main thread: its checkpoint and the trainers' module, fetched together.
  Promise.all([
    loadDataScript('seq2seq-dates', assets.nmtCheckpoint ? [assets.nmtCheckpoint] : RNN_CHECKPOINTS),
    api.loadTrainers(),
  ]).then(([base64]) => {
    if (!signal?.aborted) onRnn(api.Seq2SeqTrainer.load(decodeBase64(base64)));
  }, onRnnError);
}

/**
 * One lesson of the chapter: its state (input, chosen use and head, the model and its last
 * translation, training progress), its steps, and the engine's messages.
 */
class TrainedLesson {
  constructor(root, { api, store, signal, assets }) {
    const read = store.readState(SCHEMA);
    Object.assign(this, { root, api, store, signal, assets });
    this.task = 'dates';
    this.input = read.input ?? DEFAULT_INPUT.dates;
    this.use = read.use;
    this.selected = { layer: read.layer, head: read.head };
    this.pauseAt = read.pauseAt;
    this.model = null; // the 'ready' message: options, steps, alphabet, positional encoding
    this.translation = null; // the last 'translation' message for the input; null when none is current
    this.checkpoint = null;
    this.connection = null;
    this.rnn = null; // the NMT chapter's shipped RNN, on the main thread (translating is cheap)
    // The model's numbers as a trace of named tensors: every map explains its cells from it.
    this.trace = new Trace();
    this.figures = {}; // tensor name -> the figure drawing it (the readouts outline sources there)
    this.training = { running: false, steps: 0, loss: NaN, accuracy: NaN, stepsPerSecond: NaN, seconds: 0 };
    this.reached = null; // { steps, seconds }: the first evaluation at >= 99 % since "from scratch"
    this.source = 'shipped checkpoint';
    this.errors = errorLine();
    this.status = el('p', { className: 'nmt-status', attrs: { 'aria-live': 'polite' } }, '');
    this.controls = trainingControls({
      task: this.task,
      pauseAt: this.pauseAt,
      send: (message) => this.connection?.send(message),
      onChange: (running) => {
        this.training.running = running;
        this.showStatus();
      },
      onPauseAt: (step) => {
        this.pauseAt = step;
        this.save();
      },
    });
    this.steps = this.buildSteps();
    this.wireControls();
    root.append(...chapterHead(), ...Object.values(this.steps).map((s) => s.element));
    signal?.addEventListener('abort', () => this.stop());
    this.load();
  }

  save() {
    const { input, task, use, selected, pauseAt } = this;
    this.store.writeState(SCHEMA, {
      input: input === DEFAULT_INPUT[task] ? null : input,
      use,
      layer: selected.layer,
      head: selected.head,
      pauseAt,
    });
  }

  buildSteps() {
    const story = storyForFigures(this.trace, this.figures);
    const { figures, trace, root } = this;
    const choose = (use, where) => this.choose(use, where);
    const onTry = (text) => this.tryInput(text); // an experiment's input, shown in step 3's field
    const c = this.controls;
    const steps = {
      model: modelStep({ onSelect: (id) => choose(id) }),
      positions: positionsStep({ story, onTry }),
      heads: headsStep({
        input: this.input,
        story,
        figures,
        onInput: (text) => this.retranslate(text),
        onSelectHead: choose,
        onTry,
      }),
      findings: findingsStep({
        onTry,
        onShow: (use, where) => {
          choose(use, where);
          steps.heads.largeFigure.scrollIntoView({ block: 'nearest' }); // the map it changed, on screen
        },
      }),
      playback: playbackStep({
        trace,
        onTry,
        onStep: (t, char) => {
          root.dataset.trainedPlayback = String(t);
          root.dataset.trainedPlaybackChar = char ?? '';
        },
      }),
      training: trainingStep({
        controls: [
          el('label', { className: 'control-label' }, 'Task ', c.taskSelect),
          c.startButton,
          c.pauseButton,
          c.pauseAtField,
          c.scratchButton,
          c.shippedButton,
        ],
        status: this.status,
        errors: this.errors,
        onSelectHead: choose,
        onTry: (steps) => this.trainTo(steps),
      }),
      rnn: rnnStep({ api: this.api, story, figures, trace, speed, onTry }),
    };
    return steps;
  }

  choose(use, where = this.selected) {
    this.use = use;
    this.selected = { layer: where.layer, head: where.head };
    this.save();
    this.drawViews();
  }

  showModel(output = this.translation?.output) {
    const { model, source, training, use, input } = this;
    if (model) this.steps.model.show({ model, source, steps: training.steps, use, input, output });
  }

  // ---- what the views show
  drawViews() {
    if (!this.model) return;
    const { layers, heads } = this.model.options;
    const selected = {
      layer: Math.min(this.selected.layer, layers - 1),
      head: Math.min(this.selected.head, heads - 1),
    };
    const { steps, root, translation, use, input, task } = this;
    this.selected = selected;
    this.showModel();
    steps.training.choose(use, selected);
    root.dataset.trainedUse = use;
    if (!translation) return;
    const warning = translationCheck(task, input, translation.output);
    steps.heads.show({ translation, use, selected, input, warning });
    steps.playback.show({ translation, input, selected });
    steps.rnn.show({ translation, input, layer: selected.layer, rnn: this.rnn });
    root.dataset.trainedDrawn = String(Number(root.dataset.trainedDrawn ?? 0) + 1);
  }

  /** Nothing current to draw (an unreadable input, a new model): every dependent view says why. */
  stale(reason, refused = false) {
    this.translation = null;
    this.root.dataset.trainedStale = reason;
    if (refused) this.steps.heads.refuse(reason);
    else this.steps.heads.wait(reason);
    this.steps.findings.clear(reason);
    this.steps.playback.clear(reason);
    this.steps.rnn.clear(reason);
    this.showModel('');
  }

  showStatus() {
    const { reached } = this;
    this.status.textContent = trainingStatus(this.training, {
      examples: this.task === 'dates' ? 'dates' : 'examples',
      onMainThread: this.connection?.onMainThread,
      after: [
        reached ? `99% reached at step ${reached.steps} after ${reached.seconds.toFixed(1)} s of training` : null,
      ],
    });
    this.root.dataset.trainedSteps = String(this.training.steps);
    this.showModel();
  }

  // ---- the engine
  onReady(data) {
    this.model = data;
    Object.assign(this.training, { steps: data.steps, accuracy: data.accuracy, loss: NaN, seconds: 0 });
    this.steps.training.reset();
    this.steps.training.accuracy(data.steps, data.accuracy);
    const c = this.controls;
    for (const b of [c.startButton, c.scratchButton, c.shippedButton]) b.disabled = false;
    tracePositions(this.trace, data.positionalEncoding);
    this.steps.positions.show(data.positionalEncoding);
    c.setRunning(false);
    this.drawViews();
    this.root.dataset.trainedReady = 'true';
  }

  onProgress(data) {
    const { training } = this;
    training.steps = data.steps;
    if (data.loss !== undefined) {
      training.loss = data.loss;
      training.stepsPerSecond = data.stepsPerSecond;
      this.steps.training.loss(data.steps, data.loss);
    }
    if (data.paused) this.controls.setRunning(false); // it reached "pause at step"
    if (data.accuracy !== undefined) {
      training.accuracy = data.accuracy;
      this.steps.training.accuracy(data.steps, data.accuracy);
      if (this.source === 'from scratch' && !this.reached && data.accuracy >= 0.99) {
        this.reached = { steps: data.steps, seconds: data.trainingSeconds };
      }
    }
    this.showStatus();
  }

  onTranslation(data) {
    const { input, task, training, root } = this;
    if (data.input !== input) return; // a newer input is on its way
    this.translation = data;
    root.dataset.trainedStale = '';
    traceTranslation(this.api, this.trace, data, input);
    root.dataset.trainedOutput = data.output;
    this.drawViews();
    this.steps.findings.show({ translation: data, input, task });
    const { loss, accuracy } = training;
    this.steps.training.snapshot({ steps: training.steps, loss, accuracy, input, translation: data });
  }

  onMessage(data) {
    if (!this.root.isConnected) {
      this.connection?.stop(); // the reader moved to another chapter
      return;
    }
    if (data.type === 'ready') this.onReady(data);
    else if (data.type === 'progress') this.onProgress(data);
    else if (data.type === 'translation') this.onTranslation(data);
    else if (data.type === 'translation-error') {
      if (data.input !== this.input) return;
      this.root.dataset.trainedOutput = '';
      this.stale(refusal(this.input, this.model, data.message), true);
    } else if (data.type === 'error') {
      this.showError(data.message);
      this.controls.setRunning(false);
    }
  }

  showError(message) {
    this.errors.hidden = false;
    this.errors.textContent = message;
  }

  // ---- controls
  newModel(message) {
    this.reached = null;
    this.stale('A new model is loading: its first translation replaces these maps in a moment.');
    this.connection?.send(message);
  }

  fromScratch() {
    this.source = 'from scratch';
    this.newModel({ type: 'reset', model: 'transformer', options: { task: this.task, seed: 0 }, input: this.input });
    this.controls.setRunning(false);
  }

  wireControls() {
    const { scratchButton, shippedButton, taskSelect } = this.controls;
    scratchButton.addEventListener('click', () => this.fromScratch());
    shippedButton.addEventListener('click', () => {
      this.source = 'shipped checkpoint';
      if (this.task !== 'dates') {
        this.task = 'dates';
        taskSelect.value = this.task;
        this.setInput(DEFAULT_INPUT.dates);
      }
      this.newModel({ type: 'reset', model: 'transformer', checkpoint: this.checkpoint, input: this.input });
    });
    taskSelect.addEventListener('change', () => {
      const previousDefault = this.input === DEFAULT_INPUT[this.task];
      this.task = taskSelect.value;
      if (previousDefault || this.task !== 'dates') this.setInput(DEFAULT_INPUT[this.task]);
      this.fromScratch();
    });
  }

  setInput(text) {
    this.input = text;
    this.steps.heads.setInput(text);
    this.save();
  }

  /** An experiment's input: into step 3's field, then translated. */
  tryInput(text) {
    this.setInput(text);
    this.retranslate(text);
  }

  /** The training experiment: from scratch, pausing by itself at step `steps`. */
  trainTo(steps) {
    this.controls.setPauseAt(steps);
    this.pauseAt = steps;
    this.save();
    this.fromScratch();
    this.controls.startButton.click();
  }

  retranslate(text) {
    this.input = text;
    this.save();
    this.connection?.send({ type: 'translate', input: text });
  }

  load() {
    const { api, assets, signal, input } = this;
    loadModels({
      api,
      assets,
      signal,
      input,
      onMessage: (data) => this.onMessage(data),
      onError: (message) => this.showError(message),
      onStarted: ({ checkpoint, connection }) => Object.assign(this, { checkpoint, connection }),
      onRnn: (rnn) => {
        this.rnn = rnn;
        this.root.dataset.trainedRnn = 'true';
        const { translation } = this;
        if (translation) this.steps.rnn.show({ translation, input: this.input, layer: this.selected.layer, rnn });
      },
      onRnnError: () => this.steps.rnn.clear('The RNN’s checkpoint could not be loaded.'),
    });
  }

  stop() {
    this.steps.playback.stop();
    this.connection?.stop();
    this.connection = null;
    this.rnn?.delete();
    this.rnn = null;
  }
}

export default {
  ...meta, // id, title, summary

  /**
   * @param {HTMLElement} root
   * @param {{api: import('attention-lab').Attention}} context
   */
  render(root, { api, store = urlStore, signal, assets = {} }) {
    new TrainedLesson(root, { api, store, signal, assets });
  },
};
