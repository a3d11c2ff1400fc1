// The NMT chapter's side of its engine's messages (../nmt-engine.js lists them).
import { inputProblem } from '../model.js';
import { showInputProblem, showTranslation } from './translation.js';

/** (data) => void for the engine's messages; `view` is the chapter's steps and state (../nmt.js). */
export function engineMessages(view) {
  const { root, train, training } = view;
  const ready = (data) => {
    const o = data.options;
    view.model = { alphabet: data.alphabet, maxLength: data.maxInputLength, task: o.task };
    view.states.setModel({ alphabet: data.alphabet, outputAlphabet: data.outputAlphabet, ...o });
    Object.assign(training, { steps: data.steps, options: o, accuracy: data.accuracy, loss: NaN });
    train.curve.reset();
    for (const b of [view.run.startButton, train.resetButton, train.shippedButton, train.sampleButton])
      b.disabled = false;
    view.run.setRunning(false);
    root.dataset.nmtReady = 'true';
  };
  const progress = (data) => {
    training.steps = data.steps;
    if (data.loss !== undefined) {
      training.loss = data.loss;
      training.stepsPerSecond = data.stepsPerSecond;
      train.curve.add(data.steps, data.loss);
    }
    if (data.accuracy !== undefined) training.accuracy = data.accuracy;
    if (data.paused) view.run.setRunning(false); // it reached "pause at step"
    view.showStatus();
  };
  const handlers = {
    ready,
    progress,
    sample: (data) => view.setInput(data.input),
    translation: (data) => showTranslation(view, data),
    weights: (data) => view.states.setWeights(data),
    'translation-error': (data) => {
      if (data.input !== view.state.input) return;
      // The reader's words for it (the API's message names the function and its argument).
      const problem = view.model && inputProblem(view.state.input, view.model);
      showInputProblem(view, problem ?? 'The model could not translate this input.');
    },
    error: (data) => {
      train.errors.hidden = false;
      train.errors.textContent = `Training stopped: ${data.message}`;
      view.run.setRunning(false);
    },
  };
  return (data) => {
    if (!root.isConnected) {
      view.connection?.stop(); // the reader moved to another chapter
      return;
    }
    handlers[data.type]?.(data);
  };
}
