// The model chapter's questions (predict.js), answered from the live run:
// where the last token looks across all heads (step 3), how concentrated the
// chosen head's last row is (step 4), and how sure the model is of its next
// token (step 6). `run` is runSentence's result; `weights` a head's (T × T) Matrix.
// Every question compares like with like: single tokens with single tokens (the
// tokens in between by their mean), one probability with another.
import { shown } from '../../explain/format.js';
import { clearArgmax, prediction } from '../../predict.js';

const PLACES = ['the first token', 'the previous token', 'itself', 'an average token in between'];

/** The last row's weight on the first, the previous and its own token, and the mean over the tokens in between (T ≥ 4). */
function placesOf(weights) {
  const T = weights.rows;
  const row = Array.from({ length: T }, (_, j) => weights.get(T - 1, j));
  const between = row.slice(1, T - 2).reduce((s, w) => s + w, 0) / (T - 3);
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
        : `mean weights of the last token's row, each on one token: ${placesText(averagePlaces(run))} (the last is the mean over the ${run.tokens.length - 3} tokens in between).`,
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
      const open = Array.from({ length: T }, (_, j) => weights.get(T - 1, j)).filter((w) => w > 0).length;
      return `the largest weight of the last row is ${shown(weights.get(T - 1, best))}, on “${tokens[best]}” (uniform over the ${open} tokens it reads: ${shown(1 / open)}).`;
    },
  });

/** The two most likely predictions ({ label, p }), the first one the model's first [MASK]'s for BERT. */
function topTwo({ run, labelOf }) {
  const top = run.next ?? run.masked?.[0]?.top ?? [];
  return top.length < 2 ? null : top.slice(0, 2).map(({ id, token, p }) => ({ label: labelOf(id, token), p }));
}
/** The pair in alphabetical order: where a choice stands says nothing about the answer. */
const ordered = (data) => topTwo(data)?.sort((x, y) => (x.label < y.label ? -1 : x.label > y.label ? 1 : 0)) ?? [];

const nextToken = () =>
  prediction({
    question:
      'Of these two tokens, which will the model find more probable (as the next token; for BERT, at the [MASK])?',
    choices: (data) => ordered(data).map((t) => `“${t.label}”`),
    answer: (data) => {
      const pair = ordered(data);
      return pair.length < 2 ? null : clearArgmax(pair.map((t) => t.p));
    },
    explain: (data) => {
      const [first, second] = topTwo(data) ?? [];
      if (!second) return 'the model’s vocabulary has fewer than two tokens to compare.';
      return `p(“${first.label}”) = ${shown(first.p)} and p(“${second.label}”) = ${shown(second.p)}, their probabilities in the softmax over the whole vocabulary: the first is ${shown(first.p / second.p)} times as probable.`;
    },
  });

const count = (n) => n.toLocaleString('en-US');

// Where a layer's weights are: its attention's projections or its MLP (architecture.js perLayer).
const wholeModel = () =>
  prediction({
    question:
      'In each layer of this model, which holds more weights (the numbers learned in training): its attention or its MLP?',
    choices: ['its attention', 'its MLP'],
    answer: ({ perLayer }) => clearArgmax([perLayer.attention, perLayer.mlp]),
    explain: ({ perLayer, dims }) =>
      `attention’s projection matrices hold ${count(perLayer.attention)} numbers, the MLP’s ${count(perLayer.mlp)} (F = ${dims.F} against D = ${dims.D}): the MLP has ${shown(perLayer.mlp / perLayer.attention)} times attention’s.`,
  });

/** A fresh set of questions for one lesson. */
export const modelQuestions = () => ({
  everyHead: everyHead(),
  oneHead: oneHead(),
  nextToken: nextToken(),
  wholeModel: wholeModel(),
});
