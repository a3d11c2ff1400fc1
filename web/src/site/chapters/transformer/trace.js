// The hands-on Transformer chapter's forward pass as a trace of named tensors
// (../explain/trace.js), so every computed figure explains its cells from the
// computation itself. Recording stores the matrices model.js
// already computed; tensors no figure shows (a head's block of Q, its scores,
// the three uses' projections) are functions, computed only when a reader
// hovers a cell whose story needs them. Names are the figures' names.
import { traceHead } from '../../explain/attention-trace.js';
import { maskOf } from '../../explain/heads.js';

/** X, Q, K, V, raw and scaled scores, weights and output (steps 1, 2 and 4). `labels`: tokens, or null. */
export function traceProjections(trace, { E, X, ids, Wq, Wk, Wv, Wo }, proj, labels) {
  const rows = { rowLabels: labels ?? undefined };
  const pairs = { rowLabels: labels ?? undefined, colLabels: labels ?? undefined };
  trace.add({ name: 'E', value: E, symbol: 'E' });
  trace.add({ name: 'X', op: 'embedding', inputs: ['E'], value: X, symbol: 'X', row: 'x', ...rows, params: { ids } });
  for (const [name, W] of Object.entries({ Wq, Wk, Wv, Wo })) trace.add({ name, value: W, symbol: `W_${name[1]}` });
  for (const [name, W] of [
    ['Q', 'Wq'],
    ['K', 'Wk'],
    ['V', 'Wv'],
  ]) {
    trace.add({
      name,
      op: 'matmul',
      inputs: ['X', W],
      value: proj[name],
      symbol: name,
      row: name.toLowerCase(),
      ...rows,
    });
  }
  const dk = proj.Q.cols;
  trace.add({
    name: 'raw',
    op: 'matmul',
    inputs: ['Q', 'K'],
    value: proj.raw,
    symbol: 'score',
    ...pairs,
    params: { transposeB: true },
  });
  trace.add({
    name: 'scaled',
    op: 'scale',
    inputs: ['raw'],
    value: proj.scaled,
    symbol: 'scaled',
    ...pairs,
    params: { dk },
  });
  trace.add({
    name: 'weights',
    op: 'softmax',
    inputs: ['scaled'],
    value: proj.attention.weights,
    symbol: 'weight',
    ...pairs,
  });
  trace.add({
    name: 'output',
    op: 'weightedSum',
    inputs: ['weights', 'V'],
    value: proj.attention.output,
    symbol: 'output',
    ...rows,
  });
}

/** The mask and the masked weights and output (step 5). */
export function traceMasked(trace, mask, masked, labels) {
  const pairs = { rowLabels: labels ?? undefined, colLabels: labels ?? undefined };
  trace.add({ name: 'mask', value: mask, symbol: 'M' });
  trace.add({
    name: 'masked',
    op: 'softmax',
    inputs: ['scaled', 'mask'],
    value: masked.weights,
    symbol: 'weight',
    ...pairs,
  });
  trace.add({
    name: 'maskedOut',
    op: 'weightedSum',
    inputs: ['masked', 'V'],
    value: masked.output,
    symbol: 'output',
    rowLabels: labels ?? undefined,
  });
}

/** Multi-head attention by hand (step 6): each head's block, scores, weights and output, the concatenation, · Wo. */
export function traceHeads(api, trace, r, labels) {
  const rows = { rowLabels: labels ?? undefined };
  const pairs = { rowLabels: labels ?? undefined, colLabels: labels ?? undefined };
  const outputs = r.perHead.map((head, h) => {
    const name = (what) => `head${h}.${what}`;
    const { Q, K, V } = r.blocks[h];
    const block = { params: { c0: h * r.dk, width: r.dk }, ...rows };
    trace.add({ name: name('Q'), op: 'split', inputs: ['Q'], value: Q, symbol: `Q${h + 1}`, row: 'q', ...block });
    trace.add({ name: name('K'), op: 'split', inputs: ['K'], value: K, symbol: `K${h + 1}`, row: 'k', ...block });
    trace.add({ name: name('V'), op: 'split', inputs: ['V'], value: V, symbol: `V${h + 1}`, row: 'v', ...block });
    trace.add({
      name: name('scores'),
      op: 'matmul',
      inputs: [name('Q'), name('K')],
      value: () => api.attentionScores(Q, K),
      symbol: `score${h + 1}`,
      ...pairs,
      params: { transposeB: true },
    });
    trace.add({
      name: name('weights'),
      op: 'softmax',
      inputs: [name('scores'), 'mask'],
      value: head.weights,
      symbol: `weight${h + 1}`,
      ...pairs,
      params: { dk: r.dk },
    });
    trace.add({
      name: name('output'),
      op: 'weightedSum',
      inputs: [name('weights'), name('V')],
      value: head.output,
      symbol: `head${h + 1}`,
      ...rows,
    });
    return name('output');
  });
  trace.add({ name: 'concat', op: 'concat', inputs: outputs, value: r.concat, symbol: 'concat', row: 'c', ...rows });
  trace.add({ name: 'mha', op: 'matmul', inputs: ['concat', 'Wo'], value: r.byHand, symbol: 'multihead', ...rows });
}

/**
 * Step 3's softmax of 8 scores without and with 1/√d_k: row 1 is the softmax
 * of q1 · k1 … q1 · k8, row 2 of the same scores divided by √d_k first; q1 and
 * k1 … k8 are the first random query and keys the table's row draws.
 */
export function traceDemo(trace, current, weights) {
  trace.add({ name: 'demo.q', value: current.q1, symbol: 'q', row: 'q' });
  trace.add({ name: 'demo.k', value: current.k8, symbol: 'K', row: 'k' });
  const scores = (data) => ({ rows: 1, cols: 8, data });
  trace.add({
    name: 'demo.raw',
    op: 'matmul',
    inputs: ['demo.q', 'demo.k'],
    value: scores(current.scores8),
    symbol: 's',
    vector: true,
    params: { transposeB: true },
  });
  trace.add({
    name: 'demo.scaled',
    op: 'scale',
    inputs: ['demo.raw'],
    value: scores(current.scaled8),
    symbol: 'ŝ',
    vector: true,
    params: { dk: current.dk },
  });
  trace.add({
    name: 'demo.scores',
    op: 'stack',
    inputs: ['demo.raw', 'demo.scaled'],
    value: () => ({ rows: 2, cols: 8, data: Float64Array.from([...current.scores8, ...current.scaled8]) }),
    symbol: 'scores',
  });
  trace.add({ name: 'demo.weights', op: 'softmax', inputs: ['demo.scores'], value: weights, symbol: 'w' });
}

/**
 * Step 7: for each use, its query and key/value embeddings ('uses.S' source,
 * 'uses.T' target), its projections and every head down to q·k/√d_k, all
 * computed on demand from the use's weights (the API's multiHeadAttention
 * gives only the weights the figures draw).
 */
export function traceUses(api, trace, { S, T, runs }) {
  trace.add({ name: 'uses.S', value: S, symbol: 'S', row: 's', rowLabels: runs[0].rowLabels });
  trace.add({ name: 'uses.T', value: T, symbol: 'T', row: 't', rowLabels: runs[1].rowLabels });
  runs.forEach((run, u) => {
    const name = (what) => `uses${u}.${what}`;
    const [qName, kvName] = [run.q === S ? 'uses.S' : 'uses.T', run.kv === S ? 'uses.S' : 'uses.T'];
    const [rowLabels, colLabels] = [run.rowLabels, run.colLabels];
    for (const W of ['Wq', 'Wk']) trace.add({ name: name(W), value: run[W], symbol: `W_${W[1]}` });
    const projections = [
      ['Q', qName, run.q, 'Wq', rowLabels],
      ['K', kvName, run.kv, 'Wk', colLabels],
    ];
    for (const [role, input, x, W, labels] of projections) {
      const value = () => api.matmul(x, run[W]);
      const names = { symbol: role, row: role.toLowerCase(), rowLabels: labels };
      trace.add({ name: name(role), op: 'matmul', inputs: [input, name(W)], value, ...names });
    }
    const mask = () => run.mask ?? maskOf(rowLabels.length, colLabels.length, run.isMasked);
    trace.add({ name: name('mask'), value: mask, symbol: 'M' });
    const dk = run.Wq.cols / run.weights.length;
    run.weights.forEach((weights, h) => {
      const head = { prefix: name(`head${h}.`), Q: name('Q'), K: name('K'), mask: name('mask'), h, dk };
      traceHead(api, trace, { ...head, weights, rowLabels, colLabels });
    });
  });
}
