// The computations of the "Attention is all you need, hands on" chapter, kept
// apart from the page (no DOM) so node tests can check them against NumPy
// (tests/js/site-transformer-model.test.mjs). Inputs come from the NumPy-exact
// RandomState, so every matrix can be reproduced with the lines numpyLines()
// prints; every product, softmax and attention goes through the API.
//
// Storage: the functions that recompute on every edit take an optional
// `slot(name, rows, cols)` (workspace.js) that hands back the same Matrix for
// the same name and shape on every call; results are written into it (the
// API's options.out) instead of into new arrays. Without it, every result is a
// new Matrix (the tests compare the two).
//
// Trace: given a trace (../explain/trace.js), the functions compute through
// it (../explain/traced-api.js) under the figures' names, so every figure
// explains its cells from the computation itself.
import { tracedApi } from '../../explain/traced-api.js';

export const LENGTHS = [0, 16, 32, 64, 128]; // 0 = one position per token
export const D_MODELS = [2, 4, 8, 16, 32, 64];
export const DK_DEMO = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];
export const SAMPLES = 32; // random q and k vectors per d_k in the scaling demo
export const MAX_TOKENS = 128;
export const USES_D_MODEL = 8;
export const USES_MAX_TOKENS = 12;

/** Tokens of a sentence: split on white space, at most `limit`. */
export const words = (text, limit = MAX_TOKENS) => text.trim().split(/\s+/).filter(Boolean).slice(0, limit);
const hasWords = (text) => words(text).length > 0;

/** Cells flipped by hand on the mask, as "row.col" strings. */
export function parseFlips(text) {
  return new Set((text ?? '').split(',').filter((s) => /^\d{1,3}\.\d{1,3}$/.test(s)));
}

/** The permalink state of the chapter (url-state.js); keys as before. */
export const SCHEMA = [
  { key: 'tt', name: 'tokens', type: 'string', maxLength: 400, default: 'the cat sat on the mat', valid: hasWords },
  { key: 'tn', name: 'length', type: 'enum', values: LENGTHS, default: 0 },
  { key: 'td', name: 'dModel', type: 'enum', values: D_MODELS, default: 8 },
  { key: 'th', name: 'heads', type: 'int', min: 1, max: 64, default: 2 },
  { key: 'ts', name: 'seed', type: 'int', min: 0, max: 4294967295, default: 1 },
  { key: 'tp', name: 'padding', type: 'int', min: 0, max: MAX_TOKENS - 1, default: 1 },
  { key: 'tc', name: 'causal', type: 'bool', default: false },
  { key: 'tk', name: 'dk', type: 'enum', values: DK_DEMO, default: 64 },
  { key: 'tds', name: 'demoSeed', type: 'int', min: 0, max: 4294967295, default: 1 },
  { key: 'tus', name: 'usesSeed', type: 'int', min: 0, max: 4294967295, default: 1 },
  { key: 'tm', name: 'flips', type: 'string', maxLength: 4000, default: '' },
  { key: 'tsrc', name: 'source', type: 'string', maxLength: 200, default: 'le chat est noir <pad>', valid: hasWords },
  { key: 'ttgt', name: 'target', type: 'string', maxLength: 200, default: '<s> the cat is black', valid: hasWords },
];

/** Heads that divide d_model (the choices offered). */
export const headChoices = (dModel) => Array.from({ length: dModel }, (_, i) => i + 1).filter((h) => dModel % h === 0);

/** A state with heads reset to 1 when they do not divide d_model. */
export const consistent = (state) => (state.dModel % state.heads === 0 ? state : { ...state, heads: 1 });

/** The chapter's tokens: the sentence's, or w1 … wN for a fixed length. */
export const tokensOf = ({ tokens, length }) =>
  length === 0 ? words(tokens) : Array.from({ length }, (_, i) => `w${i + 1}`);

/** Distinct words in first-seen order, and each token's index into them. */
export function vocabulary(tokens) {
  const index = new Map(); // word -> its row (a Map: indexOf per token is quadratic at n = 128)
  const ids = tokens.map((t) => {
    if (!index.has(t)) index.set(t, index.size);
    return index.get(t);
  });
  return { vocab: [...index.keys()], ids };
}

/** No workspace: every result a new Matrix (an `out` of undefined takes the default). */
const noSlot = () => undefined;

/** Rows `ids` of a matrix (NumPy's E[ids]). */
function pickRows(api, E, ids, out = new api.Matrix(ids.length, E.cols)) {
  copyBlock(E.data, E.cols, ids.length, ids, 0, out.data, E.cols, 0, E.cols);
  return out;
}

/**
 * dst[r][dc0 + c] = src[rowOf(r)][sc0 + c] for r < rows, c < width (row-major,
 * row lengths srcCols and dstCols; rowOf: an array of source rows, or null for
 * row r itself). One plain loop: a subarray and a set per row made garbage and
 * cost more than the copy at n = 128 (bench/frame.mjs).
 */
function copyBlock(src, srcCols, rows, rowOf, sc0, dst, dstCols, dc0, width) {
  for (let r = 0; r < rows; r++) {
    const s = (rowOf ? rowOf[r] : r) * srcCols + sc0;
    const d = r * dstCols + dc0;
    for (let c = 0; c < width; c++) dst[d + c] = src[s + c];
  }
}

/** rs.randn(d, d) / np.sqrt(d): a weight matrix with unit-variance products. */
function weightMatrix(api, rs, d, out) {
  const W = rs.randn(d, d, { out }); // ours (a copy, or the workspace's): divided in place
  const scale = Math.sqrt(d); // IEEE: the same division NumPy does
  for (let i = 0; i < W.data.length; i++) W.data[i] /= scale;
  return W;
}

/**
 * Embeddings and weights, drawn like
 *   rs = np.random.RandomState(seed); E = rs.randn(len(vocab), d); X = E[ids]
 *   Wq, Wk, Wv, Wo = (rs.randn(d, d) / np.sqrt(d) for _ in range(4))
 * A word's embedding is its vocabulary row, so repeated words match.
 */
export function drawInputs(api, tokens, dModel, seed, slot = noSlot) {
  const { vocab, ids } = vocabulary(tokens);
  const rs = new api.RandomState(seed);
  try {
    const E = rs.randn(vocab.length, dModel, { out: slot('E', vocab.length, dModel) });
    const [Wq, Wk, Wv, Wo] = ['Wq', 'Wk', 'Wv', 'Wo'].map((name) =>
      weightMatrix(api, rs, dModel, slot(name, dModel, dModel)),
    );
    const X = pickRows(api, E, ids, slot('X', ids.length, dModel));
    return { vocab, ids, E, X, Wq, Wk, Wv, Wo };
  } finally {
    rs.delete();
  }
}

/**
 * Steps 1, 2 and 4: projections, raw and scaled scores, plain attention,
 * computed through `trace` (../explain/traced-api.js) under the figures'
 * names (X, Q, K, V, raw, scaled, weights, output); `labels`: tokens, or null.
 */
export function projections(api, { E, X, ids, Wq, Wk, Wv, Wo }, slot = noSlot, { trace, labels } = {}) {
  const t = tracedApi(api, trace);
  const { rows, pairs } = labelled(labels);
  t.input('E', E, { symbol: 'E' });
  t.name('X', { symbol: 'X', row: 'x', ...rows }).record('embedding', [E, ids], X);
  for (const [name, W] of Object.entries({ Wq, Wk, Wv, Wo })) t.input(name, W, { symbol: `W_${name[1]}` });
  const [n, d] = [X.rows, Wq.cols];
  const project = (name) => t.name(name, { symbol: name, row: name.toLowerCase(), ...rows });
  const Q = project('Q').matmul(X, Wq, { out: slot('Q', n, d) });
  const K = project('K').matmul(X, Wk, { out: slot('K', n, d) });
  const V = project('V').matmul(X, Wv, { out: slot('V', n, d) });
  const raw = t.name('raw', { symbol: 'score', ...pairs }).attentionScores(Q, K, { out: slot('raw', n, n) });
  // What attentionScores(Q, K, { scaled: true }) gives, without a second Q Kᵀ.
  const scaled = scaledScores(api, raw, Q.cols, slot('scaled', n, n));
  t.name('scaled', { symbol: 'scaled', ...pairs }).record('attentionScores', [Q, K, { scaled: true }], scaled);
  const names = {
    weights: { name: 'weights', symbol: 'weight', ...pairs },
    output: { name: 'output', symbol: 'output', ...rows },
  };
  const out = attentionSlots(slot, 'attention', n, n, d);
  return { Q, K, V, raw, scaled, attention: t.name(names).scaledDotProductAttention(Q, K, V, { out }) };
}

/** A figure's labels: rows (tokens), pairs (query → key tokens), or none when there are too many. */
const labelled = (labels) => ({
  rows: { rowLabels: labels ?? undefined },
  pairs: { rowLabels: labels ?? undefined, colLabels: labels ?? undefined },
});

/** Workspace matrices for an attention result { output (n_q x d_v), weights (n_q x n_k) }. */
const attentionSlots = (slot, name, nq, nk, dv) => ({
  output: slot(`${name}.output`, nq, dv),
  weights: slot(`${name}.weights`, nq, nk),
});

/**
 * raw / sqrt(d_k) entry by entry, the division NumPy's `Q @ K.T / np.sqrt(d_k)`
 * and attentionScores(Q, K, { scaled: true }) do (IEEE division by the same
 * correctly rounded square root: bit for bit the same, tested), without a
 * second Q Kᵀ in wasm.
 */
export function scaledScores(api, raw, dk, out = new api.Matrix(raw.rows, raw.cols)) {
  const [from, to, root] = [raw.data, out.data, Math.sqrt(dk)];
  for (let i = 0; i < to.length; i++) to[i] = from[i] / root;
  return out;
}

/** Sample variance (ddof = 1) of a matrix's entries: a summary for the table. */
export function variance(m) {
  let mean = 0;
  for (const x of m.data) mean += x;
  mean /= m.data.length;
  let v = 0;
  for (const x of m.data) v += (x - mean) ** 2;
  return v / (m.data.length - 1);
}

/**
 * Step 3, the scaling demo: rs = RandomState(seed); for each d_k in DK_DEMO,
 * q = rs.randn(32, d_k), k = rs.randn(32, d_k). Per d_k: the variance of the
 * 32 × 32 scores without and with 1/√d_k, and the softmax of the first 8.
 */
export function scalingDemo(api, seed) {
  const rs = new api.RandomState(seed);
  try {
    return DK_DEMO.map((dk) => {
      const q = rs.randn(SAMPLES, dk);
      const k = rs.randn(SAMPLES, dk);
      const raw = api.attentionScores(q, k);
      const scaled = api.attentionScores(q, k, { scaled: true });
      const wRaw = api.softmax(raw.data.slice(0, 8));
      const wScaled = api.softmax(scaled.data.slice(0, 8));
      return {
        dk,
        q1: { rows: 1, cols: dk, data: q.data.slice(0, dk) }, // the first query …
        k8: { rows: 8, cols: dk, data: k.data.slice(0, 8 * dk) }, // … and the first 8 keys: the figure's sources
        scores8: raw.data.slice(0, 8), // q1 · k1 … q1 · k8, the scores the softmax rows are made from
        scaled8: scaled.data.slice(0, 8), // the same divided by √d_k
        varRaw: variance(raw),
        varScaled: variance(scaled),
        wRaw,
        wScaled,
        maxRaw: Math.max(...wRaw),
        maxScaled: Math.max(...wScaled),
      };
    });
  } finally {
    rs.delete();
  }
}

/**
 * Step 5: the n × n 0/1 mask: the last `padding` keys masked, keys after the
 * query masked when causal, then the hand-flipped cells inverted.
 */
export function buildMask(n, { padding, causal, flips }) {
  const pad = Math.min(padding, n);
  const data = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) data[i * n + j] = j < n - pad && (!causal || j <= i) ? 1 : 0;
  for (const key of flips) {
    const [i, j] = key.split('.').map(Number);
    if (i < n && j < n) data[i * n + j] = 1 - data[i * n + j];
  }
  return { rows: n, cols: n, data };
}

/** Queries whose keys are all masked. */
export function emptyRows(mask) {
  let count = 0;
  for (let i = 0; i < mask.rows; i++)
    if (mask.data.subarray(i * mask.cols, (i + 1) * mask.cols).every((m) => m === 0)) count++;
  return count;
}

/** Columns c0 … c0 + width − 1 of a matrix (head i's block). */
export function columns(api, m, c0, width, out = new api.Matrix(m.rows, width)) {
  copyBlock(m.data, m.cols, m.rows, null, c0, out.data, width, 0, width);
  return out;
}

/** Matrices side by side (NumPy's np.concatenate(parts, axis=1)). */
export function concatColumns(api, parts, out) {
  const cols = parts.reduce((s, p) => s + p.cols, 0);
  out ??= new api.Matrix(parts[0].rows, cols);
  let c0 = 0;
  for (const p of parts) {
    copyBlock(p.data, p.cols, p.rows, null, 0, out.data, cols, c0, p.cols);
    c0 += p.cols;
  }
  return out;
}

/**
 * Step 6: multi-head attention by hand: each head on its block of Q, K, V
 * columns (blocks[i]), concatenated, times Wo; through `trace` (after
 * projections and maskedAttention recorded Q, K, V, Wo and the mask) as
 * head{i}.Q/K/V/scores/weights/output, concat and mha.
 */
export function multiHeadByHand(api, inputs, proj, heads, mask, slot = noSlot, { trace, labels } = {}) {
  const t = tracedApi(api, trace);
  const { rows, pairs } = labelled(labels);
  const [n, d] = [inputs.X.rows, inputs.X.cols];
  const dk = d / heads;
  const block = (m, name, i) =>
    t
      .name(`head${i}.${name}`, { symbol: `${name}${i + 1}`, row: name.toLowerCase(), ...rows })
      .record('columns', [m, i * dk, dk], columns(api, m, i * dk, dk, slot(`head${i}.${name}`, n, dk)));
  const blocks = Array.from({ length: heads }, (_, i) => ({
    Q: block(proj.Q, 'Q', i),
    K: block(proj.K, 'K', i),
    V: block(proj.V, 'V', i),
  }));
  const perHead = blocks.map(({ Q, K, V }, i) => {
    const head = (what, symbol, labels) => ({ name: `head${i}.${what}`, symbol: `${symbol}${i + 1}`, ...labels });
    const names = { scores: head('scores', 'score', pairs), weights: head('weights', 'weight', pairs) };
    names.output = head('output', 'head', rows);
    const out = attentionSlots(slot, `head${i}`, n, n, dk);
    return t.name(names).scaledDotProductAttention(Q, K, V, { mask, out });
  });
  const outputs = perHead.map((r) => r.output);
  const concat = t
    .name('concat', { symbol: 'concat', row: 'c', ...rows })
    .record('concat', outputs, concatColumns(api, outputs, slot('concat', n, d)));
  const byHand = t
    .name('mha', { symbol: 'multihead', ...rows })
    .matmul(concat, inputs.Wo, { out: slot('byHand', n, d) });
  return { dk, blocks, perHead, concat, byHand };
}

/**
 * Step 6's check: the same multi-head attention in one API call; `diff` is the
 * largest difference from the by-hand output.
 */
export function oneCallCheck(api, inputs, { byHand, perHead }, mask, slot = noSlot) {
  const { X, Wq, Wk, Wv, Wo } = inputs;
  const [n, heads] = [X.rows, perHead.length];
  const out = {
    output: slot('mha.output', n, X.cols),
    weights: Array.from({ length: heads }, (_, h) => slot(`mha.weights${h}`, n, n)),
  };
  const mha = api.multiHeadAttention(X, X, X, { heads, Wq, Wk, Wv, Wo, mask, out });
  let diff = 0;
  for (let i = 0; i < byHand.data.length; i++) diff = Math.max(diff, Math.abs(byHand.data[i] - mha.output.data[i]));
  return { mha, diff };
}

/** Step 6 whole: by hand and checked against one call. */
export function multiHead(api, inputs, proj, heads, mask) {
  const r = multiHeadByHand(api, inputs, proj, heads, mask);
  return { ...r, ...oneCallCheck(api, inputs, r, mask) };
}

/** A padding mask over the source tokens ('<pad>' masked) for `rows` queries. */
function padMask(rows, src) {
  const data = new Float64Array(rows * src.length);
  for (let i = 0; i < rows; i++) src.forEach((w, j) => (data[i * src.length + j] = w === '<pad>' ? 0 : 1));
  return { rows, cols: src.length, data };
}

export const USES = ['encoder self-attention', 'masked decoder self-attention', 'encoder–decoder attention'];

/**
 * Step 7, the three uses, two heads each, drawn like
 *   rs = np.random.RandomState(seed); E = rs.randn(len(vocab), 8)   # vocab of source + target
 *   then per use: Wq, Wk, Wv, Wo = (rs.randn(8, 8) / np.sqrt(8) for _ in range(4))
 */
export function threeUses(api, { source, target, usesSeed }, trace = undefined) {
  const t = tracedApi(api, trace);
  const src = words(source, USES_MAX_TOKENS);
  const tgt = words(target, USES_MAX_TOKENS);
  const { vocab, ids } = vocabulary([...src, ...tgt]);
  const rs = new api.RandomState(usesSeed);
  try {
    const E = rs.randn(vocab.length, USES_D_MODEL);
    const S = t.input('uses.S', pickRows(api, E, ids.slice(0, src.length)), { symbol: 'S', row: 's', rowLabels: src });
    const T = t.input('uses.T', pickRows(api, E, ids.slice(src.length)), { symbol: 'T', row: 't', rowLabels: tgt });
    const runs = [
      { q: S, kv: S, opts: { mask: padMask(src.length, src) }, rows: src, cols: src },
      { q: T, kv: T, opts: { causal: true }, rows: tgt, cols: tgt },
      { q: T, kv: S, opts: { mask: padMask(tgt.length, src) }, rows: tgt, cols: src },
    ];
    return {
      S,
      T,
      runs: runs.map((run, u) => {
        const [Wq, Wk, Wv, Wo] = [0, 1, 2, 3].map(() => weightMatrix(api, rs, USES_D_MODEL));
        const name = (what) => `uses${u}.${what}`;
        for (const [key, W] of Object.entries({ Wq, Wk })) t.input(name(key), W, { symbol: `W_${key[1]}` });
        const m = run.opts.mask;
        if (m) t.input(name('mask'), m, { symbol: 'M' });
        // Recorded down to each head's q·k (computed when a story needs it): the call gives only the weights.
        const opts = { heads: 2, Wq, Wk, Wv, Wo, ...run.opts };
        const r = t.name({ prefix: name('') }).multiHeadAttention(run.q, run.kv, run.kv, opts);
        const isMasked = m ? (i, j) => m.data[i * m.cols + j] === 0 : (i, j) => j > i;
        return {
          name: USES[u],
          q: run.q,
          kv: run.kv,
          mask: m ?? null,
          weights: r.weights,
          rowLabels: run.rows,
          colLabels: run.cols,
          isMasked,
          Wq,
          Wk,
          Wv,
          Wo,
        };
      }),
    };
  } finally {
    rs.delete();
  }
}

const pyList = (items) => `[${items.join(', ')}]`;
const pyStr = (s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The NumPy lines that reproduce the chapter's X and weights (step 1). */
export function numpyLines({ vocab, ids, X }, seed) {
  const d = X.cols;
  return [
    'import numpy as np',
    `rs = np.random.RandomState(${seed})`,
    `vocab = ${pyList(vocab.map(pyStr))}`,
    `E = rs.randn(${vocab.length}, ${d})        # one row per distinct word`,
    `ids = ${pyList(ids)}   # each token's row in vocab`,
    'X = E[ids]',
    `Wq, Wk, Wv, Wo = (rs.randn(${d}, ${d}) / np.sqrt(${d}) for _ in range(4))`,
    'Q, K, V = X @ Wq, X @ Wk, X @ Wv',
  ].join('\n');
}

/** The NumPy lines of the scaling demo (step 3). */
export const demoNumpyLines = (seed) =>
  [
    `rs = np.random.RandomState(${seed})`,
    `for dk in ${pyList(DK_DEMO)}:`,
    `    q, k = rs.randn(${SAMPLES}, dk), rs.randn(${SAMPLES}, dk)`,
  ].join('\n');

/** The NumPy lines of the three uses (step 7). */
export const usesNumpyLines = (seed) =>
  [
    `rs = np.random.RandomState(${seed})`,
    `E = rs.randn(len(vocab), ${USES_D_MODEL})   # vocab: distinct words of source, then target`,
    `for use in range(3):`,
    `    Wq, Wk, Wv, Wo = (rs.randn(${USES_D_MODEL}, ${USES_D_MODEL}) / np.sqrt(${USES_D_MODEL}) for _ in range(4))`,
  ].join('\n');

/** Step 5: attention with the mask, through `trace` (after projections) as mask, masked and maskedOut. */
export function maskedAttention(api, { Q, K, V }, mask, slot = noSlot, { trace, labels } = {}) {
  const t = tracedApi(api, trace);
  const { rows, pairs } = labelled(labels);
  t.input('mask', mask, { symbol: 'M' });
  const names = { weights: { name: 'masked', symbol: 'weight', ...pairs } };
  names.output = { name: 'maskedOut', symbol: 'output', ...rows };
  const out = attentionSlots(slot, 'masked', Q.rows, K.rows, V.cols);
  return t.name(names).scaledDotProductAttention(Q, K, V, { mask, out });
}

/**
 * Step 3's softmax of 8 scores without and with 1/√d_k, recorded in `trace`
 * as computed for `current` (scalingDemo's row of the chosen d_k): row 1 of
 * `weights` is the softmax of q1 · k1 … q1 · k8, row 2 of the same scores
 * divided by √d_k first; q1 and k1 … k8 are the first random query and keys.
 */
export function recordDemo(api, trace, current, weights) {
  const t = tracedApi(api, trace);
  const q = t.input('demo.q', current.q1, { symbol: 'q', row: 'q' });
  const k = t.input('demo.k', current.k8, { symbol: 'K', row: 'k' });
  const row = (data) => ({ rows: 1, cols: 8, data });
  const raw = t.name('demo.raw', { symbol: 's', vector: true }).record('attentionScores', [q, k], row(current.scores8));
  const scaled = t
    .name('demo.scaled', { symbol: 'ŝ', vector: true })
    .record('attentionScores', [q, k, { scaled: true }], row(current.scaled8));
  const both = { rows: 2, cols: 8, data: Float64Array.from([...current.scores8, ...current.scaled8]) };
  const scores = t.name('demo.scores', { symbol: 'scores' }).record('stack', [raw, scaled], both);
  t.name('demo.weights', { symbol: 'w' }).record('softmax', [scores], weights);
}

const fixed = (x, digits) => x.toFixed(digits);

/**
 * Step 3's reading of its table and of the current d_k, in numbers: how the
 * unscaled and scaled variances and largest weights change from the smallest
 * d_k to the largest, and what scaling does at the chosen d_k. Each claim is
 * made only when the numbers bear it out (a largest weight "heads for 1" only
 * above 0.9, "does not stay put" only when it moves by more than 0.05; a
 * variance is "near 1" only within 0.5 to 2).
 */
export function scalingSummary(rows, dk) {
  const [first, last] = [rows[0], rows[rows.length - 1]];
  const scaledVars = rows.map((r) => r.varScaled);
  const [lo, hi] = [Math.min(...scaledVars), Math.max(...scaledVars)];
  const scaledMax = rows.map((r) => r.maxScaled);
  const [wLo, wHi] = [Math.min(...scaledMax), Math.max(...scaledMax)];
  const dkOf = (value) => rows[scaledMax.indexOf(value)].dk;
  const grows = last.varRaw > 10 * first.varRaw;
  const variance =
    `From d_k = ${first.dk} to ${last.dk} the unscaled variance goes from ${fixed(first.varRaw, 2)} to ${fixed(last.varRaw, 2)}` +
    (grows
      ? ` (${fixed(last.varRaw / first.varRaw, 0)} times larger, while d_k grew ${last.dk / first.dk} times)`
      : '') +
    `; scaled, it stays between ${fixed(lo, 3)} and ${fixed(hi, 3)}` +
    (lo > 0.5 && hi < 2 ? ', near 1.' : '.');
  const largest =
    ` The largest of 8 unscaled weights goes from ${fixed(first.maxRaw, 4)} to ${fixed(last.maxRaw, 4)}` +
    (last.maxRaw > 0.9 ? ', heading for 1 (one-hot)' : '') +
    `; scaled, it ranges from ${fixed(wLo, 4)} (d_k = ${dkOf(wLo)}) to ${fixed(wHi, 4)} (d_k = ${dkOf(wHi)})` +
    (wHi - wLo > 0.05
      ? ': it does not stay put, because each d_k draws new vectors and 8 random scores of variance 1 can still favour one key.'
      : '.');
  const current = rows.find((r) => r.dk === dk);
  const here =
    current.dk === 1
      ? ' At d_k = 1, √d_k = 1: scaling changes nothing, and both rows of the figure are the same.'
      : ` At d_k = ${current.dk}, dividing by √d_k = ${fixed(Math.sqrt(current.dk), 3)} takes the largest weight from ${fixed(current.maxRaw, 4)} to ${fixed(current.maxScaled, 4)}: the weights get ${current.maxScaled < current.maxRaw ? 'flatter' : current.maxScaled > current.maxRaw ? 'sharper' : 'no flatter'}.`;
  return variance + largest + here;
}
