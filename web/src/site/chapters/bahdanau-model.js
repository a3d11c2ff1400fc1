// The inputs of the "Bahdanau additive attention" chapter, drawn exactly as the
// article draws them, kept apart from the page so node tests can check them.
import { columnCells, factor, rowCells, shown, softmaxText, sumOfProducts } from '../explain/format.js';

/**
 * np.random.seed(seed), then the article's four randn calls in order:
 * encoder_states (n x h), decoder_state (1 x h), layer_1 (2h x a), layer_2 (a x 1).
 * @param {import('attention-lab').Attention} api
 * @param {{seed: number, inputLength: number, hiddenSize: number, attentionSize: number}} sizes
 */
export function articleDraws(api, { seed, inputLength, hiddenSize, attentionSize }) {
  const rs = new api.RandomState(seed);
  try {
    const encoderStates = rs.randn(inputLength, hiddenSize);
    const decoderState = rs.randn(1, hiddenSize);
    const layer1 = rs.randn(2 * hiddenSize, attentionSize);
    const layer2 = rs.randn(attentionSize, 1);
    return { encoderStates, decoderState, layer1, layer2 };
  } finally {
    rs.delete();
  }
}

/** The article's draws and every step of additive attention. */
export function bahdanauAttention(api, sizes) {
  const draws = articleDraws(api, sizes);
  const steps = api.concatAttention(draws.encoderStates, draws.decoderState, draws.layer1, draws.layer2);
  // For comparison: plain dot-product scores of the same states, s . h_i.
  const dotScores = api.dotScores(draws.decoderState.data, draws.encoderStates);
  // Before tanh, for the readouts: X W1 (n x a).
  const preActivations = api.matmul(steps.inputs, draws.layer1);
  return { ...draws, ...steps, preActivations, dotScores, dotWeights: api.softmax(dotScores) };
}

/** The permalink state of the chapter (url-state.js); sizes bounded like its fields. */
export const SCHEMA = [
  { key: 'seed', name: 'seed', type: 'int', min: 0, max: 4294967295, default: 42 },
  { key: 'len', name: 'inputLength', type: 'int', min: 1, max: 20, default: 5 },
  { key: 'hidden', name: 'hiddenSize', type: 'int', min: 1, max: 32, default: 16 },
  { key: 'att', name: 'attentionSize', type: 'int', min: 1, max: 32, default: 10 },
];

/** The NumPy lines of the article's draws, with their shapes. */
export function setupLines({ seed, inputLength: n, hiddenSize: h, attentionSize: a }) {
  return [
    `np.random.seed(${seed})`,
    `encoder_states = np.random.randn(${n}, ${h})       # shape (${n}, ${h})`,
    `decoder_state  = np.random.randn(1, ${h})       # shape (1, ${h})`,
    `layer_1        = np.random.randn(${2 * h}, ${a})      # shape (${2 * h}, ${a}) = (2*hidden_size, attention_size)`,
    `layer_2        = np.random.randn(${a}, 1)       # shape (${a}, 1)`,
  ].join('\n');
}

// ---- provenance: where each computed number comes from ---------------------------
//
// Sources are named after the chapter's figures: encoder (n x h), decoder (1 x h),
// inputs (n x 2h), layer1 (2h x a), activations (n x a), layer2 (a x 1),
// scores (n x 1), weights (1 x n), weighted (n x h), context (1 x h).

/** Entry j of x_i = [h_i; s]: a copy of an encoder or decoder entry. */
export function explainInput(r, i, j) {
  const h = r.encoderStates.cols;
  const value = shown(r.inputs.get(i, j));
  return j < h
    ? { text: `x${i + 1}[${j + 1}] = h${i + 1}[${j + 1}] = ${value}`, sources: { encoder: [[i, j]] } }
    : { text: `x${i + 1}[${j + 1}] = s[${j - h + 1}] = ${value}`, sources: { decoder: [[0, j - h]] } };
}

/** a_i[k] = tanh(x_i · W1[:, k]). */
export function explainActivation(r, i, k) {
  return {
    text: `a${i + 1}[${k + 1}] = tanh(x${i + 1} · W1[:, ${k + 1}]) = tanh(${shown(r.preActivations.get(i, k))}) = ${shown(r.activations.get(i, k))}`,
    sources: { inputs: rowCells(i, r.inputs.cols), layer1: columnCells(r.layer1.rows, k) },
  };
}

/** e_i = w2 · a_i, written out. */
export function explainScore(r, i) {
  const a = r.activations.cols;
  const pairs = Array.from({ length: a }, (_, k) => [r.layer2.data[k], r.activations.get(i, k)]);
  return {
    text: `e${i + 1} = w2 · tanh(W1ᵀ·[h${i + 1}; s]) = w2 · a${i + 1} = ${sumOfProducts(pairs)} = ${shown(r.scores[i])}`,
    sources: { activations: rowCells(i, a), layer2: columnCells(a, 0) },
  };
}

/** α_i from every score. */
export function explainWeight(r, i) {
  return {
    text: softmaxText(`α${i + 1}`, r.scores, r.weights, i),
    sources: { scores: columnCells(r.scores.length, 0) },
  };
}

/** Entry k of α_i h_i. */
export function explainWeighted(r, i, k) {
  return {
    text: `α${i + 1} · h${i + 1}[${k + 1}] = ${shown(r.weights[i])} · ${factor(r.encoderStates.get(i, k))} = ${shown(r.weighted.get(i, k))}`,
    sources: { weights: [[0, i]], encoder: [[i, k]] },
  };
}

/** Entry k of the context c = Σ_i α_i h_i. */
export function explainContext(r, k) {
  const n = r.weights.length;
  const pairs = Array.from({ length: n }, (_, i) => [r.weights[i], r.encoderStates.get(i, k)]);
  return {
    text: `c[${k + 1}] = Σ α_i h_i[${k + 1}] = ${sumOfProducts(pairs)} = ${shown(r.context[k])}`,
    sources: { weights: rowCells(0, n), encoder: columnCells(n, k), weighted: columnCells(n, k) },
  };
}

/** Row 0: the additive weights; row 1: the softmax of the dot-product scores s · h_i. */
export function explainComparison(r, row, i) {
  if (row === 0) return explainWeight(r, i);
  return {
    text: `${softmaxText(`α${i + 1} (dot)`, r.dotScores, r.dotWeights, i)}, with dot scores s · h_i`,
    sources: { encoder: rowCells(i, r.encoderStates.cols), decoder: rowCells(0, r.encoderStates.cols) },
  };
}
