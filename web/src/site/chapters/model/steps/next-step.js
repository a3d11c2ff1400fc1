// The model chapter's predictions: for a decoder the most likely next tokens
// (softmax of the last position's logits), for BERT the most likely tokens at
// each [MASK]. Each probability explains itself from the logits (hover a row,
// or focus the list and move with the arrow keys): the table is one Tab stop.
import { experiment, liveExperiment, step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { shown } from '../../../explain/format.js';
import { tokenLabel } from '../model.js';

/** The probability and a bar as wide as it (set through CSSOM: no inline style attribute under a CSP). */
function probability(p) {
  const bar = el('span', { className: 'model-next-bar' });
  bar.style.width = `${(100 * p).toFixed(1)}%`;
  return el('td', {}, `${p.toFixed(4)} `, el('span', { className: 'model-next-track' }, bar));
}

/**
 * p of token `id` from the logits z (float64, the stable softmax): the story of one row.
 * { p, text }: "p(·dog) = e^(z − z_max) / Σ_j e^(z_j − z_max) = e^(1.2 − 3.4) / 5.2 = 0.0212 …".
 */
export function probabilityStory(logits, id, label, where) {
  let max = -Infinity;
  for (const z of logits) max = Math.max(max, z);
  let sum = 0;
  for (const z of logits) sum += Math.exp(z - max);
  const z = logits[id];
  const p = Math.exp(z - max) / sum;
  const text =
    `p(${label}) = e^(z − z_max) / Σ_j e^(z_j − z_max) = e^(${shown(z)} − ${shown(max)}) / ${shown(sum)} = ${shown(p)}, ` +
    `over all ${logits.length} tokens of the vocabulary; z = ${shown(z)} is ${label}’s logit ${where}`;
  return { p, text };
}

export function nextStep({ predict, onMask, onCut } = {}) {
  const body = el('tbody');
  const head = el('th', { scope: 'col' }, 'next token');
  const table = el(
    'table',
    { className: 'model-next', attrs: { 'aria-label': 'the most likely next tokens', tabindex: '0' } },
    el('thead', {}, el('tr', {}, head, el('th', { scope: 'col' }, 'probability'))),
    body,
  );
  const story = el('p', { className: 'model-next-story', attrs: { 'aria-live': 'polite' } });
  const note = el('p', { className: 'model-next-note' });
  const mask = experiment({
    label: 'mask a word',
    explain: 'replaces the sentence’s second-last word by [MASK]: BERT then predicts it from both sides.',
    apply: () => onMask?.(),
  });
  const cut = liveExperiment({ label: 'drop the last word', explain: (text) => text, apply: () => onCut?.() });
  const intro = el('p', {});
  const element = step({
    title: '6. What comes next',
    intro: [intro],
    formula: 'p(\\text{next}) = \\operatorname{softmax}\\!\\left(\\operatorname{LN}_f(h_T)\\, W_{te}^\\top\\right)',
    predict,
    figures: [table],
    after: [story, note, mask, cut.element],
  });
  let rows = []; // [{ row, story }]
  let chosen = -1;
  const choose = (i) => {
    chosen = Math.max(0, Math.min(i, rows.length - 1));
    rows.forEach(({ row }, j) => row.classList.toggle('is-chosen', j === chosen));
    story.textContent = rows[chosen]?.story ?? '';
  };
  table.addEventListener('keydown', (event) => {
    const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    choose(chosen + step);
  });
  table.addEventListener('focus', () => choose(Math.max(chosen, 0)));

  /** Rows for one list of predictions ({ id, token, p }), each with the story of its p. */
  const rowsOf = (top, logits, where, labelOf) =>
    top.map(({ id, token, p }) => {
      const label = labelOf(id, token);
      const row = el('tr', { dataset: { id } }, el('td', { className: 'model-next-token' }, label), probability(p));
      const told = logits ? probabilityStory(logits, id, label, where).text : '';
      row.addEventListener('pointerenter', () => choose(rows.findIndex((r) => r.row === row)));
      return { row, story: told };
    });

  return {
    element,
    /** A decoder's run (next, logits), or BERT's (masked); `labelOf(id, token)` the tokens' labels. */
    show(result, shape, labelOf = (_, t) => tokenLabel(t)) {
      const bert = !shape.causal;
      intro.textContent = bert
        ? 'BERT reads the whole text at once, so it cannot say what comes next; it was trained to fill in a [MASK]. After the last block it scores every token of its vocabulary at each [MASK] and takes a softmax: the list shows the most likely fillers of the first [MASK] (its row, position in the text, is named in the heading).'
        : 'After the last block, the model normalises the last token’s vector, scores every token of its vocabulary against it with the output matrix and takes a softmax: the list shows the most likely next tokens. Hover a row, or focus the list and use ↑ ↓, to see its probability worked out from the logits.';
      mask.hidden = !bert;
      // GPT-2's formula and title are a decoder's: BERT's head fills a [MASK] instead.
      for (const node of element.querySelectorAll(':scope > .formula')) node.hidden = bert;
      element.querySelector('h2').textContent = bert ? '6. What fills the [MASK]' : '6. What comes next';
      cut.element.hidden = bert;
      const top = result.next?.[0];
      if (top)
        cut.show(
          `cuts the sentence before its last word. Now the most likely next token is “${labelOf(top.id, top.token)}” with p = ${shown(top.p)}.`,
        );
      table.setAttribute(
        'aria-label',
        bert ? 'the most likely tokens at the first [MASK]' : 'the most likely next tokens',
      );
      if (bert) {
        const first = result.masked?.[0];
        head.textContent = first ? `token at [MASK] (token ${first.position + 1})` : 'token at [MASK]';
        note.textContent = first
          ? result.masked.length > 1
            ? `The text has ${result.masked.length} [MASK] tokens; the list is the first one’s.`
            : ''
          : 'The text has no [MASK]: write [MASK] in place of a word (or Try below) to see what BERT would put there.';
        rows = first ? rowsOf(first.top, first.logits, `at token ${first.position + 1}`, labelOf) : [];
      } else {
        head.textContent = 'next token';
        note.textContent = '';
        rows = rowsOf(result.next ?? [], result.logits, 'after the last token', labelOf);
      }
      body.replaceChildren(...rows.map((r) => r.row));
      choose(Math.min(Math.max(chosen, 0), rows.length - 1));
    },
  };
}
