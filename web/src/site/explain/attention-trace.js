// One attention head recorded into a trace (trace.js), as the Transformer
// chapters record theirs: the head's blocks of the projected queries and keys,
// its scores q·k and its weights softmax(q·k/√d_k) (masked). Only the weights
// are given; the blocks and scores are functions, computed when a reader
// hovers one of the head's cells.
import { columnsOf } from './heads.js';

/**
 * Records head h of a multi-head attention under `${prefix}${what}` (what:
 * Q, K, scores, weights) and returns the weights' name.
 * @param {object} head
 * @param {string} head.Q name of the projected queries (all heads' columns)
 * @param {string} head.K name of the projected keys
 * @param {string} [head.mask] name of a 0/1 mask, if any
 * @param {object} head.weights the head's weights (the API's)
 * @param {number} head.h which head; head.dk its width
 */
export function traceHead(api, trace, { prefix, Q, K, mask, weights, h, dk, rowLabels, colLabels }) {
  const name = (what) => `${prefix}${what}`;
  const split = { op: 'split', params: { c0: h * dk, width: dk } };
  const block = (of) => () => columnsOf(trace.value(of), h * dk, dk);
  trace.add({ name: name('Q'), ...split, inputs: [Q], value: block(Q), symbol: `Q${h + 1}`, row: 'q', rowLabels });
  const keys = { symbol: `K${h + 1}`, row: 'k', rowLabels: colLabels };
  trace.add({ name: name('K'), ...split, inputs: [K], value: block(K), ...keys });
  trace.add({
    name: name('scores'),
    op: 'matmul',
    inputs: [name('Q'), name('K')],
    value: () => api.attentionScores(trace.value(name('Q')), trace.value(name('K'))),
    symbol: `score${h + 1}`,
    rowLabels,
    colLabels,
    params: { transposeB: true },
  });
  trace.add({
    name: name('weights'),
    op: 'softmax',
    inputs: [name('scores'), mask],
    value: weights,
    symbol: `weight${h + 1}`,
    rowLabels,
    colLabels,
    params: { dk },
  });
  return name('weights');
}
