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
  return { ...draws, ...steps, dotScores, dotWeights: api.softmax(dotScores) };
}
