// The Start / Pause pair of both training chapters (nmt, trained): the two
// buttons (disabled until the chapter's engine is ready), the messages they
// send it, which one is enabled while training runs or not, and the step at
// which training pauses by itself ("pause at step", 0 = never): a reader can
// replay a run to the same step, and a test can train a fixed number of steps.
import { el } from '../dom.js';
import { NumberInput } from '../number-input.js';
import { pauseAtEntry } from './seq2seq-model.js';

const { min: MIN_STEP, max: MAX_STEP } = pauseAtEntry('');

/**
 * @param {object} hooks
 * @param {(message: {type: 'start', until?: number} | {type: 'pause'}) => void} hooks.send to the chapter's engine
 * @param {(running: boolean) => void} hooks.onChange after every change (the status line)
 * @param {number} [hooks.pauseAt] the step to pause at (0: never)
 * @param {(step: number) => void} [hooks.onPauseAt] after the reader changes it (to save the state)
 */
export function runControls({ send, onChange, pauseAt = 0, onPauseAt = () => {} }) {
  const startButton = el('button', { type: 'button', disabled: true }, 'Start');
  const pauseButton = el('button', { type: 'button', disabled: true }, 'Pause');
  let until = pauseAt;
  const pauseAtField = new NumberInput({
    value: until,
    label: 'pause at step (0 = never)',
    caption: 'pause at step',
    integer: true,
    min: MIN_STEP,
    max: MAX_STEP,
    width: '6em',
    onChange: (step) => {
      until = step;
      onPauseAt(step);
    },
  });
  const setRunning = (running) => {
    startButton.disabled = running;
    pauseButton.disabled = !running;
    onChange(running);
  };
  startButton.addEventListener('click', () => {
    send(until > 0 ? { type: 'start', until } : { type: 'start' });
    setRunning(true);
  });
  pauseButton.addEventListener('click', () => {
    send({ type: 'pause' });
    setRunning(false);
  });
  /** Sets "pause at step" as if typed (an experiment). */
  const setPauseAt = (step) => {
    pauseAtField.set(step);
    until = step;
  };
  return { startButton, pauseButton, pauseAtField: pauseAtField.element, setRunning, setPauseAt, pauseAt: () => until };
}
