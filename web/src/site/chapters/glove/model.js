// The pure parts of the "Attention between two sentences" chapter (no DOM):
// its permalink schema, Python-style printing of tokens, the embedding
// summary, and the attention of two tokenised sentences through the API.
// Tested in tests/js/site-glove-model.test.mjs. Given a trace, the attentions
// compute through it (../explain/traced-api.js) under the figures' names.
import { tracedApi } from '../../explain/traced-api.js';

export const PROJECTION_SIZES = [8, 16, 32, 64, 128, 256];
export const MAX_SENTENCE = 500; // characters, like the sentence inputs

export const DEFAULTS = {
  query: 'The teacher praised a student because she improved',
  key: 'A student asked the teacher to help her improving',
  dim: 64,
  trainableSeed: 0,
  additiveSeed: 0,
  cosine: false,
};

/** The permalink state of the chapter (url-state.js). */
export const SCHEMA = [
  { key: 'q', name: 'query', type: 'string', maxLength: MAX_SENTENCE, default: DEFAULTS.query },
  { key: 'k', name: 'key', type: 'string', maxLength: MAX_SENTENCE, default: DEFAULTS.key },
  { key: 'd', name: 'dim', type: 'enum', values: PROJECTION_SIZES, default: DEFAULTS.dim },
  { key: 'ts', name: 'trainableSeed', type: 'int', min: 0, max: 4294967295, default: 0 },
  { key: 'as', name: 'additiveSeed', type: 'int', min: 0, max: 4294967295, default: 0 },
  { key: 'cos', name: 'cosine', type: 'bool', default: false },
];

/** Python's repr() of a str, enough for tokens: quotes and backslashes escaped. */
export function pyRepr(s) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s
    .replace(/\\/g, '\\\\')
    .replace(quote === "'" ? /'/g : /"/g, `\\${quote}`)
    // eslint-disable-next-line no-control-regex -- matching control characters is the point: repr() escapes them as \xNN
    .replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return `${quote}${body}${quote}`;
}

export const pyList = (tokens) => `[${tokens.map(pyRepr).join(', ')}]`;

/** rows (n × d) → (d × n): one column per token, for the tall embedding heatmaps. */
export function columnsOf(m) {
  const out = new Float64Array(m.rows * m.cols);
  for (let r = 0; r < m.rows; r++) for (let c = 0; c < m.cols; c++) out[c * m.rows + r] = m.data[r * m.cols + c];
  return { rows: m.cols, cols: m.rows, data: out };
}

/** A few numbers of each row, like a summarised print, with missing rows named. */
export function embeddingSummary(name, tokens, matrix, missingRows) {
  const width = Math.max(...tokens.map((t) => t.length), 4);
  const head = `${name}: ${matrix.rows} × ${matrix.cols} (float32 values)`;
  const lines = tokens.map((t, r) => {
    if (missingRows[r]) return `${t.padEnd(width)}  missing: zero row`;
    const row = matrix.row(r);
    const shown = [...row.slice(0, 3), ...row.slice(-3)].map((x) => (x < 0 ? '' : ' ') + x.toFixed(4));
    return `${t.padEnd(width)}  [${shown.slice(0, 3).join(', ')}, ..., ${shown.slice(3).join(', ')}]`;
  });
  return [head, ...lines].join('\n');
}

/**
 * Which query–key pairs take part: 1 where both tokens have a vector, 0 where
 * either is missing (no vector, no meaning: a missing query gets no weights,
 * a missing key gets no weight). (n_q × n_k), for the API's `mask` option.
 */
export function presentMask(qMissing, kMissing) {
  const n = qMissing.length;
  const m = kMissing.length;
  const data = new Float64Array(n * m);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) data[i * m + j] = qMissing[i] || kMissing[j] ? 0 : 1;
  return { rows: n, cols: m, data };
}

/**
 * Every row divided by its length (‖row‖ = √(row·row), through the API's dot);
 * zero rows (missing words) stay zero. Returns the unit rows and the lengths.
 * @param {import('attention-lab').Attention} api
 */
export function unitRows(api, m) {
  const data = new Float64Array(m.rows * m.cols);
  const norms = new Float64Array(m.rows);
  for (let r = 0; r < m.rows; r++) {
    const row = m.row(r);
    norms[r] = Math.sqrt(api.dot(row, row));
    if (norms[r] > 0) for (let c = 0; c < m.cols; c++) data[r * m.cols + c] = row[c] / norms[r];
  }
  return { matrix: new api.Matrix(m.rows, m.cols, data), norms };
}

/**
 * Row softmax of `scores` with the masked entries left out (−∞ through the
 * API's softmax: weight exactly 0; a row with nothing left is all zeros).
 * @param {import('attention-lab').Attention} api
 */
export function maskedSoftmaxRows(api, scores, mask) {
  const out = new Float64Array(scores.rows * scores.cols);
  for (let i = 0; i < scores.rows; i++) {
    const row = Float64Array.from(scores.row(i), (x, j) => (mask.data[i * scores.cols + j] ? x : -Infinity));
    out.set(api.softmax(row), i * scores.cols);
  }
  return new api.Matrix(scores.rows, scores.cols, out);
}

/**
 * Tokens, embeddings and attention of two sentences with table E. Words with
 * no vector are masked. `cosine`: the vectors are scaled to length 1 first and
 * the scores are their cosines, not divided by √d (a dot product of unit vectors
 * stays within ±1 whatever d is, which is what the √d was there to ensure).
 * @param {import('attention-lab').Attention} api
 * @param {{cosine?: boolean}} [options]
 */
export function sentencesAttention(api, E, query, key, { cosine = false, trace } = {}) {
  const t = tracedApi(api, trace);
  const qTokens = api.tokenize(query);
  const kTokens = api.tokenize(key);
  const q = E.lookup(qTokens);
  const k = E.lookup(kTokens);
  const qMissing = qTokens.map((t) => !E.has(t));
  const kMissing = kTokens.map((t) => !E.has(t));
  const mask = presentMask(qMissing, kMissing);
  const common = {
    qTokens,
    kTokens,
    q,
    k,
    mask,
    cosine,
    qMissing,
    kMissing,
    missing: [...new Set([...q.missing, ...k.missing])],
  };
  // The figures draw the embeddings one column per token (E_q, E_k); q and k are their rows.
  t.input('queryEmbed', q.matrix, { symbol: 'E_q', value: () => transposed(q.matrix) });
  t.input('keyEmbed', k.matrix, { symbol: 'E_k', value: () => transposed(k.matrix) });
  t.name('q', { symbol: 'q', row: 'q', rowLabels: qTokens }).record('transpose', [q.matrix], q.matrix);
  t.name('k', { symbol: 'k', row: 'k', rowLabels: kTokens }).record('transpose', [k.matrix], k.matrix);
  const note = (i, j) =>
    `${pyRepr(qMissing[i] ? qTokens[i] : kTokens[j])} has no vector in these embeddings, so it is masked (no row or column weight).`;
  t.input('mask', mask, { symbol: 'M', note });
  const pairs = { rowLabels: qTokens, colLabels: kTokens };
  const names = (symbol) => ({
    out: { name: 'dot.scaled', symbol, ...pairs },
    scores: { name: 'dot.raw', symbol: 'q·k', ...pairs },
  });
  const weights = { name: 'dot.weights', symbol: 'weight', ...pairs };
  if (!cosine) {
    // q·k / √d, for the readouts (the weights are its row softmax).
    const scaled = t.name(names('scaled')).attentionScores(q.matrix, k.matrix, { scaled: true });
    const dot = t.name({ weights }).scaledDotProductAttention(q.matrix, k.matrix, k.matrix, { mask });
    return { ...common, scaled, dot };
  }
  const qUnit = unitRows(api, q.matrix);
  const kUnit = unitRows(api, k.matrix);
  const cosines = api.attentionScores(qUnit.matrix, kUnit.matrix);
  const scaled = t.name(names('cos')).record('cosine', [q.matrix, k.matrix, qUnit.norms, kUnit.norms], cosines);
  const masked = maskedSoftmaxRows(api, scaled, mask);
  const dotWeights = t.name(weights).record('maskedSoftmax', [scaled, mask], masked);
  const dot = { weights: dotWeights, output: api.matmul(dotWeights, k.matrix) };
  return { ...common, scaled, dot, qNorms: qUnit.norms, kNorms: kUnit.norms };
}

export function strongest(weights, qTokens, kTokens, qMissing) {
  return qTokens.map((t, i) => {
    const row = weights.row(i);
    const j = row.indexOf(Math.max(...row));
    return { t, to: kTokens[j], w: row[j], flat: qMissing[i] };
  });
}

/**
 * Trainable attention of the sentences `r` (sentencesAttention) through the
 * layer's projections, with the missing words masked like the dot product's.
 * @param {import('attention-lab').Attention} api
 * @param {import('attention-lab').TrainableAttention} layer
 */
export function trainableAttention(api, layer, r, trace) {
  const t = tracedApi(api, trace);
  const { queries, keys, values } = layer.forward(r.q.matrix, r.k.matrix, r.k.matrix);
  projected(t, 'train', r, layer.params, queries, keys);
  const pairs = { rowLabels: r.qTokens, colLabels: r.kTokens };
  const names = { out: { name: 'train.scaled', symbol: 'scaled', ...pairs } };
  names.scores = { name: 'train.raw', symbol: 'q′·k′', ...pairs };
  const scaled = t.name(names).attentionScores(queries, keys, { scaled: true });
  const attention = t.name({ weights: { name: 'train.weights', symbol: 'weight', ...pairs } });
  const { weights, output } = attention.scaledDotProductAttention(queries, keys, values, { mask: r.mask });
  return { queries, keys, values, scaled, weights, output };
}

/**
 * Additive attention of the sentences `r` over every pair, with the missing
 * words masked (their scores left out of each row's softmax).
 * @param {import('attention-lab').Attention} api
 * @param {import('attention-lab').AdditiveAttention} layer
 */
export function additiveAttention(api, layer, r, trace) {
  const t = tracedApi(api, trace);
  const { queries, keys, scores } = layer.forward(r.q.matrix, r.k.matrix, r.k.matrix);
  const { params } = layer;
  projected(t, 'add', r, params, queries, keys);
  const ws = t.input('add.ws', params.Ws.weight, { symbol: 'w_s', value: row(params.Ws.weight.data) });
  const bs = t.input('add.bs', params.Ws.bias, { symbol: 'b_s', value: row(params.Ws.bias) });
  const pairs = { rowLabels: r.qTokens, colLabels: r.kTokens };
  t.name('add.scores', { symbol: 'score', ...pairs }).record('additiveScore', [queries, keys, ws, bs], scores);
  const masked = maskedSoftmaxRows(api, scores, r.mask);
  const weights = t
    .name('add.weights', { symbol: 'weight', ...pairs })
    .record('maskedSoftmax', [scores, r.mask], masked);
  return { queries, keys, scores, weights, output: api.matmul(weights, r.k.matrix), params };
}

// ---- how the trace holds the figures' tensors (../explain/traced-api.js)

const transposed = (m) => {
  const data = new Float64Array(m.rows * m.cols);
  for (let r = 0; r < m.rows; r++) for (let c = 0; c < m.cols; c++) data[c * m.rows + r] = m.data[r * m.cols + c];
  return { rows: m.cols, cols: m.rows, data };
};
const row = (v) => ({ rows: 1, cols: v.length, data: v });

/**
 * A layer's projected queries and keys (params Wq, Wk in PyTorch layout,
 * out × in), recorded as `${prefix}.q` = q·W_qᵀ + b_q and `${prefix}.k`, with their weights.
 */
function projected(t, prefix, r, params, queries, keys) {
  for (const [x, W, value, rowLabels] of [
    ['q', 'Wq', queries, r.qTokens],
    ['k', 'Wk', keys, r.kTokens],
  ]) {
    const { weight, bias } = params[W];
    t.input(`${prefix}.${W}.W`, weight, { symbol: `W_${x}`, value: () => transposed(weight) });
    t.input(`${prefix}.${W}.b`, bias, { symbol: `b_${x}`, value: row(bias) });
    const names = { symbol: `${x}′`, row: `${x}′`, rowLabels };
    t.name(`${prefix}.${x}`, names).record('linear', [r[x].matrix, weight, bias], value);
  }
}

/**
 * For each query word that also appears among the keys (ignoring case, both
 * with a vector): the key it attends to most, and whether that is the word itself.
 * Unnormalised vectors need not win against themselves: q·k is largest for a
 * long k pointing roughly along q, and only cosines cap a word's score with itself.
 */
export function sameWordMatches(r) {
  const out = [];
  r.qTokens.forEach((t, i) => {
    if (r.qMissing[i]) return;
    const j = r.kTokens.findIndex((k, c) => !r.kMissing[c] && k.toLowerCase() === t.toLowerCase());
    if (j < 0) return;
    const row = r.dot.weights.row(i);
    const best = row.indexOf(Math.max(...row));
    out.push({
      word: t,
      winner: r.kTokens[best],
      self: best === j || r.kTokens[best].toLowerCase() === t.toLowerCase(),
    });
  });
  return out;
}

/** For each query token with a vector, the key it attends to most (the row's largest weight). */
export function strongestPairs(weights, r) {
  const pairs = [];
  r.qTokens.forEach((t, i) => {
    if (r.qMissing[i]) return;
    const row = weights.row(i);
    const j = row.indexOf(Math.max(...row));
    pairs.push({ t, to: r.kTokens[j], w: row[j] });
  });
  return pairs;
}
