// Step 1 of the GloVe chapter: two sentences, split into tokens.
import { code, el } from '../../../dom.js';
import { indexingNote, liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { pyList } from '../model.js';

const UNKNOWN = 'qzxv'; // a made-up word no GloVe release has

const chipList = (label) => el('ol', { className: 'tokens', attrs: { 'aria-label': label } });

/** The token chips, a token with no vector in `E` marked (E null: not loaded yet). */
function showChips(list, tokens, E) {
  list.replaceChildren(
    ...tokens.map((t) => {
      const missing = E !== null && !E.has(t);
      return el(
        'li',
        { className: missing ? 'token missing' : 'token', title: missing ? 'no vector: shown as a zero row' : '' },
        t,
        missing ? el('span', { className: 'visually-hidden' }, ' (no vector)') : null,
      );
    }),
  );
}

// Try: a word with no vector; the claim about it is made only when the table in use lacks it.
function unknownText(E, r) {
  const missing = r.attention?.missing ?? [];
  if (missing.length)
    return `Here ${missing.map((w) => `“${w}”`).join(', ')} ${missing.length === 1 ? 'has' : 'have'} no vector: hatched in step 3, left out of the attention in step 4.`;
  if (E && !E.has(UNKNOWN))
    return `Adds the made-up word “${UNKNOWN}” to the query sentence: it has no vector, so step 3 draws it hatched and step 4 leaves it out.`;
  return `Adds the made-up word “${UNKNOWN}” to the query sentence.`;
}

export function sentencesStep({ state, edit, table }) {
  const sentence = (label, key) => {
    const input = el('input', {
      type: 'text',
      value: state[key],
      className: 'sentence',
      spellcheck: false,
      attrs: { 'aria-label': label, autocomplete: 'off' },
      on: { input: () => edit({ [key]: input.value }) },
    });
    return input;
  };
  const inputs = { query: sentence('query sentence', 'query'), key: sentence('key sentence', 'key') };
  const out = outputBlock('the tokens as Python prints them');
  const queryChips = chipList('query tokens');
  const keyChips = chipList('key tokens');
  const tryUnknown = liveExperiment({
    label: 'a word with no vector',
    explain: (r) => unknownText(table(), r),
    apply: () => edit({ query: `${state.query} ${UNKNOWN}` }, { program: true }),
  });
  const element = step({
    title: '1. Two sentences, split into tokens',
    intro: [
      el(
        'p',
        {},
        'The first sentence asks the questions (its tokens are the ',
        el('em', {}, 'queries'),
        '), the second answers them (its tokens are the ',
        el('em', {}, 'keys'),
        '). Tokens are what ',
        code('str.split()'),
        ' gives: the text between runs of white space, punctuation and capitals kept. Edit either sentence.',
      ),
      indexingNote(),
    ],
    controls: [
      el('label', { className: 'sentence-label' }, 'query sentence ', inputs.query),
      el('label', { className: 'sentence-label' }, 'key sentence ', inputs.key),
    ],
    output: out,
    after: [queryChips, keyChips, tryUnknown.element],
  });
  return {
    element,
    show(r) {
      out.textContent = `query_tokens = ${pyList(r.qTokens)}\nkey_tokens   = ${pyList(r.kTokens)}`;
      showChips(queryChips, r.qTokens, table());
      showChips(keyChips, r.kTokens, table());
      tryUnknown.show(r);
    },
    sync: () => {
      inputs.query.value = state.query;
      inputs.key.value = state.key;
    },
  };
}
