// What the NMT chapter does with a translation from its engine: every figure
// and sentence that depends on it is drawn from it, or, when there is nothing
// to draw (an empty output, an unreadable input, a model being reset), cleared
// with the reason shown. `view` is the chapter's steps and state (../nmt.js).
import { outputNote } from '../model.js';

/** Hides the attention figures and says why (`why`: text, or null when an error line says it). */
export function clearPlot(view, why) {
  view.states.setTranslation(null);
  view.train.clear(why);
  view.decoder.hide();
  view.playback.clear(why);
  view.root.dataset.nmtPlot = 'cleared';
}

/** An input the model cannot read: the reader's words for it, and nothing stale left drawn. */
export function showInputProblem(view, message) {
  view.train.inputError.hidden = false;
  view.train.inputError.textContent = message;
  view.train.outputText.textContent = '—';
  view.encoder.clear();
  clearPlot(view, null);
}

/** Draws translation `r` (the engine's message) in every step. */
export function showTranslation(view, r) {
  if (r.input !== view.state.input) return; // a newer input is on its way
  const { root, train, encoder, decoder, playback, states } = view;
  train.inputError.hidden = true;
  root.dataset.nmtOutput = r.output;
  root.dataset.nmtInput = r.input;
  encoder.show(r);
  train.showOutput(r, view.model?.task ?? view.state.task); // the task of the model that wrote it
  if (r.attention.rows === 0) {
    clearPlot(view, outputNote(r.output, view.training.steps));
    states.setTranslation(r); // the encoder outputs still explain themselves
    return;
  }
  states.setTranslation(r);
  train.show(r, view.model?.task ?? view.state.task, outputNote(r.output, view.training.steps));
  decoder.show(r);
  playback.show(r);
  root.dataset.nmtPlot = 'drawn';
}
