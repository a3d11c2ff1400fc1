// The Q/K/V chapter's questions (predict.js): one per computing step, each
// answered from the live result of qkvStages() ({ Q, K, V, scores, scaled,
// weights, output, unscaledFirst }: matrices with one row per word).
import { numberedLabels } from '../../chapter-kit.js';
import { shown } from '../../explain/format.js';
import { clearArgmax, leader, nearestPrediction, prediction } from '../../predict.js';

const words = (r) => numberedLabels('word_', r.Q.rows);
const rowOf = (m, i) => Array.from(m.row(i));
const norm = (v) => Math.hypot(...v);

// Step 3: the measure is each query's length ‖q_i‖.
const queryLengths = (r) => words(r).map((_, i) => norm(rowOf(r.Q, i)));
const longestQuery = () =>
  prediction({
    question: 'Which word gets the longest query vector q_i?',
    choices: words,
    answer: (r) => clearArgmax(queryLengths(r)),
    explain: (r) => `the longest query is ${leader(words(r), queryLengths(r), '‖q‖ = ')}.`,
  });

// Step 4: word_1's row of scores, q1 · k_j.
const firstKey = () =>
  prediction({
    question: 'Against which word’s key does word_1’s query score highest?',
    choices: words,
    answer: (r) => clearArgmax(rowOf(r.scores, 0)),
    explain: (r) => `in row 1, the largest score is ${leader(words(r), rowOf(r.scores, 0), 'q1 · k = ')}.`,
  });

// Step 5: dividing by √d_k (> 1) flattens softmax: the measure is word_1's largest weight with and without it.
const SCALING_CHOICES = ['smaller', 'the same', 'larger'];
const scalingEffect = () =>
  prediction({
    question:
      'Compared with softmax of the unscaled scores, will word_1’s largest weight be smaller, the same or larger?',
    choices: SCALING_CHOICES,
    answer: (r) => {
      const scaled = Math.max(...rowOf(r.weights, 0));
      const plain = Math.max(...r.unscaledFirst);
      if (!Number.isFinite(scaled) || !Number.isFinite(plain)) return null;
      return Math.abs(scaled - plain) <= 1e-12 ? 1 : scaled < plain ? 0 : 2;
    },
    explain: (r) =>
      `word_1’s largest weight is ${shown(Math.max(...rowOf(r.weights, 0)))} after dividing by √${r.dk}, against ${shown(Math.max(...r.unscaledFirst))} without.`,
  });

// Step 6: the measure is the distance from word_1's output o1 to each value vector (nearest wins).
const nearestValue = () =>
  nearestPrediction({
    question: 'Which value vector will word_1’s output be closest to?',
    name: 'o1',
    point: (r) => r.output.row(0),
    candidates: (r) => words(r).map((_, j) => rowOf(r.V, j)),
    labels: (r) => words(r).map((_, j) => `v${j + 1}`),
  });

/** A fresh set of questions for one lesson. */
export const qkvQuestions = () => ({
  longestQuery: longestQuery(),
  firstKey: firstKey(),
  scalingEffect: scalingEffect(),
  nearestValue: nearestValue(),
});
