// The Basics chapter's questions (predict.js): one per computing step, each
// answered from the live result of basicsAttention() ({ single, scores, weights,
// applied, context } with the annotations H, 3 × n).
import { numberedLabels } from '../../chapter-kit.js';
import { shown } from '../../explain/format.js';
import { clearArgmax, leader, nearestPrediction, prediction } from '../../predict.js';

const states = (r) => numberedLabels('h̄', r.scores.length);
const column = (H, s) => Array.from({ length: H.rows }, (_, k) => H.data[k * H.cols + s]);

const singleScoreSign = () =>
  prediction({
    question: 'Will the score h · h̄ be positive, zero or negative?',
    choices: ['positive', 'zero', 'negative'],
    answer: (r) => (Number.isNaN(r.single) ? null : r.single > 0 ? 0 : r.single === 0 ? 1 : 2),
    explain: (r) => `h · h̄ = ${shown(r.single)}.`,
  });

const highestScore = () =>
  prediction({
    question: 'Which encoder step scores highest?',
    choices: states,
    answer: (r) => clearArgmax(r.scores),
    explain: (r) => `the largest score is ${leader(states(r), r.scores)}.`,
  });

// How decisive softmax is: the measure is the largest weight.
const SHARE_CHOICES = ['less than 0.5', '0.5 to 0.99', '0.99 or more'];
const winnerShare = () =>
  prediction({
    question: 'How much of the weight will the best-scoring step get?',
    choices: SHARE_CHOICES,
    answer: (r) => {
      const top = Math.max(...r.weights);
      return Number.isNaN(top) ? null : top < 0.5 ? 0 : top < 0.99 ? 1 : 2;
    },
    explain: (r) => `the largest weight goes to ${leader(states(r), r.weights, 'α = ')}.`,
  });

// The weighted columns: the measure is each column's size, Σ_k |α_s h̄_s,k|.
const weightedSizes = (r) => states(r).map((_, s) => column(r.applied, s).reduce((sum, x) => sum + Math.abs(x), 0));
const largestWeighted = () =>
  prediction({
    question: 'After weighting, which column keeps the largest entries (sum of absolute values)?',
    choices: states,
    answer: (r) => clearArgmax(weightedSizes(r)),
    explain: (r) => `the largest column is ${leader(states(r), weightedSizes(r), 'Σ|α h̄| = ')}.`,
  });

// The context: the measure is the Euclidean distance to each annotation (nearest wins).
const nearestState = () =>
  nearestPrediction({
    question: 'Which encoder state will the context vector be closest to?',
    name: 'c',
    point: (r) => r.context,
    candidates: (r) => states(r).map((_, s) => column(r.H, s)),
    labels: states,
  });

/** A fresh set of questions for one lesson (two lessons on a page never share one). */
export const basicsQuestions = () => ({
  singleScoreSign: singleScoreSign(),
  highestScore: highestScore(),
  winnerShare: winnerShare(),
  largestWeighted: largestWeighted(),
  nearestState: nearestState(),
});
