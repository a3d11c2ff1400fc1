// The model chapter's questions (predict.js), answered from the live run:
// where the last token looks across all heads (step 3), how concentrated the
// chosen head's last row is (step 4), and how sure the model is of its next
// token (step 6). `run` is runSentence's result; `weights` a head's (T × T) Matrix.
import { shown } from '../../explain/format.js';
import { clearArgmax, prediction } from '../../predict.js';

const PLACES = ['the first token', 'the previous token', 'itself', 'the tokens in between'];

/** The last row's weight on the first, the previous, its own and the other tokens (T ≥ 4: four different places). */
function placesOf(weights) {
  const T = weights.rows;
  const row = Array.from({ length: T }, (_, j) => weights.get(T - 1, j));
  const between = row.slice(1, T - 2).reduce((s, w) => s + w, 0);
  return [row[0], row[T - 2], row[T - 1], between];
}

/** Averaged over every layer and head. */
function averagePlaces(run) {
  const sums = [0, 0, 0, 0];
  let n = 0;
  for (const layer of run.attentions)
    for (const head of layer) {
      placesOf(head).forEach((w, i) => (sums[i] += w));
      n++;
    }
  return sums.map((s) => s / n);
}

const placesText = (values) => PLACES.map((p, i) => `${p} ${shown(values[i])}`).join(', ');

const everyHead = () =>
  prediction({
    question: 'Averaged over every layer and head, where does the last token put most of its weight?',
    choices: PLACES,
    answer: (run) => (run.tokens.length < 4 ? null : clearArgmax(averagePlaces(run))),
    explain: (run) =>
      run.tokens.length < 4
        ? 'with fewer than 4 tokens these places overlap; type a longer sentence'
        : `mean weights of the last token's row: ${placesText(averagePlaces(run))}.`,
  });

// Concentrated: one key takes at least half of the last row's weight.
const oneHead = () =>
  prediction({
    question: 'In the chosen head, will one key take at least half of the last token’s weight?',
    choices: ['yes, one key takes ≥ 0.5', 'no, it is spread out'],
    answer: ({ weights }) => {
      const T = weights.rows;
      let top = 0;
      for (let j = 0; j < T; j++) top = Math.max(top, weights.get(T - 1, j));
      return top >= 0.5 ? 0 : 1;
    },
    explain: ({ weights, tokens }) => {
      const T = weights.rows;
      let best = 0;
      for (let j = 1; j < T; j++) if (weights.get(T - 1, j) > weights.get(T - 1, best)) best = j;
      return `the largest weight of the last row is ${shown(weights.get(T - 1, best))}, on “${tokens[best]}” (uniform over the ${T} tokens it may read: ${shown(1 / T)}).`;
    },
  });

const nextToken = () =>
  prediction({
    question: 'Will the most likely next token get more than half of the probability?',
    choices: ['more than 0.5', '0.5 or less'],
    answer: (run) => (run.next[0].p > 0.5 ? 0 : 1),
    explain: (run) => `the top next token has p = ${shown(run.next[0].p)}; the second ${shown(run.next[1]?.p ?? 0)}.`,
  });

/** A fresh set of questions for one lesson. */
export const modelQuestions = () => ({ everyHead: everyHead(), oneHead: oneHead(), nextToken: nextToken() });
