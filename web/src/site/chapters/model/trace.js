// The chosen head of the opened model as a trace (../explain/trace.js): its
// queries, keys and values (Gpt2Model.explainHead, read on demand), the scores
// q·k, the weights softmax(q·k/√d_k) under the causal mask (the model's own map
// from run()) and the value mix weights · v (drawn, so computed at once). Scores
// and mask are functions, computed only when a reader hovers a cell.
import { maskOf } from '../../explain/heads.js';

/** Tensor names (the figures map them to the heatmaps that draw them). */
export const TENSORS = { q: 'head.q', k: 'head.k', v: 'head.v', weights: 'head.weights', mix: 'head.mix' };

/**
 * Records head `inputs` ({ q, k, v } of explainHead) whose weights are `weights` (T x T) for
 * `tokens`; returns the value mix (T x d_k).
 */
export function traceModelHead(api, trace, { q, k, v }, weights, tokens) {
  const T = tokens.length;
  const dk = q.cols;
  const rows = { rowLabels: tokens };
  trace.add({ name: TENSORS.q, value: q, symbol: 'Q', row: 'q', ...rows });
  trace.add({ name: TENSORS.k, value: k, symbol: 'K', row: 'k', ...rows });
  trace.add({ name: TENSORS.v, value: v, symbol: 'V', row: 'v', ...rows });
  trace.add({ name: 'head.mask', value: () => maskOf(T, T, (i, j) => j > i), symbol: 'M' });
  const pairs = { rowLabels: tokens, colLabels: tokens };
  trace.add({
    name: 'head.scores',
    op: 'matmul',
    inputs: [TENSORS.q, TENSORS.k],
    value: () => api.attentionScores(q, k, { precision: 'float64' }),
    symbol: 'score',
    params: { transposeB: true },
    ...pairs,
  });
  trace.add({
    name: TENSORS.weights,
    op: 'softmax',
    inputs: ['head.scores', 'head.mask'],
    value: weights,
    symbol: 'weight',
    params: { dk },
    ...pairs,
  });
  return trace.add({
    name: TENSORS.mix,
    op: 'weightedSum',
    inputs: [TENSORS.weights, TENSORS.v],
    value: api.matmul(weights, v, { precision: 'float64' }),
    symbol: 'mix',
    ...rows,
  });
}
