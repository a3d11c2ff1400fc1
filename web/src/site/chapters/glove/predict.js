// The GloVe chapter's questions (predict.js): one per computing step, each
// answered from the live weights ({ a: sentencesAttention(), weights } with
// `weights` the step's matrix, one row per query token). The question follows
// the first query word that has a vector.
import { shown } from '../../explain/format.js';
import { clearArgmax, leader, prediction } from '../../predict.js';

const firstKnown = (a) => a.qMissing.findIndex((missing) => !missing);
const rowOf = (m, i) => Array.from(m.row(i));
const keyLabels = (a) => a.kTokens.map((t, j) => (a.kTokens.indexOf(t) === j ? t : `${t} (${j + 1})`));

/** "Which key word will “brother” attend to most?" for the matrix of one step. */
const favouriteKey = () =>
  prediction({
    question: ({ a }) => `Which key word will “${a.qTokens[Math.max(0, firstKnown(a))]}” attend to most?`,
    choices: ({ a }) => keyLabels(a),
    answer: ({ a, weights }) => (firstKnown(a) < 0 ? null : clearArgmax(rowOf(weights, firstKnown(a)))),
    explain: ({ a, weights }) => {
      const i = firstKnown(a);
      if (i < 0) return 'no query word has a vector.';
      return `in the row of “${a.qTokens[i]}”, the largest weight is ${leader(keyLabels(a), rowOf(weights, i), 'α = ')}.`;
    },
  });

// Random projections against the raw vectors: the measure is the largest weight of the matrix.
const largest = (m, a) => Math.max(...Array.from(m.data).filter((_, x) => a.mask.data[x] === 1));
const projectionEffect = () =>
  prediction({
    question: 'With random projections, will the largest weight be smaller or larger than in step 4?',
    choices: ['smaller', 'larger'],
    answer: ({ a, weights }) => {
      const [now, before] = [largest(weights, a), largest(a.dot.weights, a)];
      return !Number.isFinite(now) || !Number.isFinite(before) || now === before ? null : now < before ? 0 : 1;
    },
    explain: ({ a, weights }) =>
      `the largest weight is ${shown(largest(weights, a))} here, against ${shown(largest(a.dot.weights, a))} in step 4.`,
  });

/** A fresh set of questions for one lesson. */
export const gloveQuestions = () => ({
  dot: favouriteKey(),
  trainable: projectionEffect(),
  additive: favouriteKey(),
});
