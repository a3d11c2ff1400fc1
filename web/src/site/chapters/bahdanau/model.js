// The inputs of the "Bahdanau additive attention" chapter, drawn exactly as the
// article draws them, kept apart from the page so node tests can check them.

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

// ---- provenance: the computation as a trace of named tensors (../explain/trace.js)

const asRow = (v) => ({ rows: 1, cols: v.length, data: v });
const asColumn = (v) => ({ rows: v.length, cols: 1, data: v });

/**
 * Records the chapter's computation (r = bahdanauAttention(…)) into `trace`,
 * named like the figures: encoder (n x h), decoder (1 x h), inputs (n x 2h),
 * layer1 (2h x a), activations (n x a), layer2 (a x 1), scores (n x 1),
 * weights (1 x n), weighted (n x h), context (1 x h), compare (2 x n: the
 * additive weights over the softmax of the dot scores s · h_i).
 */
export function traceBahdanau(trace, r) {
  const vector = (name, symbol, value) => trace.add({ name, value, symbol, vector: true });
  trace.add({ name: 'encoder', value: r.encoderStates, symbol: 'H', row: 'h' });
  vector('decoder', 's', r.decoderState);
  trace.add({ name: 'inputs', op: 'concat', inputs: ['encoder', 'decoder'], value: r.inputs, symbol: 'X', row: 'x' });
  trace.add({ name: 'layer1', value: r.layer1, symbol: 'W1' });
  trace.add({ name: 'pre', op: 'matmul', inputs: ['inputs', 'layer1'], value: r.preActivations, symbol: 'z' });
  trace.add({ name: 'activations', op: 'tanh', inputs: ['pre'], value: r.activations, symbol: 'A', row: 'a' });
  vector('layer2', 'w2', r.layer2);
  const vectorOp = (name, op, inputs, value, symbol, params) =>
    trace.add({ name, op, inputs, value, symbol, vector: true, params });
  vectorOp('scores', 'matmul', ['activations', 'layer2'], () => asColumn(r.scores), 'e');
  vectorOp('weights', 'softmax', ['scores'], () => asRow(r.weights), 'α');
  const weighted = { value: r.weighted, symbol: 'αh', params: { along: 'rows' } };
  trace.add({ name: 'weighted', op: 'scaleBy', inputs: ['weights', 'encoder'], ...weighted });
  vectorOp('context', 'weightedSum', ['weights', 'encoder'], () => asRow(r.context), 'c');
  vectorOp('dotScores', 'matmul', ['decoder', 'encoder'], () => asRow(r.dotScores), 's·h', { transposeB: true });
  vectorOp('dotWeights', 'softmax', ['dotScores'], () => asRow(r.dotWeights), 'α(dot)');
  const both = () => ({ rows: 2, cols: r.weights.length, data: Float64Array.from([...r.weights, ...r.dotWeights]) });
  trace.add({ name: 'compare', op: 'stack', inputs: ['weights', 'dotWeights'], value: both, symbol: 'compare' });
}
