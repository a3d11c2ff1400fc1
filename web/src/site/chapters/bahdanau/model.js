// The inputs of the "Bahdanau additive attention" chapter, drawn exactly as the
// article draws them, kept apart from the page so node tests can check them.
import { tracedApi } from '../../explain/traced-api.js';

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

/**
 * The article's draws and every step of additive attention, computed through
 * `trace` (../explain/traced-api.js) and named like the figures: encoder
 * (n x h), decoder (1 x h), inputs (n x 2h), layer1 (2h x a), activations
 * (n x a), layer2 (a x 1), scores (n x 1), weights (1 x n), weighted (n x h),
 * context (1 x h), compare (2 x n: the additive weights over the softmax of
 * the dot scores s · h_i).
 */
export function bahdanauAttention(api, sizes, trace) {
  const t = tracedApi(api, trace);
  const draws = articleDraws(api, sizes);
  t.input('encoder', draws.encoderStates, { symbol: 'H', row: 'h' });
  t.input('decoder', draws.decoderState, { symbol: 's', vector: true });
  t.input('layer1', draws.layer1, { symbol: 'W1' });
  t.input('layer2', draws.layer2, { symbol: 'w2', vector: true });
  const vector = (name, symbol) => ({ name, symbol, vector: true });
  const steps = t
    .name({
      inputs: { name: 'inputs', symbol: 'X', row: 'x' },
      pre: { name: 'pre', symbol: 'z' },
      activations: { name: 'activations', symbol: 'A', row: 'a' },
      scores: vector('scores', 'e'),
      weights: vector('weights', 'α'),
      weighted: { name: 'weighted', symbol: 'αh' },
      context: vector('context', 'c'),
    })
    .concatAttention(draws.encoderStates, draws.decoderState, draws.layer1, draws.layer2);
  // For comparison: plain dot-product scores of the same states, s . h_i.
  const s = t.same(draws.decoderState.data, draws.decoderState);
  const dotScores = t.name(vector('dotScores', 's·h')).dotScores(s, draws.encoderStates);
  const dotWeights = t.name(vector('dotWeights', 'α(dot)')).softmax(dotScores);
  const both = () => ({ rows: 2, cols: dotWeights.length, data: Float64Array.from([...steps.weights, ...dotWeights]) });
  t.name('compare', { symbol: 'compare' }).record('stack', [steps.weights, dotWeights], both);
  // Before tanh, for the readouts: X W1 (n x a).
  const preActivations = t.name('pre', { symbol: 'z' }).matmul(steps.inputs, draws.layer1);
  return { ...draws, ...steps, preActivations, dotScores, dotWeights };
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
