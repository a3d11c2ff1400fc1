// The trained Transformer's last translation as a trace of named tensors
// (../explain/trace.js): for every use, layer and head, the map the engine
// sent is the softmax of q·k/√d_k over the queries and keys it also sent, so
// any cell of any head explains itself down to the dot product. Recording
// stores the engine's matrices; a head's blocks and scores are computed only
// when a reader hovers one of its cells.
import { columnsOf, maskOf } from '../explain/heads.js';
import { labelsFor, USE_IDS } from './trained-model.js';

/** The tensor of one head's weights, and of one use and layer's queries ('Q') or keys ('K'). */
export const headTensor = (use, layer, head) => `${use}.L${layer}.H${head}.weights`;
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
        const t = (what) => `${use}.L${layer}.H${h}.${what}`;
        const split = { op: 'split', params: { c0: h * dk, width: dk } };
        const block = (m) => () => columnsOf(m, h * dk, dk);
        trace.add({
          name: t('Q'),
          ...split,
          inputs: [qName],
          value: block(Q),
          symbol: `Q${h + 1}`,
          row: 'q',
          rowLabels,
        });
        trace.add({
          name: t('K'),
          ...split,
          inputs: [kName],
          value: block(K),
          symbol: `K${h + 1}`,
          row: 'k',
          rowLabels: colLabels,
        });
        trace.add({
          name: t('scores'),
          op: 'matmul',
          inputs: [t('Q'), t('K')],
          value: () => api.attentionScores(trace.value(t('Q')), trace.value(t('K'))),
          symbol: 's',
          rowLabels,
          colLabels,
          params: { transposeB: true },
        });
        trace.add({
          name: headTensor(use, layer, h),
          op: 'softmax',
          inputs: [t('scores'), maskName],
          value: weights,
          symbol: 'α',
          rowLabels,
          colLabels,
          params: { dk },
        });
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
