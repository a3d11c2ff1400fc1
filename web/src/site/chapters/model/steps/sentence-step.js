// The model chapter's sentence: typed text, its tokens as the model's
// tokenizer cut them, and a message (nothing stale left on the page) when the
// text has no tokens or more than the model's n_positions.
import { step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { tokenLabel } from '../model.js';

export function sentenceStep({ sentence, maxLength, onInput }) {
  const box = el('textarea', {
    className: 'nmt-input model-sentence', // the NMT input's look, wider
    value: sentence,
    rows: 2,
    attrs: { 'aria-label': 'sentence for the model', maxlength: maxLength, spellcheck: 'false' },
  });
  box.addEventListener('input', () => onInput(box.value));
  const tokens = el('p', { className: 'model-tokens', attrs: { 'aria-live': 'polite' } });
  const message = el('p', { className: 'error model-message', attrs: { role: 'alert' }, hidden: true });
  const element = step({
    title: '2. Type a sentence',
    intro: [
      'The tokenizer cuts the text into tokens (byte-level BPE, as GPT-2’s: a token often starts with its space, shown as ·); the model reads at most n_positions of them.',
    ],
    controls: [box],
    after: [tokens, message],
  });
  return {
    element,
    /** A run's tokens, or the message that replaces them. */
    show(result) {
      message.hidden = !result.message;
      message.textContent = result.message ?? '';
      tokens.replaceChildren(
        ...(result.tokens ?? []).map((t, i) =>
          el('span', { className: 'model-token', title: `token ${i + 1}, id ${result.ids[i]}` }, tokenLabel(t)),
        ),
      );
    },
  };
}
