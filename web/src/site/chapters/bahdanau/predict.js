// The Bahdanau chapter's questions (predict.js): one per computing step, each
// answered from the live result of bahdanauAttention() (encoderStates n × h,
// inputs n × 2h, activations n × a, scores, weights, weighted n × h, context,
// dotWeights).
import { numberedLabels } from '../../chapter-kit.js';
import { shown } from '../../explain/format.js';
import { clearArgmax, leader, nearestPrediction, prediction } from '../../predict.js';

const steps = (r) => numberedLabels('h', r.weights.length);
const rowOf = (m, i) => Array.from(m.row(i));
const rows = (m) => Array.from({ length: m.rows }, (_, i) => rowOf(m, i));

// Step 3: the measure is how much each half's columns vary down the rows (largest max − min).
function spread(m, from, to) {
  let most = 0;
  for (let c = from; c < to; c++) {
    const column = rows(m).map((row) => row[c]);
    most = Math.max(most, Math.max(...column) - Math.min(...column));
  }
  return most;
}
const halves = (r) => [spread(r.inputs, 0, r.inputs.cols / 2), spread(r.inputs, r.inputs.cols / 2, r.inputs.cols)];
const sameHalf = () =>
  prediction({
    question: 'Which half of the rows of [h_i; s] is the same on every row?',
    choices: ['the left half (h_i)', 'the right half (s)'],
    answer: (r) => {
      const [left, right] = halves(r);
      return left === 0 && right === 0 ? null : right === 0 ? 1 : left === 0 ? 0 : null;
    },
    explain: (r) => {
      const [left, right] = halves(r);
      return `down the rows, a column of the left half varies by up to ${shown(left)}, one of the right half by up to ${shown(right)}.`;
    },
  });

// Step 4: tanh maps into (−1, 1); the measure is the largest |activation| (float64 rounds tanh(x) to ±1 past |x| ≈ 19).
const largestActivation = (r) => Math.max(...Array.from(r.activations.data, Math.abs));
const saturation = () =>
  prediction({
    question: 'Will any activation reach ±1 exactly?',
    choices: ['yes', 'no, all stay inside (−1, 1)'],
    answer: (r) => (largestActivation(r) >= 1 ? 0 : 1),
    explain: (r) => `the largest |activation| is ${shown(largestActivation(r))}.`,
  });

const highestScore = () =>
  prediction({
    question: 'Which encoder step gets the highest alignment score?',
    choices: steps,
    answer: (r) => clearArgmax(r.scores),
    explain: (r) => `the largest score is ${leader(steps(r), r.scores, 'e = ')}.`,
  });

const SHARE_CHOICES = ['less than 0.5', '0.5 to 0.99', '0.99 or more'];
const topShare = () =>
  prediction({
    question: 'How much of the weight will the best-scoring step get?',
    choices: SHARE_CHOICES,
    answer: (r) => {
      const top = Math.max(...r.weights);
      return top < 0.5 ? 0 : top < 0.99 ? 1 : 2;
    },
    explain: (r) => `the largest weight goes to ${leader(steps(r), r.weights, 'α = ')}.`,
  });

// Step 7: the measure is each weighted row's size, Σ_k |α_i h_i,k|.
const rowSizes = (r) => rows(r.weighted).map((row) => row.reduce((sum, x) => sum + Math.abs(x), 0));
const largestRow = () =>
  prediction({
    question: 'After weighting, which row keeps the largest entries (sum of absolute values)?',
    choices: steps,
    answer: (r) => clearArgmax(rowSizes(r)),
    explain: (r) => `the largest row is ${leader(steps(r), rowSizes(r), 'Σ|α h| = ')}.`,
  });

// Step 8: the measure is the Euclidean distance from c to each encoder state (nearest wins).
const nearestState = () =>
  nearestPrediction({
    question: 'Which encoder state will the context vector be closest to?',
    name: 'c',
    point: (r) => r.context,
    candidates: (r) => rows(r.encoderStates),
    labels: steps,
  });

// Step 9: do the two scorings pick the same step? Asked only when each has a clear winner.
const agreement = () =>
  prediction({
    question: 'Will additive and dot-product scoring give their largest weight to the same encoder step?',
    choices: ['the same step', 'different steps'],
    answer: (r) => {
      const [a, d] = [clearArgmax(r.weights), clearArgmax(r.dotWeights)];
      return a === null || d === null ? null : a === d ? 0 : 1;
    },
    explain: (r) =>
      `additive scoring favours ${leader(steps(r), r.weights, 'α = ')}; dot products favour ${leader(steps(r), r.dotWeights, 'α = ')}.`,
  });

/** A fresh set of questions for one lesson. */
export const bahdanauQuestions = () => ({
  sameHalf: sameHalf(),
  saturation: saturation(),
  highestScore: highestScore(),
  topShare: topShare(),
  largestRow: largestRow(),
  nearestState: nearestState(),
  agreement: agreement(),
});
