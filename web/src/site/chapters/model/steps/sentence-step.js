// The model chapter's sentence: typed text (and for BERT a second sentence, the
// pair), its tokens as the model's tokenizer cut them, and a message (nothing
// stale left on the page) when the text has no tokens or more than the model reads.
import { step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';

export function sentenceStep({ sentence, pair, maxLength, onInput, onPair }) {
  const box = el('textarea', {
    className: 'nmt-input model-sentence', // the NMT input's look, wider
    value: sentence,
    rows: 2,
    attrs: { 'aria-label': 'sentence for the model', maxlength: maxLength, spellcheck: 'false' },
  });
  box.addEventListener('input', () => onInput(box.value));
  const second = el('textarea', {
    className: 'nmt-input model-sentence model-pair',
    value: pair,
    rows: 1,
    attrs: { 'aria-label': 'second sentence (BERT reads a pair)', maxlength: maxLength, spellcheck: 'false' },
  });
  second.addEventListener('input', () => onPair(second.value));
  const pairBox = el('label', { className: 'model-pair-label', hidden: true }, 'Second sentence (optional): ', second);
  const tokens = el('p', { className: 'model-tokens', attrs: { 'aria-live': 'polite' } });
  const message = el('p', { className: 'error model-message', attrs: { role: 'alert' }, hidden: true });
  const intro = el('p', {});
  const element = step({
    title: '2. Type a sentence',
    intro: [intro],
    controls: [box, pairBox],
    after: [tokens, message],
  });
  return {
    element,
    /** A run's tokens (labels: as the figures show them), or the message that replaces them. */
    show(result, shape, labels) {
      const bert = !shape.causal;
      pairBox.hidden = !bert;
      intro.textContent = bert
        ? 'BERT’s tokenizer (WordPiece) lower-cases the text and cuts rare words into pieces (a piece inside a word starts with ##); it puts [CLS] first and [SEP] after each sentence. With a second sentence the pair is read as one text, [CLS] A [SEP] B [SEP], the second sentence’s tokens marked type 1. Write [MASK] in place of a word to have it predicted.'
        : 'The tokenizer cuts the text into tokens (byte-level BPE, as GPT-2’s: a token often starts with its space, shown as ·; a token that is part of a character’s bytes shows them, as ⟨F0⟩); the model reads at most ' +
          `${shape.positionsName} = ${shape.positions} of them.`;
      message.hidden = !result.message;
      message.textContent = result.message ?? '';
      tokens.replaceChildren(
        ...(result.tokens ?? []).map((t, i) =>
          el(
            'span',
            {
              className: `model-token${result.typeIds?.[i] ? ' is-second' : ''}`,
              title: `token ${i + 1}, id ${result.ids[i]}${result.typeIds ? `, type ${result.typeIds[i]}` : ''}`,
            },
            labels[i],
          ),
        ),
      );
    },
    /** Text an experiment set. */
    sync(text, pairText) {
      box.value = text;
      second.value = pairText;
    },
  };
}
