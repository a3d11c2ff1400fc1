// The Start / Pause pair of both training chapters (nmt, trained): the two
// buttons (disabled until the chapter's engine is ready), the messages they
// send it, and which one is enabled while training runs or not.
import { el } from '../dom.js';

/**
 * @param {object} hooks
 * @param {(message: {type: 'start' | 'pause'}) => void} hooks.send to the chapter's engine
 * @param {(running: boolean) => void} hooks.onChange after every change (the status line)
 */
export function runControls({ send, onChange }) {
  const startButton = el('button', { type: 'button', disabled: true }, 'Start');
  const pauseButton = el('button', { type: 'button', disabled: true }, 'Pause');
  const setRunning = (running) => {
    startButton.disabled = running;
    pauseButton.disabled = !running;
    onChange(running);
  };
  startButton.addEventListener('click', () => {
    send({ type: 'start' });
    setRunning(true);
  });
  pauseButton.addEventListener('click', () => {
    send({ type: 'pause' });
    setRunning(false);
  });
  return { startButton, pauseButton, setRunning };
}
