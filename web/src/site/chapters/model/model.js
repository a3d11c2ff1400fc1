// The pure parts of the chapter "Open a real model" (no DOM): its permalink
// schema, which files of a picked or dropped folder make a model, where a
// course site's model-src folder lives, the demo model's files, running a
// sentence, and the measures behind the chapter's sentences about heads
// (each stated with its baseline, and shown only when it holds).
import { tracedApi } from '../../explain/traced-api.js';

export const DEMO_SENTENCE = 'a small dog saw the red bird in the tree.';
export const MAX_SENTENCE = 2000; // characters in the permalink; the model's n_positions bounds the tokens
export const MAX_LAYERS = 96; // permalink bounds (clamped to the open model's size)
export const MAX_HEADS = 128;
export const TOP_K = 8;

/** The permalink state (url-state.js): the sentence, the chosen head, the demo model or the reader's own. */
export const SCHEMA = [
  { key: 'ms', name: 'sentence', type: 'string', maxLength: MAX_SENTENCE, default: DEMO_SENTENCE },
  { key: 'ml', name: 'layer', type: 'int', min: 0, max: MAX_LAYERS - 1, default: 0 },
  { key: 'mh', name: 'head', type: 'int', min: 0, max: MAX_HEADS - 1, default: 0 },
  { key: 'mm', name: 'source', type: 'enum', values: ['demo', 'own'], default: 'demo' },
];

/** The files openModel reads, by name. */
export const MODEL_FILES = ['config.json', 'model.safetensors', 'tokenizer.json', 'vocab.json', 'merges.txt'];

/**
 * The model's files among `files` (File objects, or anything with a `name`; a folder
 * picker's webkitRelativePath is ignored: the last file of each name wins): an object for
 * openModel, or a TypeError saying which files are missing.
 */
export function modelFiles(files) {
  const found = {};
  for (const file of files) if (MODEL_FILES.includes(file.name)) found[file.name] = file;
  const tokenizer = found['tokenizer.json'] || (found['vocab.json'] && found['merges.txt']);
  const missing = ['config.json', 'model.safetensors'].filter((name) => !found[name]);
  if (!tokenizer) missing.push('tokenizer.json (or vocab.json and merges.txt)');
  if (missing.length > 0) {
    const names = Array.from(files, (f) => f.name);
    throw new TypeError(
      `the model folder needs ${missing.join(', ')}; got ${names.length ? names.slice(0, 8).join(', ') : 'no files'}${names.length > 8 ? ', …' : ''}`,
    );
  }
  if (found['tokenizer.json']) {
    delete found['vocab.json'];
    delete found['merges.txt'];
  }
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

/** A token as a label: spaces and newlines made visible (GPT-2 tokens often start with a space). */
export const tokenLabel = (t) => t.replace(/ /g, '·').replace(/\n/g, '↵').replace(/\t/g, '→') || '∅';

/** "1.5 MiB" */
export const sizeText = (bytes) =>
  bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${Math.max(1, Math.round(bytes / 1024))} KiB`;

/**
 * Runs `text` through `model`: { tokens, ids, attentions, next } or, for text the model
 * cannot take (empty, more tokens than n_positions), { message }.
 */
export function runSentence(model, text) {
  const { ids } = model.tokenizer.encode(text);
  const { n_positions } = model.config;
  if (ids.length === 0) return { message: 'Type a sentence: the model needs at least one token.' };
  if (ids.length > n_positions)
    return {
      message: `This text is ${ids.length} tokens; the model reads at most n_positions = ${n_positions}. Shorten it to see its attention.`,
    };
  return model.run(text, { k: Math.min(TOP_K, model.config.vocab_size) });
}

/** The chosen head within the model's size. */
export const clampHead = ({ layer, head }, config) => ({
  layer: Math.min(Math.max(0, layer), config.n_layer - 1),
  head: Math.min(Math.max(0, head), config.n_head - 1),
});

/**
 * How much of each query's weight one head puts on a key chosen per query
 * (`target(i)`: a column, or -1 to skip the query), averaged over queries, and the
 * same average for a head that spreads its weight evenly over the keys it may
 * read (1 / (i + 1) for query i: the causal baseline).
 */
export function meanWeightOn(weights, target) {
  let sum = 0;
  let base = 0;
  let n = 0;
  for (let i = 0; i < weights.rows; i++) {
    const j = target(i);
    if (j < 0) continue;
    sum += weights.get(i, j);
    base += 1 / (i + 1);
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
 * [{ pattern, layer, head, value, baseline, queries }], strongest first.
 */
export function findings(attentions) {
  const out = [];
  for (const pattern of PATTERNS) {
    let best = null;
    attentions.forEach((heads, layer) =>
      heads.forEach((weights, head) => {
        const m = meanWeightOn(weights, pattern.target);
        if (m && (!best || m.value > best.value)) best = { pattern, layer, head, ...m };
      }),
    );
    if (best && best.queries >= 2 && best.value >= HOLDS_AT && best.value >= FACTOR * best.baseline) out.push(best);
  }
  return out.sort((a, b) => b.value - a.value);
}

/** Tensor names of the chosen head (the figures map them to the heatmaps that draw them). */
export const TENSORS = { q: 'head.q', k: 'head.k', v: 'head.v', weights: 'head.weights', mix: 'head.mix' };

/**
 * The chosen head's value mix weights · v (T x d_k, float64), recorded in
 * `trace` with the head's queries, keys and values ({ q, k, v } of
 * explainHead) and its weights (T x T, the model's own map from run()), as
 * scaledDotProductAttention records them: the scores q·k and the causal mask
 * computed only when a reader hovers a cell.
 */
export function headMix(api, trace, { q, k, v }, weights, tokens) {
  const t = tracedApi(api, trace);
  const rows = { rowLabels: tokens };
  const pairs = { rowLabels: tokens, colLabels: tokens };
  t.input(TENSORS.q, q, { symbol: 'Q', row: 'q', ...rows });
  t.input(TENSORS.k, k, { symbol: 'K', row: 'k', ...rows });
  t.input(TENSORS.v, v, { symbol: 'V', row: 'v', ...rows });
  const mix = api.matmul(weights, v, { precision: 'float64' });
  const names = { prefix: 'head.', scores: { symbol: 'score', ...pairs } };
  names.weights = { name: TENSORS.weights, symbol: 'weight', ...pairs };
  names.output = { name: TENSORS.mix, symbol: 'mix', ...rows };
  // The model computed the weights in wasm: recorded as the API's attention records its own.
  const attention = [q, k, v, { causal: true, precision: 'float64' }];
  t.name(names).record('scaledDotProductAttention', attention, { weights, output: mix });
  return mix;
}
