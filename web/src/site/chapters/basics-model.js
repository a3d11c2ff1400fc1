// The computations of the "Attention Basics" chapter, kept apart from the page
// (no DOM) so node tests can check them against the notebook's numbers
// (tests/js/site-basics-model.test.mjs). Every number comes from the API.
import { columnCells, factor, rowCells, shown, softmaxText } from '../explain/format.js';

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
 * (d x n, one column per step) and the context vector.
 * @param {import('attention-lab').Attention} api
 * @param {{decoder: number[], annotation: number[], annotations: number[][]}} inputs
 */
export function basicsAttention(api, { decoder, annotation, annotations }) {
  const scores = api.dotScores(decoder, annotations);
  const weights = api.softmax(scores);
  return {
    single: api.dot(decoder, annotation),
    H: asColumns(annotations),
    scores,
    weights,
    naive: api.naiveSoftmax(scores),
    logWeights: api.logSoftmax(scores),
    applied: api.scaleRows(weights, annotations).transpose(),
    context: api.weightedSum(weights, annotations),
  };
}

// ---- provenance: where each computed number comes from ---------------------------
//
// Each function returns the arithmetic with the actual numbers and the cells it
// read, by figure name: decoder (d x 1), annotations H (d x n), scores (1 x n),
// weights (1 x n), applied (d x n). The view maps names to its figures.

const all = columnCells;

/** e_s = h · h̄_s, written out. */
export function explainScore({ decoder, annotations }, r, s) {
  const terms = decoder.map((h, k) => `${factor(h)}·${factor(annotations[s][k])}`).join(' + ');
  return {
    text: `e${s + 1} = h · h̄${s + 1} = ${terms} = ${shown(r.scores[s])}`,
    sources: { decoder: all(decoder.length, 0), annotations: all(decoder.length, s) },
  };
}

/** α_s = e^(e_s − m) / Σ_j e^(e_j − m), written out with every score. */
export function explainWeight(r, s) {
  return {
    text: softmaxText(`α${s + 1}`, r.scores, r.weights, s),
    sources: { scores: rowCells(0, r.scores.length) },
  };
}

/** Entry k of α_s h̄_s. */
export function explainApplied({ annotations }, r, k, s) {
  return {
    text: `α${s + 1} · h̄${s + 1}[${k + 1}] = ${shown(r.weights[s])} · ${factor(annotations[s][k])} = ${shown(r.applied.get(k, s))}`,
    sources: { weights: [[0, s]], annotations: [[k, s]] },
  };
}

/** Entry k of the context vector c = Σ_s α_s h̄_s. */
export function explainContext({ annotations }, r, k) {
  const terms = annotations.map((column, s) => `${shown(r.weights[s])}·${factor(column[k])}`).join(' + ');
  return {
    text: `c[${k + 1}] = Σ α_s h̄_s[${k + 1}] = ${terms} = ${shown(r.context[k])}`,
    sources: {
      weights: rowCells(0, annotations.length),
      annotations: rowCells(k, annotations.length),
      applied: rowCells(k, annotations.length),
    },
  };
}

/**
 * The sentence under the softmax step, built from the current scores and
 * weights so it never quotes numbers the figures no longer show.
 */
export function softmaxSentence(r) {
  const n = r.scores.length;
  if (n === 1) return 'With a single encoder step, softmax gives it all the weight: α1 = 1.';
  const order = Array.from(r.scores.keys()).sort((i, j) => r.scores[j] - r.scores[i] || i - j);
  const [a, b] = order;
  const gap = r.scores[a] - r.scores[b];
  const rest = order.slice(2).reduce((sum, j) => sum + r.weights[j], 0);
  const others =
    n === 2
      ? ''
      : rest < 1e-3
        ? ` The other ${n - 2 === 1 ? 'step is' : `${n - 2} steps are`} all but erased (together ${shown(rest)}).`
        : ` The other ${n - 2 === 1 ? 'step keeps' : `${n - 2} steps keep`} ${shown(rest)} between them.`;
  if (gap === 0) {
    return `The two largest scores tie at ${shown(r.scores[a])}, so softmax gives steps ${a + 1} and ${b + 1} the same weight, ${shown(r.weights[a])} each.${others}`;
  }
  return (
    `The two largest scores, ${shown(r.scores[b])} (step ${b + 1}) and ${shown(r.scores[a])} (step ${a + 1}), differ by ${shown(gap)}; ` +
    `softmax gives them ${shown(r.weights[b])} and ${shown(r.weights[a])}: ` +
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
