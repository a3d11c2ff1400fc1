// The NMT chapter's last step: the attention as lines from each output
// character to the input characters, played one output character at a time
// (Distill's "Attention and Augmented RNNs").
import { step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { TokenLines } from '../../../figures/token-lines.js';
import { chars, playbackCaption } from '../model.js';

const PLAY_EVERY_MS = 900;

export function playbackStep({ root }) {
  const lines = new TokenLines({
    label: 'attention as lines: input characters on top, output characters below',
    orientation: 'horizontal',
    keyLabel: 'input',
    queryLabel: 'output',
    caption:
      'Each line joins an output character to an input character and is as opaque as its weight. Hover or focus a character to isolate its lines.',
  });
  lines.element.classList.add('nmt-lines');
  const playButton = el('button', { type: 'button', disabled: true, attrs: { 'aria-pressed': 'false' } }, 'Play');
  const stepButton = el('button', { type: 'button', disabled: true }, 'Step');
  const allButton = el('button', { type: 'button', disabled: true }, 'Show all');
  const playbackText = el('p', { className: 'nmt-playback', attrs: { 'aria-live': 'polite' } }, '');
  let translation = null;
  let playIndex = -1; // the output character shown alone, or -1 for all of them
  let timer = null;

  function draw() {
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
  function advance() {
    if (!translation || !root.isConnected) {
      stop();
      return;
    }
    if (playIndex >= translation.attention.rows - 1) {
      if (timer) {
        stop(); // played to the end: stay on the last character
        return;
      }
      playIndex = 0;
    } else {
      playIndex += 1;
    }
    draw();
  }
  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    playButton.textContent = 'Play';
    playButton.setAttribute('aria-pressed', 'false');
  }
  playButton.addEventListener('click', () => {
    if (timer) {
      stop();
      return;
    }
    if (!translation) return;
    if (playIndex < 0 || playIndex >= translation.attention.rows - 1) playIndex = -1;
    playButton.textContent = 'Pause playback';
    playButton.setAttribute('aria-pressed', 'true');
    advance();
    timer = setInterval(advance, PLAY_EVERY_MS);
  });
  stepButton.addEventListener('click', () => {
    stop();
    advance();
  });
  allButton.addEventListener('click', () => {
    stop();
    playIndex = -1;
    draw();
  });
  const buttons = [playButton, stepButton, allButton];

  const element = step({
    title: 'One output character at a time',
    intro: [
      'The same weights as lines from each output character up to the input characters, as opaque as the weights. Play writes the translation one character at a time, as the decoder does, and shows where each character looked; it keeps going while the model trains.',
    ],
    controls: buttons,
    output: playbackText,
    figures: [lines.element],
  });
  return {
    element,
    /** Draws a translation with at least one output character. */
    show(r) {
      translation = r;
      lines.element.hidden = false;
      for (const b of buttons) b.disabled = false;
      if (playIndex >= r.attention.rows) playIndex = r.attention.rows - 1;
      draw();
    },
    /** Nothing to play (`why`: the reason shown, or null). */
    clear(why) {
      translation = null;
      lines.element.hidden = true;
      stop();
      playbackText.textContent = why ? 'Nothing to play yet.' : '';
      for (const b of buttons) b.disabled = true;
    },
    stop,
  };
}
