// The computations of the "Attention Basics" chapter, kept apart from the page
// (no DOM) so node tests can check them against the notebook's numbers
// (tests/js/site-basics-model.test.mjs). Every number comes from the API.
import { shown } from '../../explain/format.js';
import { tracedApi } from '../../explain/traced-api.js';
import { staged } from '../../stages.js';

export const DEFAULTS = {
  decoder: [5, 1, 20],
  annotation: [3, 12, 45],
  annotations: [
    [3, 12, 45],
    [59, 2, 5],
    [1, 43, 5],
    [4, 3, 45.3],
  ], // one row per encoder step
};
export const MAX_STEPS = 10;

/** The permalink state of the chapter (url-state.js). */
export const SCHEMA = [
  { key: 'h', name: 'decoder', type: 'vector', length: 3, default: DEFAULTS.decoder },
  { key: 'a', name: 'annotation', type: 'vector', length: 3, default: DEFAULTS.annotation },
  {
    key: 'H',
    name: 'annotations',
    type: 'rows',
    cols: 3,
    minLength: 1,
    maxLength: MAX_STEPS,
    default: DEFAULTS.annotations,
  },
];

/** rows (n x d) -> the notebook's layout (d x n): one column per encoder step. */
export function asColumns(rows) {
  const n = rows.length;
  const d = rows[0].length;
  const data = new Float64Array(n * d);
  rows.forEach((r, j) => r.forEach((x, i) => (data[i * n + j] = x)));
  return { rows: d, cols: n, data };
}

/**
 * Every step of the notebook: the single score, the scores of all steps, their
 * softmax (plus the naive formula and log-softmax), the weighted annotations
 * (d x n, one column per step) and the context vector. Throws the first API error.
 * @param {import('attention-lab').Attention} api
 * @param {{decoder: number[], annotation: number[], annotations: number[][]}} inputs
 */
export function basicsAttention(api, inputs, trace) {
  const run = basicsStages(api, inputs, trace);
  if (run.firstFailure()) throw run.firstFailure();
  return run.r;
}

/**
 * The same computation stage by stage, so that one failing stage (a score that
 * overflows float64) stops only what depends on it: `r` holds every result that
 * could be computed, `failures` the Error of each stage that could not
 * (single, scores; weights and the rest need the scores). See ../stages.js.
 * Computed through `trace` (../explain/traced-api.js), named like the figures:
 * decoder (d x 1), annotations H (d x n, one column per step, as the notebook
 * holds them), scores (1 x n), weights (1 x n), applied (d x n), context (d x 1).
 */
export function basicsStages(api, { decoder, annotation, annotations }, trace) {
  const t = tracedApi(api, trace);
  const run = staged({ H: asColumns(annotations) });
  const { r, stage } = run;
  t.input('decoder', decoder, { symbol: 'h', vector: true, value: () => columnVector(decoder) });
  t.input('annotations', annotations, { symbol: 'H', col: 'h̄', value: r.H, columns: true });
  stage('single', () => ({ single: api.dot(decoder, annotation) }));
  stage('scores', () => ({ scores: t.name('scores', { symbol: 'e', vector: true }).dotScores(decoder, annotations) }));
  if (r.scores) {
    const { scores } = r;
    stage('weights', () => ({
      weights: t.name('weights', { symbol: 'α', vector: true }).softmax(scores),
      naive: api.naiveSoftmax(scores),
      logWeights: api.logSoftmax(scores),
    }));
  }
  if (r.weights) {
    const applied = t.name('applied', { symbol: 'αh̄' });
    stage('applied', () => ({ applied: applied.scaleRows(r.weights, annotations).transpose() }));
    const context = t.name('context', { symbol: 'c', vector: true });
    stage('context', () => ({ context: context.weightedSum(r.weights, annotations) }));
  }
  return run;
}

const columnVector = (v) => ({ rows: v.length, cols: 1, data: Float64Array.from(v) });

/**
 * The sentence under the softmax step, built from the current scores and
 * weights so it never quotes numbers the figures no longer show.
 */
export function softmaxSentence(r) {
  const n = r.scores.length;
  if (n === 1) return 'With a single encoder step, softmax gives it all the weight: α1 = 1.';
  const order = Array.from(r.scores.keys()).sort((i, j) => r.scores[j] - r.scores[i] || i - j);
  const [a, b] = order; // the largest first, then the runner-up
  const tied = order.filter((j) => r.scores[j] === r.scores[a]).length;
  const rest = order.slice(Math.max(2, tied)).reduce((sum, j) => sum + r.weights[j], 0);
  const left = n - Math.max(2, tied);
  const others =
    left === 0
      ? ''
      : rest < 1e-3
        ? ` The other ${left === 1 ? 'step is' : `${left} steps are`} all but erased (together ${shown(rest)}).`
        : ` The other ${left === 1 ? 'step keeps' : `${left} steps keep`} ${shown(rest)} between them.`;
  if (tied > 1) {
    const steps = order
      .slice(0, tied)
      .sort((i, j) => i - j)
      .map((j) => j + 1);
    const list = `${steps.slice(0, -1).join(', ')} and ${steps.at(-1)}`;
    const same = `the same weight, ${shown(r.weights[a])} each`;
    if (tied === n) {
      return n === 2
        ? `Both scores tie at ${shown(r.scores[a])}, so softmax gives steps 1 and 2 ${same}.`
        : `All ${n} scores tie at ${shown(r.scores[a])}, so softmax gives every step ${same}.`;
    }
    const which = tied === 2 ? 'The two largest scores' : `The ${tied} largest scores`;
    return `${which} tie at ${shown(r.scores[a])}, so softmax gives steps ${list} ${same}.${others}`;
  }
  const gap = r.scores[a] - r.scores[b];
  return (
    `The two largest scores, ${shown(r.scores[a])} (step ${a + 1}) and ${shown(r.scores[b])} (step ${b + 1}), differ by ${shown(gap)}; ` +
    `softmax gives them ${shown(r.weights[a])} and ${shown(r.weights[b])}: ` +
    (gap < 700 ? `e^${shown(gap)} ≈ ${shown(Math.exp(gap))} times` : `more than 10^300 times`) +
    ` more weight for the larger one.${others}`
  );
}

/** softmax(e / T): T = 1 gives the chapter's weights, T → 0 the argmax, T → ∞ the uniform 1/n. */
export function temperedWeights(api, scores, temperature) {
  return api.softmax(Array.from(scores, (e) => e / temperature));
}

/** Slider position (log10 of T, −2 … 2) to the temperature, rounded so it prints cleanly. */
export const temperatureAt = (position) => Number((10 ** position).toPrecision(3));
