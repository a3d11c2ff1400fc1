// The model chapter's next-token list: the most likely continuations of the
// sentence with their probabilities (softmax of the last position's logits).
import { step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { tokenLabel } from '../model.js';

/** The probability and a bar as wide as it (set through CSSOM: no inline style attribute under a CSP). */
function probability(p) {
  const bar = el('span', { className: 'model-next-bar' });
  bar.style.width = `${(100 * p).toFixed(1)}%`;
  return el('td', {}, `${p.toFixed(4)} `, el('span', { className: 'model-next-track' }, bar));
}

export function nextStep({ predict } = {}) {
  const body = el('tbody');
  const table = el(
    'table',
    { className: 'model-next', attrs: { 'aria-label': 'the most likely next tokens' } },
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'next token'), el('th', { scope: 'col' }, 'probability'))),
    body,
  );
  const element = step({
    title: '6. What comes next',
    intro: [
      'After the last block, GPT-2 normalises the last token’s vector (ln_f), scores every token of its vocabulary against it with the output matrix (GPT-2 ties it to the token embeddings W_te) and takes a softmax: the list shows the most likely next tokens.',
    ],
    formula: 'p(\\text{next}) = \\operatorname{softmax}\\!\\left(\\operatorname{LN}_f(h_T)\\, W_{te}^\\top\\right)',
    predict,
    figures: [table],
  });
  return {
    element,
    show(next) {
      body.replaceChildren(
        ...(next ?? []).map(({ id, token, p }) =>
          el('tr', { dataset: { id } }, el('td', { className: 'model-next-token' }, tokenLabel(token)), probability(p)),
        ),
      );
    },
  };
}
