// The sentences under the GloVe chapter's dot-product step, each said from the
// live weights (no claim the numbers do not bear out).
import { sameWordMatches, strongestPairs } from '../model.js';

const quote = (w) => `“${w}”`;

/** The three strongest query → key pairs. */
export function strongestText(a) {
  const strong = strongestPairs(a.dot.weights, a)
    .sort((x, y) => y.w - x.w)
    .slice(0, 3);
  return strong.length ? `Strongest: ${strong.map((b) => `“${b.t}” → “${b.to}” (${b.w.toFixed(2)})`).join(', ')}.` : '';
}

/** Whether a word attends most to itself, with raw vectors or with cosines. */
export function selfText(a, cosine) {
  const same = sameWordMatches(a);
  const lost = same.filter((m) => !m.self);
  const won = same.filter((m) => m.self);
  const them = (list) => (list.length === 1 ? 'itself' : 'themselves');
  if (cosine) {
    const winners = won.length
      ? `${won.map((m) => quote(m.word)).join(', ')} ${won.length === 1 ? 'attends' : 'attend'} most to ${them(won)}`
      : 'no word appears in both sentences here';
    const losers = lost.length
      ? `; ${lost.map((m) => `“${m.word}” still goes to “${m.winner}” (a tie or near-duplicate vector)`).join(', ')}`
      : '';
    return `With cosines every vector has length 1, so a word’s score with itself is 1, the largest possible: ${winners}${losers}.`;
  }
  const here = lost.length
    ? `Here ${lost.map((m) => `“${m.word}” attends most to “${m.winner}”, not to itself`).join('; ')}. `
    : won.length
      ? `Here ${won.map((m) => quote(m.word)).join(', ')} ${won.length === 1 ? 'happens' : 'happen'} to attend most to ${them(won)}. `
      : '';
  return `Related words light up, but the same word does not always win: GloVe vectors are not of length 1, and q·k is large for a long key vector that points roughly the same way as q. ${here}Turn on cosine similarity to compare directions only. Nothing was trained: this is what the raw vectors already know.`;
}

/** Why hatched cells are hatched (empty when every word has a vector). */
export function maskText(a) {
  const { missing } = a;
  if (!missing.length) return '';
  const one = missing.length === 1;
  return `Hatched: ${missing.map(quote).join(', ')} ${one ? 'has' : 'have'} no vector, so ${one ? 'it is' : 'they are'} masked — a missing query word gets no weights (its row stays 0) and a missing key word gets no weight (its column is 0; the other weights of each row still add up to 1). In the notebook, a zero vector scores 0 against every word, which gives its row a flat 1/${a.kTokens.length} and puts weight on words the vectors know nothing about.`;
}

/** How many query words with a vector attend most to the key at their own position. */
export function diagonalWins(a) {
  let wins = 0;
  let rows = 0;
  a.qTokens.forEach((_, i) => {
    if (a.qMissing[i] || i >= a.kTokens.length) return;
    const row = Array.from(a.dot.weights.row(i));
    rows++;
    if (row.indexOf(Math.max(...row)) === i) wins++;
  });
  return { wins, rows };
}
