// Chapter "Neural machine translation with attention": a character-level
// encoder-decoder that turns human-written dates into ISO dates, trained live
// in a Web Worker, with its attention plot for any input the reader types
// (each cell explained from the model's own scores), its encoder outputs and
// decoder states explained from the GRU weights, a line diagram played one
// output character at a time, and each output character shaded by its
// probability. One module per step in nmt/ (step-*.js); this file wires them to
// the permalink state and the engine.
import { credit } from '../../chapter-kit.js';
import { startShippedModel } from '../../lesson-kit/engine-connection.js';
import { runControls } from '../../lesson-kit/run-controls.js';
import { el } from '../../dom.js';
import { addPrerendered } from '../../math.js';
import { linkFormulas } from '../../formula-links.js';
import { urlStore } from '../../url-state.js';
import { DEFAULT_INPUT, SCHEMA, trainingStatus } from './model.js';
import { combineStep } from './steps/step-combine.js';
import { decoderStep } from './steps/step-decoder.js';
import { encoderStep } from './steps/step-encoder.js';
import { explainedStates } from './steps/explained-states.js';
import { engineMessages } from './steps/messages.js';
import { outputStep } from './steps/step-output.js';
import { playbackStep } from './steps/step-playback.js';
import { nmtQuestions } from './predict.js';
import { scoreStep } from './steps/step-score.js';
import { trainStep } from './steps/step-train.js';
import { translateInput, wireControls } from './steps/controls.js';
import formulas from './formulas.js';
import meta from './meta.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

// The site's copy, then the package's (the site hosted from node_modules/attention-lab/dist/site/).
const SITE_CHECKPOINTS = ['nmt-checkpoint.js', '../elements/nmt-checkpoint.js'];
/** What each task's "Try" types: the same date in another format, or other digits. */
const TRY_INPUT = { dates: '2026 Nov 21st', reverse: '97531' };
// The inputs of steps 1 and 2's experiments, per task.
const STEP_INPUTS = {
  short: { dates: '1 May 2000', reverse: '123' },
  other: { dates: '21/11/2026', reverse: '8642' },
};

function introduction() {
  return [
    el('h1', { className: 'chapter-title' }, meta.title),
    credit({
      text: 'Follows the decoder of TensorFlow’s',
      title: 'Neural machine translation with attention tutorial',
      url: 'https://www.tensorflow.org/text/tutorials/nmt_with_attention',
      note: 'with Luong et al.’s attention (arXiv:1508.04025) on a character-level date task. The model, its gradients and the training loop are our own C++ compiled to WebAssembly, and the checkpoint it opens with was trained by this project’s code',
    }),
    el(
      'p',
      { className: 'lede' },
      'A translator reads a whole sentence and writes another. Here the “sentences” are dates as people write them — ',
      '“21 November 2026”, “nov 21, 2026”, “Saturday 21/11/26”, “2026 Nov 21st” — and the translation is the ISO form 2026-11-21. ',
      'The task is small enough to train in your browser (the status line below gives the speed on yours), yet it needs attention: to write the day, the decoder must find the day in the input, wherever the format put it.',
    ),
  ];
}

export default {
  ...meta, // id, title, summary

  /**
   * @param {HTMLElement} root
   * @param {{api: import('attention-lab').Attention}} context
   */
  render(root, { api, store = urlStore, signal, assets = {} }) {
    const read = store.readState(SCHEMA);
    const state = { task: read.task, score: read.score, input: read.input ?? DEFAULT_INPUT[read.task] };
    const questions = nmtQuestions();
    const figures = {}; // by the names explanations give their sources
    // The chapter's parts and state, shared by nmt/translation.js, messages.js and controls.js.
    const view = {
      root,
      state,
      model: null, // what the model reads: { alphabet, maxLength, task }, from its 'ready' message
      connection: null,
      checkpoint: null, // the shipped checkpoint's bytes, loaded with the chapter
      training: { steps: 0, loss: NaN, accuracy: NaN, stepsPerSecond: NaN, running: false, options: null },
      send: (message) => view.connection?.send(message),
      save: () =>
        store.writeState(SCHEMA, {
          ...state,
          input: state.input === DEFAULT_INPUT[state.task] ? null : state.input,
          pauseAt: read.pauseAt,
        }),
      setInput(text) {
        state.input = text;
        view.train.inputBox.value = text;
        view.save();
      },
      translate: (text) => translateInput(view, text),
      showStatus() {
        const t = view.training;
        const o = t.options;
        view.train.status.textContent = trainingStatus(t, {
          examples: 'examples',
          onMainThread: view.connection?.onMainThread,
          before: [`${t.source}: ${o ? `${o.task}, ${o.attention}, hidden ${o.hidden}` : ''}`],
        });
        root.dataset.nmtSteps = String(t.steps);
      },
    };
    view.training.source = 'shipped checkpoint';
    view.states = explainedStates({
      send: view.send,
      figures,
      onStories: (stories, t) => {
        view.encoder.showInputs(stories.x, t);
        view.decoder.showInputs(stories.y, t);
      },
    });
    const onTry = (kind) => view.translate(STEP_INPUTS[kind][state.task]);
    view.encoder = encoderStep({ explain: view.states.encoder, question: questions.encoder, onTry });
    view.decoder = decoderStep({ explain: view.states.decoder, question: questions.decoder, onTry });
    view.run = runControls({
      send: view.send,
      onChange: (running) => {
        view.training.running = running;
        view.showStatus();
      },
      pauseAt: read.pauseAt,
      onPauseAt: (step) => {
        read.pauseAt = step;
        view.save();
      },
    });
    view.train = trainStep({
      state,
      run: view.run,
      figures,
      question: questions.attention,
      tryInput: () => view.translate(TRY_INPUT[state.task]),
    });
    view.playback = playbackStep({ root });
    Object.assign(figures, {
      encoder: view.encoder.encoderMap,
      decoder: view.decoder.decoderMap,
      inputs: view.encoder.inputsMap,
      previous: view.decoder.previousMap,
    });
    wireControls(view);
    root.append(
      ...introduction(),
      ...[view.encoder, view.decoder, scoreStep(), combineStep(), outputStep(), view.train, view.playback].map(
        (s) => s.element,
      ),
    );
    linkFormulas(root, { encoder: figures.encoder, decoder: figures.decoder, attention: view.train.attentionMap });
    view.train.curve.draw(); // now on the page, so it paints with the theme's colours
    // Removed from the page (an <attention-lesson> disconnected): stop training,
    // free the trainer and end the worker.
    signal?.addEventListener('abort', () => {
      view.playback.stop();
      view.connection?.stop();
      view.connection = null;
    });
    const showError = (message) => {
      view.train.errors.hidden = false;
      view.train.errors.textContent = message;
    };
    const onMessage = engineMessages(view);
    startShippedModel({
      api,
      assets,
      signal,
      model: 'rnn',
      checkpoint: { key: 'seq2seq-dates', urls: assets.nmtCheckpoint ? [assets.nmtCheckpoint] : SITE_CHECKPOINTS },
      input: state.input,
      onMessage,
      onError: showError,
    }).then(
      (started) => started && ({ checkpoint: view.checkpoint, connection: view.connection } = started),
      (error) =>
        showError(`The model could not be loaded (${error.message}). Check the connection and reload the page.`),
    );
  },
};
