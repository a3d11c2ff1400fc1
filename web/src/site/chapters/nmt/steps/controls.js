// The NMT chapter's controls: task, score function, Reset, the shipped
// checkpoint, the input box and Random example. `view` is the chapter's steps
// and state (../nmt.js).
import { DEFAULT_INPUT, inputProblem } from '../model.js';
import { clearPlot, showInputProblem } from './translation.js';

export function wireControls(view) {
  const { train, state } = view;
  const fromScratch = () => {
    view.training.source = 'from scratch';
    train.curve.reset();
    // The old model's plot goes at once; the new model's translation says what it wrote.
    clearPlot(view, 'Training from scratch: the new model starts from random weights.');
    view.send({ type: 'reset', options: { task: state.task, attention: state.score, seed: 0 }, input: state.input });
    view.run.setRunning(false);
  };
  train.taskSelect.addEventListener('change', () => {
    const previousDefault = state.input === DEFAULT_INPUT[state.task];
    state.task = train.taskSelect.value;
    view.save();
    if (previousDefault || state.task === 'reverse') view.setInput(DEFAULT_INPUT[state.task]);
    train.showFormats(state.task);
    fromScratch();
  });
  train.resetButton.addEventListener('click', fromScratch);
  train.shippedButton.addEventListener('click', () => {
    view.training.source = 'shipped checkpoint';
    state.score = 'luong-general';
    train.scoreSelect.value = state.score;
    if (state.task !== 'dates') {
      state.task = 'dates';
      train.taskSelect.value = state.task;
      train.showFormats(state.task);
      view.setInput(DEFAULT_INPUT.dates);
    }
    view.save();
    view.send({ type: 'reset', checkpoint: view.checkpoint, input: state.input });
  });
  train.scoreSelect.addEventListener('change', () => {
    state.score = train.scoreSelect.value;
    view.save();
    fromScratch();
  });
  train.inputBox.addEventListener('input', () => view.translate(train.inputBox.value));
  train.sampleButton.addEventListener('click', () => view.send({ type: 'sample' }));
}

/** Translates `text` (typed, or set by a "Try"), or says why the model cannot read it. */
export function translateInput(view, text) {
  view.setInput(text);
  const problem = view.model && inputProblem(text, view.model);
  if (problem) showInputProblem(view, problem);
  else view.send({ type: 'translate', input: text });
}
