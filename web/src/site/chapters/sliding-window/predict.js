// The sliding-window chapter's questions: one per computing step, each answered
// from the live result of slidingStages() (model.js).
import { prediction } from '../../predict.js';
import { shown } from '../../explain/format.js';
import { earliestReached, firstNonzero, SINK_AT, SINK_FACTOR } from './model.js';

const unique = (xs) => [...new Set(xs)].sort((a, b) => a - b);
const lastRow = (r) => r.length - 1;
const seenCount = (r) => Array.from(r.weights.row(lastRow(r))).filter((w) => w !== 0).length;

// Step 1: how many keys the last query weighs.
const keysSeen = () => {
  const options = (r) => unique([1, Math.min(r.length, r.window), r.length, Math.min(r.length, r.window + 1)]);
  return prediction({
    question: (r) => `With a window of ${r.window}, how many keys get a nonzero weight from query ${r.length}?`,
    choices: (r) => options(r).map(String),
    answer: (r) => options(r).indexOf(seenCount(r)),
    explain: (r) => {
      const first = firstNonzero(r.weights, lastRow(r));
      return `row ${r.length} of A has ${seenCount(r)} nonzero weights, on keys ${first} to ${r.length}; the other ${r.length - seenCount(r)} are masked to 0.`;
    },
  });
};

// Step 2: the earliest token whose information reaches the last one after L layers.
const reachesBack = () => {
  const options = (r) =>
    unique([
      1,
      Math.max(1, r.length - r.window + 1),
      earliestReached(r.length, r.window, r.layers),
      Math.max(1, r.length - r.layers * r.window),
    ]);
  return prediction({
    question: (r) =>
      `After ${r.layers} ${r.layers === 1 ? 'layer' : 'layers'} of window ${r.window}, what is the earliest token whose information can reach token ${r.length}?`,
    choices: (r) => options(r).map((j) => `token ${j}`),
    answer: (r) => options(r).indexOf(firstNonzero(r.reach, lastRow(r))),
    explain: (r) => {
      const first = firstNonzero(r.reach, lastRow(r));
      return `the first nonzero entry of row ${r.length} of M${r.layers === 1 ? '' : `^${r.layers}`} is token ${first} (${r.reach.get(lastRow(r), first - 1)} ${r.reach.get(lastRow(r), first - 1) === 1 ? 'chain' : 'chains'}); each layer moves at most ${r.window - 1} ${r.window === 2 ? 'token' : 'tokens'} back.`;
    },
  });
};

// Step 3: whether the opened model has a head that is a sink by the stated rule.
const SINK_CHOICES = ['yes, at least one head', 'no head'];
const sinks = () =>
  prediction({
    question: `Does some head of this model put at least ${SINK_AT} and ${SINK_FACTOR}× the even spread of its weight on token 1?`,
    choices: SINK_CHOICES,
    answer: ({ sinks: found }) => (found.length > 0 ? 0 : 1),
    explain: ({ m, sinks: found }) => {
      const largest = Math.max(...m.mass.data);
      return `${found.length} of ${m.layers * m.heads} heads do; the largest mean weight on token 1 is ${shown(largest)}, against ${shown(m.baseline)} for an even spread.`;
    },
  });

// Step 4: which cut cache stays closer to the full context's next-token distribution.
const streaming = () =>
  prediction({
    question: (c) =>
      `Which cache gives a next-token distribution closer to the full context’s: the last ${c.window} tokens, or the first ${c.sinks} and the last ${c.window}?`,
    choices: (c) => [`the last ${c.window}`, `the first ${c.sinks} + the last ${c.window}`],
    answer: (c) => (c.recent.tv === c.streaming.tv ? null : c.recent.tv < c.streaming.tv ? 0 : 1),
    explain: (c) =>
      `total variation to the full context: ${shown(c.recent.tv)} for the last ${c.window}, ${shown(c.streaming.tv)} with the first ${c.sinks} kept too.`,
  });

/** A fresh set of questions for one lesson. */
export const slidingQuestions = () => ({
  keysSeen: keysSeen(),
  reachesBack: reachesBack(),
  sinks: sinks(),
  streaming: streaming(),
});
