// The pure parts of the "Attention between two sentences" chapter (no DOM):
// its permalink schema, Python-style printing of tokens, the embedding
// summary, and the attention of two tokenised sentences through the API.
// Tested in tests/js/site-glove-model.test.mjs.

import { columnCells, softmaxText } from '../provenance.js';

export const PROJECTION_SIZES = [8, 16, 32, 64, 128, 256];
export const MAX_SENTENCE = 500; // characters, like the sentence inputs

export const DEFAULTS = {
  query: 'The teacher praised a student because she improved',
  key: 'A student asked the teacher to help her improving',
  dim: 64,
  trainableSeed: 0,
  additiveSeed: 0,
};

/** The permalink state of the chapter (url-state.js). */
export const SCHEMA = [
  { key: 'q', name: 'query', type: 'string', maxLength: MAX_SENTENCE, default: DEFAULTS.query },
  { key: 'k', name: 'key', type: 'string', maxLength: MAX_SENTENCE, default: DEFAULTS.key },
  { key: 'd', name: 'dim', type: 'enum', values: PROJECTION_SIZES, default: DEFAULTS.dim },
  { key: 'ts', name: 'trainableSeed', type: 'int', min: 0, max: 4294967295, default: 0 },
  { key: 'as', name: 'additiveSeed', type: 'int', min: 0, max: 4294967295, default: 0 },
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
 * Tokens, embeddings and dot-product attention of two sentences with table E.
 * @param {import('attention-lab').Attention} api
 */
export function sentencesAttention(api, E, query, key) {
  const qTokens = api.tokenize(query);
  const kTokens = api.tokenize(key);
  const q = E.lookup(qTokens);
  const k = E.lookup(kTokens);
  const dot = api.scaledDotProductAttention(q.matrix, k.matrix, k.matrix);
  // q·k / √d, for the readouts (the weights are its row softmax).
  const scaled = api.attentionScores(q.matrix, k.matrix, { scaled: true });
  return {
    scaled,
    qTokens,
    kTokens,
    q,
    k,
    dot,
    qMissing: qTokens.map((t) => !E.has(t)),
    kMissing: kTokens.map((t) => !E.has(t)),
    missing: [...new Set([...q.missing, ...k.missing])],
  };
}

/** For each query token, the key it attends to most: { t, to, w, flat }. */
export function strongest(weights, qTokens, kTokens, qMissing) {
  return qTokens.map((t, i) => {
    const row = weights.row(i);
    const j = row.indexOf(Math.max(...row));
    return { t, to: kTokens[j], w: row[j], flat: qMissing[i] };
  });
}

/**
 * Provenance of a dot-product attention weight: the softmax of row i of
 * q·k/√d over every key token. Sources are the query token's and the key
 * token's embedding columns (the embedding figures are d x tokens).
 */
export function explainDotWeight(r, i, j) {
  const d = r.q.matrix.cols;
  const who = `weight ${pyRepr(r.qTokens[i])} → ${pyRepr(r.kTokens[j])}`;
  return {
    text: `${softmaxText(who, r.scaled.row(i), r.dot.weights.row(i), j)}, over q·k/√${d} for every key token`,
    sources: { queryEmbed: columnCells(d, i), keyEmbed: columnCells(d, j) },
  };
}
