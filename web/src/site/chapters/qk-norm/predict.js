// The QK-norm chapter's questions (predict.js): one per computing step, each
// answered from the live result of qkNormStages() ({ Q, K, logits, doubled,
// weights, Qn, Kn, normLogits, normDoubled, normWeights, sweep }).
import { shown } from '../../explain/format.js';
import { clearArgmax, leader, prediction } from '../../predict.js';
import { tokens } from './steps/shared.js';

const largest = (m) => Math.max(...Array.from(m.data, Math.abs));
const rowNorms = (m) => Array.from({ length: m.rows }, (_, i) => Math.hypot(...m.row(i)));

// Step 1: the measure is each query's length ‖q_i‖.
const longestQuery = () =>
  prediction({
    question: 'Which token’s query q_i is the longest?',
    choices: (r) => tokens(r.Q.rows),
    answer: (r) => clearArgmax(rowNorms(r.Q)),
    explain: (r) => `the longest query is ${leader(tokens(r.Q.rows), rowNorms(r.Q), '‖q‖ = ')}.`,
  });

// Steps 2 and 5: how the largest |logit| changes when s doubles (the ratio of the two).
const GROWTH = ['it stays the same', 'it doubles', 'it grows 4 times'];
const growthAnswer = (ratio) => {
  const distances = [1, 2, 4].map((x) => -Math.abs(ratio - x));
  return clearArgmax(distances, 1e-3);
};
const doubledLogits = () =>
  prediction({
    question: 'If s doubles, what happens to the largest |logit|?',
    choices: GROWTH,
    answer: (r) => growthAnswer(r.doubled / largest(r.logits)),
    explain: (r) =>
      `the largest |logit| goes from ${shown(largest(r.logits))} to ${shown(r.doubled)}, ${shown(r.doubled / largest(r.logits))} times as much: q and k each double.`,
  });
const normDoubled = () =>
  prediction({
    question: 'With QK-norm, if s doubles, what happens to the largest |logit|?',
    choices: GROWTH,
    answer: (r) => growthAnswer(r.normDoubled / largest(r.normLogits)),
    explain: (r) =>
      `the largest |logit| goes from ${shown(largest(r.normLogits))} to ${shown(r.normDoubled)}: the normalisation divides the size out.`,
  });

// Step 3: how decisive row 1 is, by its largest weight.
const SHARE = ['less than 0.5', '0.5 to 0.99', '0.99 or more'];
const saturation = () =>
  prediction({
    question: 'How much weight will token 1’s query give its favourite key?',
    choices: SHARE,
    answer: (r) => {
      const top = Math.max(...r.weights.row(0));
      return top < 0.5 ? 0 : top < 0.99 ? 1 : 2;
    },
    explain: (r) => `the largest weight of row 1 is ${leader(tokens(r.Q.rows), r.weights.row(0), 'A = ')}.`,
  });

// Step 4: ‖q̂1‖ against the candidates g√d, ‖q1‖ and 1.
const normCandidates = (r, gain) => [gain * Math.sqrt(r.Q.cols), Math.hypot(...r.Q.row(0)), 1];
const normLength = (gainOf) =>
  prediction({
    question: 'How long will the normalised query q̂1 be?',
    choices: (r) => [
      `g·√d = ${shown(gainOf() * Math.sqrt(r.Q.cols))}`,
      `as long as q1, ${shown(Math.hypot(...r.Q.row(0)))}`,
      'exactly 1',
    ],
    answer: (r) => {
      const length = Math.hypot(...r.Qn.row(0));
      return clearArgmax(
        normCandidates(r, gainOf()).map((x) => -Math.abs(length - x)),
        1e-6,
      );
    },
    explain: (r) => `‖q̂1‖ = ${shown(Math.hypot(...r.Qn.row(0)))}; ‖q1‖ was ${shown(Math.hypot(...r.Q.row(0)))}.`,
  });

/** A fresh set of questions for one lesson; `gainOf()` is the gain now. */
export const qkNormQuestions = (gainOf) => ({
  longestQuery: longestQuery(),
  doubledLogits: doubledLogits(),
  saturation: saturation(),
  normLength: normLength(gainOf),
  normDoubled: normDoubled(),
});
