// The pure parts of the chapter "Open a real model" (no DOM): its permalink
// schema, which files of a picked or dropped folder make a model, where a
// course site's model-src folder lives, the demo model's files, running a
// sentence, and the measures behind the chapter's sentences about heads
// (each stated with its baseline, and shown only when it holds).
import { rotationOfConfig } from '../../explain/rotary.js';
import { tracedApi } from '../../explain/traced-api.js';
import { keysOpen, maySee, shapeOf } from './family.js';

export { keysOpen, maySee, shapeOf };

export const DEMO_SENTENCE = 'a small dog saw the red bird in the tree.';
export const MAX_SENTENCE = 2000; // characters in the permalink; the model's n_positions bounds the tokens
export const MAX_LAYERS = 96; // permalink bounds (clamped to the open model's size)
export const MAX_HEADS = 128;
export const TOP_K = 8;
export const MAX_TEMPERATURE = 2;
export const MAX_TOP_K = 1000;
export const MIN_TOP_P = 0.01;
export const MAX_NEW_TOKENS = 64; // per Generate: the page shows each token and its rows
export const MAX_SEED = 2 ** 31 - 1;

/** The permalink state (url-state.js): the sentence (and BERT's pair), the chosen head, which demo model or the reader's own. */
export const SCHEMA = [
  { key: 'ms', name: 'sentence', type: 'string', maxLength: MAX_SENTENCE, default: DEMO_SENTENCE },
  { key: 'mp', name: 'pair', type: 'string', maxLength: MAX_SENTENCE, default: '' },
  { key: 'ml', name: 'layer', type: 'int', min: 0, max: MAX_LAYERS - 1, default: 0 },
  { key: 'mh', name: 'head', type: 'int', min: 0, max: MAX_HEADS - 1, default: 0 },
  { key: 'mm', name: 'source', type: 'enum', values: ['demo', 'llama', 'own'], default: 'demo' },
  // Generation (step 8): temperature 0 is greedy; top-k 0 and top-p 1 leave the distribution whole.
  { key: 'gt', name: 'temperature', type: 'number', min: 0, max: MAX_TEMPERATURE, default: 0.8 },
  { key: 'gk', name: 'topK', type: 'int', min: 0, max: MAX_TOP_K, default: 40 },
  { key: 'gp', name: 'topP', type: 'number', min: MIN_TOP_P, max: 1, default: 0.95 },
  { key: 'gn', name: 'maxTokens', type: 'int', min: 1, max: MAX_NEW_TOKENS, default: 16 },
  { key: 'gs', name: 'seed', type: 'int', min: 0, max: MAX_SEED, default: 1 },
];

/** The generation options the permalink holds, as the state names them. */
export const GENERATION_KEYS = ['temperature', 'topK', 'topP', 'maxTokens', 'seed'];

/**
 * generate()'s options from the chapter's state: top-k 0 and top-p 1 are left out (no cut),
 * top-k past the vocabulary is all of it, the stop ids are the `eos` ids inside the vocabulary,
 * and the new tokens are cut to the positions left after the prompt's `promptLength`.
 * { options } or { message } when the prompt leaves no room.
 */
export function generationOptions(state, promptLength, positions, vocab, eos = []) {
  const room = positions - promptLength;
  if (room < 1)
    return {
      message: `The sentence already takes all ${positions} positions the model reads: shorten it to leave room for new tokens.`,
    };
  const options = {
    maxTokens: Math.min(state.maxTokens, room),
    temperature: state.temperature,
    seed: state.seed,
    stop: eos.filter((id) => id < vocab),
  };
  if (state.topK > 0) options.topK = Math.min(state.topK, vocab);
  if (state.topP < 1) options.topP = state.topP;
  return { options, cut: state.maxTokens > room ? room : null };
}

/**
 * The end-of-text ids generation stops at: generation_config.json's, else config.json's
 * (GPT-2's default 50256 included). generationOptions keeps those inside the vocabulary:
 * the demo's 320 tokens have no 50256, and generate refuses a stop id past the vocabulary.
 */
export function eosIdsOf(model) {
  const eos = model.generationConfig?.eos_token_id ?? model.config.eos_token_id ?? null;
  return (Array.isArray(eos) ? eos : eos === null ? [] : [eos]).filter(Number.isInteger);
}

/**
 * Generates from `prompt` with `model.generate` (awaited: the model may live elsewhere),
 * calling `onToken(step)` as each new token arrives; `signal` stops it.
 */
export function generateText(model, prompt, options, { signal, onToken }) {
  return model.generate(prompt, { ...options, signal, onToken });
}

/** The files openModel reads, by name (vocab.txt: a BERT's WordPiece vocabulary). */
export const MODEL_FILES = [
  'config.json',
  'model.safetensors',
  'tokenizer.json',
  'vocab.json',
  'merges.txt',
  'vocab.txt',
];
const TOKENIZER_FILES = 'tokenizer.json (or vocab.json and merges.txt, or a BERT’s vocab.txt)';

/**
 * The model's files among `files` (File objects, or anything with a `name`; a folder
 * picker's webkitRelativePath is ignored: the last file of each name wins): an object for
 * openModel, or a TypeError saying which files are missing.
 */
export function modelFiles(files) {
  const found = {};
  for (const file of files) if (MODEL_FILES.includes(file.name)) found[file.name] = file;
  const tokenizer = found['tokenizer.json'] || (found['vocab.json'] && found['merges.txt']) || found['vocab.txt'];
  const missing = ['config.json', 'model.safetensors'].filter((name) => !found[name]);
  if (!tokenizer) missing.push(TOKENIZER_FILES);
  if (missing.length > 0) {
    const names = Array.from(files, (f) => f.name);
    throw new TypeError(
      `the model folder needs ${missing.join(', ')}; got ${names.length ? names.slice(0, 8).join(', ') : 'no files'}${names.length > 8 ? ', …' : ''}`,
    );
  }
  // One tokenizer: tokenizer.json first, then vocab.json and merges.txt, then vocab.txt.
  const pair = found['vocab.json'] && found['merges.txt'];
  const drop = found['tokenizer.json']
    ? ['vocab.json', 'merges.txt', 'vocab.txt']
    : pair
      ? ['vocab.txt']
      : ['vocab.json', 'merges.txt'];
  for (const name of drop) delete found[name];
  return found;
}

/**
 * A course site's model folder (the lesson's model-src attribute), resolved against the
 * page: URLs of its three files. Another origin is refused (a page may only open
 * its own files; a cross-origin model would also need CORS), and so is a URL that is
 * no http(s) folder (blob:, data:: one file at most). This checks the string; the
 * loader has openModel check each response's origin too (a folder may redirect).
 * @param {string} origin the page's own origin (default: the base's)
 */
export function folderUrls(src, base, origin = new URL(base).origin) {
  let folder;
  try {
    folder = new URL(src.endsWith('/') ? src : `${src}/`, base);
  } catch {
    throw new TypeError(`model-src "${src}" is not a URL`);
  }
  if (folder.protocol !== 'http:' && folder.protocol !== 'https:')
    throw new TypeError(
      `model-src "${src}" is a ${folder.protocol} URL; model-src must be an http(s) folder on this page's own origin (a file of your own opens with the file picker)`,
    );
  if (folder.origin !== origin)
    throw new TypeError(
      `model-src must be a folder on this page's own origin (${origin}); "${src}" is on ${folder.origin}`,
    );
  return Object.fromEntries(
    ['config.json', 'model.safetensors', 'tokenizer.json'].map((name) => [name, new URL(name, folder).href]),
  );
}

/** The demo's data script value ({ config.json, tokenizer.json: text, model.safetensors: base64 }) as openModel files. */
export function demoFiles(value) {
  const binary = atob(value['model.safetensors']);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const text = (name) => new TextEncoder().encode(value[name]); // a string would be a URL to openModel
  return { 'config.json': text('config.json'), 'tokenizer.json': text('tokenizer.json'), 'model.safetensors': bytes };
}

/** Bytes as ⟨F0⟩⟨9F⟩: what a token is when its bytes are no whole UTF-8 character. */
export const byteText = (bytes) =>
  Array.from(bytes, (b) => `⟨${b.toString(16).toUpperCase().padStart(2, '0')}⟩`).join('');

/**
 * A token as a label: spaces and newlines made visible (GPT-2 tokens often start with a
 * space); a token whose bytes are no whole character (its text has U+FFFD) shows its
 * bytes, ⟨F0⟩, when `bytes` are known (pieceBytes), else ⟨?⟩ in place of each U+FFFD.
 */
export function tokenLabel(t, bytes) {
  if (t.includes('\uFFFD')) return bytes ? byteText(bytes) : t.replace(/\uFFFD/g, '⟨?⟩');
  return t.replace(/ /g, '·').replace(/\n/g, '↵').replace(/\t/g, '→') || '∅';
}

// GPT-2's byte-level alphabet (Radford et al.'s bytes_to_unicode): printable bytes stand
// for themselves, the others for 256 + their rank; a vocabulary piece is a string of these.
const PRINTABLE = (b) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
const BYTE_OF = new Map();
for (let b = 0, n = 0; b < 256; b++) BYTE_OF.set(String.fromCodePoint(PRINTABLE(b) ? b : 256 + n++), b);

/** The bytes of a byte-level BPE piece ('Ġ' is the byte 0x20), or null for a piece of another alphabet. */
export function pieceBytes(piece) {
  const out = [];
  for (const ch of piece) {
    const b = BYTE_OF.get(ch);
    if (b === undefined) return null;
    out.push(b);
  }
  return out;
}

/** The sentence's tokens as labels, bytes shown where a token is no whole character (the model's calls are awaited). */
export async function tokenLabels(model, text, tokens) {
  const pieces = model.family === 'bert' ? null : (await model.tokenizer.encode(text)).pieces;
  return tokens.map((t, i) => tokenLabel(t, pieces?.[i] === undefined ? null : pieceBytes(pieces[i])));
}

/** "1.5 MiB" */
export const sizeText = (bytes) =>
  bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${Math.max(1, Math.round(bytes / 1024))} KiB`;

/**
 * Runs `text` (with BERT, `pair` as the second sentence when not empty) through `model`
 * (the chapter's proxy: every call is awaited): { tokens, ids, attentions, next } (BERT:
 * masked in place of next) or, for text the model cannot take (empty, more tokens than its
 * positions), { message }.
 */
export async function runSentence(model, text, pair = '') {
  const shape = shapeOf(model);
  const bert = model.family === 'bert';
  const k = Math.min(TOP_K, shape.vocab);
  const { ids } = bert ? await model.tokenizer.encode(text, pair || undefined) : await model.tokenizer.encode(text);
  if (!bert && ids.length === 0) return { message: 'Type a sentence: the model needs at least one token.' };
  if (ids.length > shape.positions)
    return {
      message: `This text is ${ids.length} tokens; the model reads at most ${shape.positionsName} = ${shape.positions}. Shorten it to see its attention.`,
    };
  if (bert) return model.run(text, pair ? { pair, k, logits: true } : { k, logits: true });
  return model.run(text, { k, logits: true });
}

/** The chosen head within the model's size. */
export const clampHead = ({ layer, head }, shape) => ({
  layer: Math.min(Math.max(0, layer), shape.layers - 1),
  head: Math.min(Math.max(0, head), shape.heads - 1),
});

/**
 * How much of each query's weight one head puts on a key chosen per query
 * (`target(i)`: a column, or -1 to skip the query), averaged over queries, and the
 * same average for a head that spreads its weight evenly over the keys it may
 * read (1 / open(i) for query i; the causal baseline 1 / (i + 1) by default).
 */
export function meanWeightOn(weights, target, open = (i) => i + 1) {
  let sum = 0;
  let base = 0;
  let n = 0;
  for (let i = 0; i < weights.rows; i++) {
    const j = target(i);
    if (j < 0) continue;
    sum += weights.get(i, j);
    base += 1 / open(i);
    n++;
  }
  return n === 0 ? null : { value: sum / n, baseline: base / n, queries: n };
}

/** The patterns the chapter looks for, each with the key it measures per query (queries 2.. only: query 1 has one key). */
export const PATTERNS = [
  { id: 'previous', text: 'the previous token', target: (i) => (i >= 1 ? i - 1 : -1) },
  { id: 'first', text: 'the first token', target: (i) => (i >= 1 ? 0 : -1) },
  { id: 'self', text: 'its own token', target: (i) => (i >= 1 ? i : -1) },
];

/** A pattern holds when its mean weight is at least HOLDS_AT and at least FACTOR × the baseline. */
export const HOLDS_AT = 0.2;
export const FACTOR = 2;

/**
 * For each pattern, the head that shows it most on this sentence, if one holds:
 * [{ pattern, layer, head, value, baseline, queries }], strongest first. `open(layer)(i)`:
 * how many keys query i may read there (default causal).
 */
export function findings(attentions, open = () => (i) => i + 1) {
  const out = [];
  for (const pattern of PATTERNS) {
    let best = null;
    attentions.forEach((heads, layer) =>
      heads.forEach((weights, head) => {
        const m = meanWeightOn(weights, pattern.target, open(layer));
        if (m && (!best || m.value > best.value)) best = { pattern, layer, head, ...m };
      }),
    );
    if (best && best.queries >= 2 && best.value >= HOLDS_AT && best.value >= FACTOR * best.baseline) out.push(best);
  }
  return out.sort((a, b) => b.value - a.value);
}

/** Tensor names of the chosen head (the figures map them to the heatmaps that draw them). */
export const TENSORS = {
  x: 'head.x',
  W: 'head.W',
  b: 'head.b',
  qPre: 'head.qPre',
  kPre: 'head.kPre',
  qNorm: 'head.qNorm',
  kNorm: 'head.kNorm',
  q: 'head.q',
  k: 'head.k',
  v: 'head.v',
  qRotated: 'head.qRotated',
  kRotated: 'head.kRotated',
  scores: 'head.scores',
  mask: 'head.mask',
  weights: 'head.weights',
  mix: 'head.mix',
};

const PARTS = ['q', 'k', 'v'];

/** Matrices side by side (same rows), as a plain row-major float64 one. */
function sideBySide(parts) {
  const rows = parts[0].rows;
  const cols = parts.reduce((n, m) => n + m.cols, 0);
  const data = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    let c0 = 0;
    for (const m of parts) {
      for (let c = 0; c < m.cols; c++) data[r * cols + c0 + c] = m.data[r * m.cols + c];
      c0 += m.cols;
    }
  }
  return { rows, cols, data };
}

/** The head's q | k | v weight columns side by side (D x 3 d_k), as drawn and traced. */
export const headColumns = (inputs) => sideBySide(PARTS.map((p) => inputs[`w${p}`]));
/** Their labels: q1 … q_dk, k1 …, v1 … */
export const headColumnLabels = (dk) => PARTS.flatMap((p) => Array.from({ length: dk }, (_, c) => `${p}${c + 1}`));

/** A QK-norm's gain over a head's numbers: the stored weight, or 1 + weight (Gemma's normOffset). */
export const normGain = (weight, offset) => ({
  rows: 1,
  cols: weight.cols,
  data: Float64Array.from(weight.data, (w) => (offset ? 1 + w : w)),
});

/**
 * q, k, v recorded as x·W + b (every family's explainHead gives x, the rows the head
 * projects, and its weight columns wq, wk, wv; b where the family has biases): W and b
 * are the head's q | k | v columns side by side, each part a split of them, so a cell of
 * q outlines x's row and W's column. With QK-norm (qPre, kPre given) x·W + b is qPre, and
 * q is its RMS norm times the gain (q_norm), k likewise.
 */
function recordProjections(t, trace, inputs, tokens) {
  const dk = inputs.q.cols;
  const labels = headColumnLabels(dk);
  const biased = Boolean(inputs.bq);
  t.input(TENSORS.x, inputs.x, { symbol: 'x', row: 'x', rowLabels: tokens });
  t.input(TENSORS.W, headColumns(inputs), { symbol: 'W', colLabels: labels });
  if (biased) t.input(TENSORS.b, sideBySide(PARTS.map((p) => inputs[`b${p}`])), { symbol: 'b', colLabels: labels });
  PARTS.forEach((p, i) => {
    const params = { c0: i * dk, width: dk };
    const [W, b] = [`${TENSORS.W}${p}`, `${TENSORS.b}${p}`];
    trace.add({ name: W, op: 'split', inputs: [TENSORS.W], value: inputs[`w${p}`], params, symbol: `W_${p}` });
    if (biased)
      trace.add({ name: b, op: 'split', inputs: [TENSORS.b], value: inputs[`b${p}`], params, symbol: `b_${p}` });
    const pre = inputs[`${p}Pre`];
    trace.add({
      name: pre ? TENSORS[`${p}Pre`] : TENSORS[p],
      op: 'linear',
      inputs: biased ? [TENSORS.x, W, b] : [TENSORS.x, W],
      value: pre ?? inputs[p],
      symbol: pre ? `${p.toUpperCase()}_pre` : p.toUpperCase(),
      ...(pre ? {} : { row: p }),
      rowLabels: tokens,
    });
    if (!pre) return;
    const gain = TENSORS[`${p}Norm`];
    t.input(gain, normGain(inputs[`${p}NormWeight`], inputs.normOffset), { symbol: `g_${p}`, vector: true });
    trace.add({
      name: TENSORS[p],
      op: 'rmsNorm',
      inputs: [TENSORS[`${p}Pre`], gain],
      value: inputs[p],
      params: { epsilon: inputs.epsilon },
      symbol: p.toUpperCase(),
      row: p,
      rowLabels: tokens,
    });
  });
}

/**
 * The chosen head's value mix weights · v (T x d_k, float64), recorded in
 * `trace` with the head's queries, keys and values (explainHead's { q, k, v }, and
 * with its x and weights each as x·W + b (then the QK-norm where given), and
 * for a rotary family qRotated, kRotated: the rotation recorded from q, k), and its
 * weights (T x T, the model's own map from run()): the scores q·k (of the rotated
 * vectors when there are), the mask (causal, the layer's window) and the softmax of
 * the scores over √d_k (Gemma: √query_pre_attn_scalar), each computed only when a
 * reader hovers a cell. `context`: { shape, layer, config } (default: a causal GPT-2 head).
 */
export function headMix(api, trace, inputs, weights, tokens, context = {}) {
  const { q, k, v } = inputs;
  const { shape, layer = 0, config = {} } = context;
  const t = tracedApi(api, trace);
  const rows = { rowLabels: tokens };
  const pairs = { rowLabels: tokens, colLabels: tokens };
  if (inputs.x && inputs.wq) recordProjections(t, trace, inputs, tokens);
  else {
    t.input(TENSORS.q, q, { symbol: 'Q', row: 'q', ...rows });
    t.input(TENSORS.k, k, { symbol: 'K', row: 'k', ...rows });
    t.input(TENSORS.v, v, { symbol: 'V', row: 'v', ...rows });
  }
  let [queries, keys] = [TENSORS.q, TENSORS.k];
  let [Q, K] = [q, k];
  if (inputs.qRotated && inputs.kRotated && shape) {
    // Hugging Face's Llama-like layout: coordinate m turns with m + d/2, row r at position r.
    const rotation = rotationOfConfig(config, shape.window(layer) !== null);
    const positions = Array.from({ length: q.rows }, (_, r) => r);
    const turn = (name, from, value, symbol, row) =>
      trace.add({
        name,
        op: 'rotary',
        inputs: [from],
        value,
        params: { ...rotation, positions, pairing: 'half' },
        symbol,
        row,
        ...rows,
      });
    turn(TENSORS.qRotated, TENSORS.q, inputs.qRotated, 'Q̃', 'q̃');
    turn(TENSORS.kRotated, TENSORS.k, inputs.kRotated, 'K̃', 'k̃');
    [queries, keys] = [TENSORS.qRotated, TENSORS.kRotated];
    [Q, K] = [inputs.qRotated, inputs.kRotated];
  }
  const scores = () => api.attentionScores(Q, K, { precision: 'float64' });
  trace.add({
    name: TENSORS.scores,
    op: 'matmul',
    inputs: [queries, keys],
    value: scores,
    params: { transposeB: true },
    symbol: 'score',
    ...pairs,
  });
  const T = weights.rows;
  const see = shape ? maySee(shape, layer) : (i, j) => j <= i;
  const w = shape?.window(layer) ?? null;
  const why = (i, j) =>
    j > i
      ? 'key after the query: the future is masked'
      : `key ${i - j + 1} tokens back: outside the layer’s window of ${w}`;
  const mask = {
    rows: T,
    cols: T,
    data: Float64Array.from({ length: T * T }, (_, n) => (see(Math.floor(n / T), n % T) ? 1 : 0)),
  };
  const masked = mask.data.includes(0);
  if (masked) trace.add({ name: TENSORS.mask, value: mask, symbol: 'M', note: (i, j) => why(i, j), ...pairs });
  const dk = shape ? shape.scale.value : k.cols;
  trace.add({
    name: TENSORS.weights,
    op: 'softmax',
    inputs: masked ? [TENSORS.scores, TENSORS.mask] : [TENSORS.scores],
    value: weights,
    params: { dk },
    symbol: 'weight',
    ...pairs,
  });
  const mix = api.matmul(weights, v, { precision: 'float64' });
  trace.add({
    name: TENSORS.mix,
    op: 'weightedSum',
    inputs: [TENSORS.weights, TENSORS.v],
    value: mix,
    symbol: 'mix',
    ...rows,
  });
  return mix;
}

/**
 * In a text that repeats itself (the sentence twice: T tokens, the second half at
 * offset n = floor(T / 2)), for each query i of the second half whose token is the
 * token n places back, the weight on key i − n + 1 (the token that followed the
 * earlier copy: what an induction head reads, Olsson et al. 2022). The head with the
 * largest mean, with the even-spread baseline: { layer, head, value, baseline, queries }
 * or null (no repeat found).
 */
export function repeatReading(result, shape) {
  const T = result.tokens.length;
  const n = Math.floor(T / 2);
  const queries = [];
  for (let i = n + 1; i < T; i++) if (result.ids[i] === result.ids[i - n] && i - n + 1 < i) queries.push(i);
  if (n < 2 || queries.length < Math.max(2, Math.floor(n / 2))) return null;
  let best = null;
  result.attentions.forEach((heads, layer) => {
    const open = keysOpen(shape, layer, T);
    heads.forEach((weights, head) => {
      let sum = 0;
      let base = 0;
      for (const i of queries) {
        sum += weights.get(i, i - n + 1);
        base += 1 / open(i);
      }
      const value = sum / queries.length;
      if (!best || value > best.value)
        best = { layer, head, value, baseline: base / queries.length, queries: queries.length };
    });
  });
  return best;
}
