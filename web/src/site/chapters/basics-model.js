// The computations of the "Attention Basics" chapter, kept apart from the page
// (no DOM) so node tests can check them against the notebook's numbers
// (tests/js/site-basics-model.test.mjs). Every number comes from the API.

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
