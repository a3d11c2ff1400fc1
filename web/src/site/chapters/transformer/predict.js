// The hands-on Transformer chapter's questions (../../predict.js): one per step
// that computes a figure, each answered from the step's live numbers. `tokens`
// are the labels of the queries and keys; a question over keys offers at most
// the first MAX_CHOICES of them (a sentence of 128 tokens would be a wall of buttons).
import { shown } from '../../explain/format.js';
import { rowOf } from '../../explain/names.js';
import { clearArgmax, prediction, ranked } from '../../predict.js';

const MAX_CHOICES = 12;

/** "cat (2)": a token with its position, so repeated words stay apart. */
const tokenChoices = (tokens) => tokens.slice(0, MAX_CHOICES).map((t, i) => `${t} (${i + 1})`);

/** "cat (2) with 0.61; next the (1) with 0.22": the leader of a measure and its runner-up. */
function leader(labels, values) {
  const [first, second] = ranked(values);
  const next = second === undefined ? '' : `; next ${labels[second]} with ${shown(values[second])}`;
  return `${labels[first]} with ${shown(values[first])}${next}`;
}

const largestAbs = (m) => Math.max(...Array.from(m.data, Math.abs));

// Step 1: Q, K and V are three projections of the same X; which has the largest entry?
const ROLES = ['Q', 'K', 'V'];
const largestProjection = () =>
  prediction({
    question: 'Q, K and V are made from the same X. Which of them will hold the largest entry (in absolute value)?',
    choices: ROLES,
    answer: (p) => clearArgmax(ROLES.map((r) => largestAbs(p[r]))),
    explain: (p) =>
      `the largest |entry| is in ${leader(
        ROLES,
        ROLES.map((r) => largestAbs(p[r])),
      )}.`,
  });

// Step 2: the first query's raw scores over the keys (the first MAX_CHOICES).
const firstRow = (m) => rowOf(m, 0).slice(0, MAX_CHOICES);
const topScore = () =>
  prediction({
    question: ({ tokens }) =>
      `Which key will the first query, “${tokens[0]}”, score highest${tokens.length > MAX_CHOICES ? ` among the first ${MAX_CHOICES}` : ''}?`,
    choices: ({ tokens }) => tokenChoices(tokens),
    answer: ({ raw }) => clearArgmax(firstRow(raw)),
    explain: ({ raw, tokens }) => `the largest score q1 · k is ${leader(tokenChoices(tokens), firstRow(raw))}.`,
  });

// Step 3: dividing scores by √d_k before the softmax; the measure is the largest weight.
const SHARPNESS = ['flatter', 'the same', 'sharper'];
const scalingEffect = () =>
  prediction({
    question: ({ dk }) =>
      `At d_k = ${dk}, will the 8 weights get flatter, stay the same or get sharper when the scores are divided by √d_k?`,
    choices: SHARPNESS,
    answer: (r) => (r.maxScaled < r.maxRaw ? 0 : r.maxScaled === r.maxRaw ? 1 : 2),
    explain: (r) =>
      `the largest weight is ${r.maxRaw.toFixed(4)} unscaled and ${r.maxScaled.toFixed(4)} scaled (÷ √${r.dk} = ${shown(Math.sqrt(r.dk))}), as in the table.`,
  });

// Step 4: how decisive the first query's softmax is.
const SHARE = ['less than 0.5', '0.5 to 0.99', '0.99 or more'];
const topWeight = () =>
  prediction({
    question: ({ tokens }) => `How much of its weight will the first query, “${tokens[0]}”, give to its top key?`,
    choices: SHARE,
    answer: ({ weights }) => {
      const top = Math.max(...rowOf(weights, 0));
      return top < 0.5 ? 0 : top < 0.99 ? 1 : 2;
    },
    explain: ({ weights, tokens }) => {
      const labels = tokens.map((t, i) => `${t} (${i + 1})`);
      return `the first query’s largest weight goes to ${leader(labels, rowOf(weights, 0))}.`;
    },
  });

// Step 5: the first query's top weight with the mask against without it.
const CHANGE = ['larger', 'the same', 'smaller'];
const maskEffect = () =>
  prediction({
    question: 'With the mask, will the first query’s largest weight be larger, the same or smaller than without it?',
    choices: CHANGE,
    answer: ({ weights, masked }) => {
      const [before, after] = [Math.max(...rowOf(weights, 0)), Math.max(...rowOf(masked, 0))];
      return Math.abs(after - before) <= 1e-12 ? 1 : after > before ? 0 : 2;
    },
    explain: ({ weights, masked, mask }) => {
      const hidden = rowOf(mask, 0).filter((m) => m === 0).length;
      return `the first query’s largest weight is ${shown(Math.max(...rowOf(weights, 0)))} without the mask and ${shown(Math.max(...rowOf(masked, 0)))} with it (${hidden} of its ${mask.cols} keys masked; the others share the weight the masked ones lose).`;
    },
  });

// Step 6: which head is most decisive for the first query.
const headNames = (perHead) => perHead.map((_, h) => `head ${h + 1}`);
const headTops = (perHead) => perHead.map((h) => Math.max(...rowOf(h.weights, 0)));
const sharpestHead = () =>
  prediction({
    question: 'Which head will give the first query’s top key the most weight?',
    choices: (perHead) => headNames(perHead),
    answer: (perHead) => (perHead.length < 2 ? null : clearArgmax(headTops(perHead))), // one head: nothing to compare
    explain: (perHead) => `the largest first-row weight is ${leader(headNames(perHead), headTops(perHead))}.`,
  });

// Step 7: encoder–decoder attention of the first target token, head 1.
const crossTop = () =>
  prediction({
    question: ({ rowLabels }) =>
      `In encoder–decoder attention (head 1), which source token will the first target token, “${rowLabels[0]}”, attend to most?`,
    choices: ({ colLabels }) => tokenChoices(colLabels),
    answer: ({ weights }) => clearArgmax(firstRow(weights[0])),
    explain: ({ weights, colLabels }) =>
      `its largest weight is on ${leader(tokenChoices(colLabels), firstRow(weights[0]))}${colLabels.includes('<pad>') ? ' (<pad> is masked: weight 0)' : ''}.`,
  });

/** A fresh set of questions for one lesson. */
export const transformerQuestions = () => ({
  projections: largestProjection(),
  scores: topScore(),
  scaling: scalingEffect(),
  weights: topWeight(),
  mask: maskEffect(),
  heads: sharpestHead(),
  uses: crossTop(),
});
