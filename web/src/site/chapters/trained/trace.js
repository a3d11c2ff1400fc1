// The trained Transformer's last translation as a trace of named tensors
// (../explain/trace.js): for every use, layer and head, the map the engine
// sent is the softmax of q·k/√d_k over the queries and keys it also sent, so
// any cell of any head explains itself down to the dot product. Recording
// stores the engine's matrices; a head's blocks and scores are computed only
// when a reader hovers one of its cells.
import { traceHead } from '../../explain/attention-trace.js';
import { maskOf } from '../../explain/heads.js';
import { labelsFor, USE_IDS } from './model.js';

/** The tensor of one head's weights, and of one use and layer's queries ('Q') or keys ('K'). */
export const headTensor = (use, layer, head) => `${use}.L${layer}.H${head}.weights`; // as traceHead names it
export const projectionTensor = (use, layer, which) => `${use}.L${layer}.${which}`;

/** Every head of every layer of the three uses of `translation` (the engine's message) for `input`. */
export function traceTranslation(api, trace, translation, input) {
  for (const use of USE_IDS) {
    const { rowLabels, colLabels } = labelsFor(use, input, translation.output);
    translation[use].forEach((heads, layer) => {
      const [qName, kName] = [projectionTensor(use, layer, 'Q'), projectionTensor(use, layer, 'K')];
      const [Q, K] = [translation.queries[use][layer], translation.keys[use][layer]];
      trace.add({ name: qName, value: Q, symbol: 'Q', row: 'q', rowLabels });
      trace.add({ name: kName, value: K, symbol: 'K', row: 'k', rowLabels: colLabels });
      const maskName = use === 'decoderSelf' ? `${use}.L${layer}.mask` : undefined;
      if (maskName) trace.add({ name: maskName, value: () => maskOf(Q.rows, K.rows, (i, j) => j > i), symbol: 'M' });
      const dk = Q.cols / heads.length;
      heads.forEach((weights, h) => {
        const head = { prefix: `${use}.L${layer}.H${h}.`, Q: qName, K: kName, mask: maskName, h, dk };
        traceHead(api, trace, { ...head, weights, rowLabels, colLabels });
      });
    });
  }
}

/** The positional encoding the model adds (the engine's 'ready' message). */
export const tracePositions = (trace, pe) =>
  trace.add({ name: 'pe', op: 'positional', value: pe, symbol: 'PE', params: { dModel: pe.cols } });

/** The RNN's attention: the softmax of its scores (rows: output characters, columns: input characters). */
export function traceRnn(trace, r, rowLabels, colLabels) {
  trace.add({ name: 'rnn.scores', value: r.scores, symbol: 'e', rowLabels, colLabels });
  trace.add({
    name: 'rnn.weights',
    op: 'softmax',
    inputs: ['rnn.scores'],
    value: r.attention,
    symbol: 'α',
    rowLabels,
    colLabels,
  });
}
