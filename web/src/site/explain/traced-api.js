// The API seen through a trace (trace.js): each function computes exactly what
// the API computes and records the entries of what it computed, so a chapter's
// trace is its computation, not a second description written beside it.
// RECORDERS below says once, per API function, which entries it produces.
// Tensors are known by value identity: a chapter names each input once
// (t.input) and each output where it calls the API (t.name(…).fn(…)); every
// later call finds its arguments' names from the objects themselves.
import { columnsOf, maskOf as zeroWhere } from './heads.js';
import { matrixOfRows } from './names.js';

/** A vector (typed array or number[]) as the trace holds it: one row, or one column. */
const asRow = (v) => ({ rows: 1, cols: v.length, data: v });
const asColumn = (v) => ({ rows: v.length, cols: 1, data: Float64Array.from(v) });
const isMatrix = (x) => typeof x === 'object' && x !== null && 'rows' in x && 'cols' in x && 'data' in x;
/** Columns of a matrix-like argument (a Matrix, {rows, cols, data} or rows of numbers). */
const colsOf = (m) => (isMatrix(m) ? m.cols : m[0].length);

/** Per trace: names by value, the inputs held one column per row, and computations by their op and inputs. */
const STATE = new WeakMap();
function stateOf(trace) {
  if (!STATE.has(trace)) STATE.set(trace, { names: new WeakMap(), columns: new Set(), made: new Map() });
  return STATE.get(trace);
}
/** The precision a call asked for, for the scores its recorder computes on demand. */
const precisionOf = (options) => (options?.precision ? { precision: options.precision } : undefined);
const keyOf = (op, inputs = [], params) => `${op}|${inputs.join(',')}|${JSON.stringify(params ?? {})}`;

/**
 * What each API function records, as (rec, args, result): rec.in(value, arg)
 * is the name of an argument, rec.out(part, entry, result) records output
 * `part` ('out' for a single result) and returns its name, rec.find(op,
 * inputs, params) the name of the same computation recorded before (so
 * attention reuses the scores a chapter already computed), rec.columns(name)
 * whether an input is held one column per row (the notebook's layout of the
 * Basics chapter), rec.api the plain API (for tensors computed on demand).
 */
export const RECORDERS = {
  matmul(rec, [a, b], out) {
    rec.out('out', { op: 'matmul', inputs: [rec.in(a, 'a'), rec.in(b, 'b')], value: out });
  },
  attentionScores(rec, [Q, K, options], out) {
    const [q, k] = [rec.in(Q, 'Q'), rec.in(K, 'K')];
    const scores = { op: 'matmul', inputs: [q, k], params: { transposeB: true } };
    if (!options?.scaled) return rec.out('out', { ...scores, value: out });
    const raw =
      (!rec.named('scores') && rec.find(scores)) ||
      rec.out('scores', { ...scores, value: () => rec.api.attentionScores(Q, K, precisionOf(options)) });
    return rec.out('out', { op: 'scale', inputs: [raw], value: out, params: { dk: colsOf(K) } });
  },
  softmax(rec, [x], out) {
    rec.out('out', { op: 'softmax', inputs: [rec.in(x, 'x')], value: isMatrix(out) ? out : () => asRow(out) }, out);
  },
  /** q · k for each key: keys as rows (k·q, transposeB), or held one column per key (qᵀ H, transposeA). */
  dotScores(rec, [query, keys], out) {
    const [q, k] = [rec.in(query, 'query'), rec.in(keys, 'keys')];
    const params = rec.columns(k) ? { transposeA: true } : { transposeB: true };
    rec.out('out', { op: 'matmul', inputs: [q, k], value: () => asRow(out), params }, out);
  },
  /** w_i · row i of the values; values held one column per row give the product transposed, as they are. */
  scaleRows(rec, [weights, values], out) {
    const [w, x] = [rec.in(weights, 'weights'), rec.in(values, 'values')];
    const columns = rec.columns(x);
    const value = columns ? () => out.transpose() : out;
    rec.out('out', { op: 'scaleBy', inputs: [w, x], value, params: { along: columns ? 'cols' : 'rows' } }, out);
  },
  /** Σ_i w_i · row i: over values held one column per row, the column H wᵀ. */
  weightedSum(rec, [weights, values], out) {
    const [w, x] = [rec.in(weights, 'weights'), rec.in(values, 'values')];
    if (rec.columns(x)) {
      rec.out('out', { op: 'matmul', inputs: [x, w], value: () => asColumn(out), params: { transposeB: true } }, out);
    } else rec.out('out', { op: 'weightedSum', inputs: [w, x], value: () => asRow(out) }, out);
  },
  /** Bahdanau: X = [h_i; s], z = X W1, A = tanh(z), e = A w2, α = softmax(e), α_i h_i and c = Σ α_i h_i. */
  concatAttention(rec, [encoder, decoder, W1, w2], out) {
    const [H, s] = [rec.in(encoder, 'encoderStates'), rec.in(decoder, 'decoderState')];
    const X = rec.out('inputs', { op: 'concat', inputs: [H, s], value: out.inputs });
    const pre = () => rec.api.matmul(out.inputs, W1);
    const z = rec.out('pre', { op: 'matmul', inputs: [X, rec.in(W1, 'W1')], value: pre });
    const A = rec.out('activations', { op: 'tanh', inputs: [z], value: out.activations });
    const e = rec.out('scores', { op: 'matmul', inputs: [A, rec.in(w2, 'w2')], value: () => asColumn(out.scores) });
    const α = rec.out('weights', { op: 'softmax', inputs: [e], value: () => asRow(out.weights) }, out.weights);
    rec.out('weighted', { op: 'scaleBy', inputs: [α, H], value: out.weighted, params: { along: 'rows' } });
    rec.out('context', { op: 'weightedSum', inputs: [α, H], value: () => asRow(out.context) }, out.context);
  },
  // Not the API's: what chapters compute in JS to lay out a figure (t.record(fn, args, result)).
  /** One-row parts one under another. */
  stack(rec, parts, out) {
    rec.out('out', { op: 'stack', inputs: parts.map((part, p) => rec.in(part, `part${p + 1}`)), value: out });
  },
  /** Matrices side by side. */
  concat(rec, parts, out) {
    rec.out('out', { op: 'concat', inputs: parts.map((part, p) => rec.in(part, `part${p + 1}`)), value: out });
  },
  /** Columns c0 … c0 + width − 1 of m (a head's block). */
  columns(rec, [m, c0, width], out) {
    rec.out('out', { op: 'split', inputs: [rec.in(m, 'm')], value: out, params: { c0, width } });
  },
  /** m's rows as columns (the GloVe chapter draws its embeddings one column per token). */
  transpose(rec, [m], out) {
    rec.out('out', { op: 'transpose', inputs: [rec.in(m, 'm')], value: out });
  },
  /** x Wᵀ + b (a layer's projection; W out × in, as PyTorch holds it). */
  linear(rec, [x, W, b], out) {
    rec.out('out', { op: 'linear', inputs: [rec.in(x, 'x'), rec.in(W, 'W'), rec.in(b, 'b')], value: out });
  },
  /** Each row's softmax over the keys the mask leaves open. */
  maskedSoftmax(rec, [scores, mask], out) {
    rec.out('out', { op: 'softmax', inputs: [rec.in(scores, 'scores'), rec.in(mask, 'mask')], value: out });
  },
  /** Cosines of Q's and K's rows: q·k over the norms (the scores recorded, or computed on demand). */
  cosine(rec, [Q, K, rowNorms, colNorms], out) {
    const scores = { op: 'matmul', inputs: [rec.in(Q, 'Q'), rec.in(K, 'K')], params: { transposeB: true } };
    const raw =
      (!rec.named('scores') && rec.find(scores)) ||
      rec.out('scores', { ...scores, value: () => rec.api.attentionScores(Q, K) });
    rec.out('out', { op: 'cosine', inputs: [raw], value: out, params: { rowNorms, colNorms } });
  },
  /** w_s · tanh(q′_i + k′_j) + b_s for every pair. */
  additiveScore(rec, [q, k, ws, bs], out) {
    const inputs = [rec.in(q, 'queries'), rec.in(k, 'keys'), rec.in(ws, 'ws'), rec.in(bs, 'bs')];
    rec.out('out', { op: 'additiveScore', inputs, value: out });
  },
  /** The sinusoidal positional encoding of width dModel. */
  positional(rec, [dModel], out) {
    rec.out('out', { op: 'positional', value: out, params: { dModel } });
  },
  /** θ_i of width d from rope_theta (row 1), and with the config's scaling (row 2, when there is one). */
  ropeFrequencies(rec, [d, base, scaling], out) {
    rec.out('out', { op: 'ropeFrequencies', value: out, params: { d, base, scaling } });
  },
  /** Each row over its root mean square, times the gain g (QK-norm). */
  rmsNorm(rec, [x, gain, epsilon], out) {
    rec.out('out', { op: 'rmsNorm', inputs: [rec.in(x, 'x'), rec.in(gain, 'gain')], value: out, params: { epsilon } });
  },
  /** Rows `ids` of an embedding table E. */
  embedding(rec, [E, ids], out) {
    rec.out('out', { op: 'embedding', inputs: [rec.in(E, 'E')], value: out, params: { ids } });
  },
  /**
   * weights = softmax(Q Kᵀ / √d_k) (masked), output = weights V: over the scaled
   * scores if recorded, else over the scores (recorded, or computed on demand) with d_k.
   */
  scaledDotProductAttention(rec, [Q, K, V, options], out) {
    const [q, k] = [rec.in(Q, 'Q'), rec.in(K, 'K')];
    const mask = maskOf(rec, q, k, options);
    const dk = colsOf(K);
    const withMask = (x) => (mask ? [x, mask] : [x]);
    const scores = { op: 'matmul', inputs: [q, k], params: { transposeB: true } };
    // Scores the caller names are this call's own; unnamed, the chapter's recorded ones are reused.
    const raw = rec.named('scores') ? null : rec.find(scores);
    const scaled = raw && rec.find({ op: 'scale', inputs: [raw], params: { dk } });
    const weights = scaled
      ? rec.out('weights', { op: 'softmax', inputs: withMask(scaled), value: out.weights })
      : rec.out('weights', {
          op: 'softmax',
          inputs: withMask(
            raw ?? rec.out('scores', { ...scores, value: () => rec.api.attentionScores(Q, K, precisionOf(options)) }),
          ),
          value: out.weights,
          params: { dk },
        });
    if (out.output && rec.wanted('output')) {
      rec.out('output', { op: 'weightedSum', inputs: [weights, rec.in(V, 'V')], value: out.output });
    }
  },
  /**
   * Multi-head attention down to each head's q·k: the projections Q Wq and K Wk
   * (on demand), then per head h its column blocks, scores and weights,
   * recorded as parts `head${h}.Q`, `.K`, `.scores`, `.weights`.
   */
  multiHeadAttention(rec, [Q, K, _V, options], out) {
    const { Wq, Wk } = options;
    const project = (part, X, W, arg) => {
      const inputs = [rec.in(X, arg), rec.in(W, `options.W${part.toLowerCase()}`)];
      const names = { symbol: part, row: part.toLowerCase(), rowLabels: rec.entry(inputs[0]).rowLabels };
      return rec.out(part, { op: 'matmul', inputs, value: () => rec.api.matmul(X, W), ...names });
    };
    const q = project('Q', Q, Wq, 'Q');
    const k = project('K', K, Wk, 'K');
    const heads = out.weights.length;
    recordHeads(rec, q, k, options, out.weights, colsOf(Wq) / heads, options.kvHeads ?? heads);
  },
  /**
   * X rotated pair by pair (RoFormer): one entry, its parameters those of the
   * call (positions 0 … T − 1 when not given), for a figure to draw the angles.
   */
  rotaryEmbedding(rec, [X, options], out) {
    const { base = 10000, pairing = 'half', scaling = null } = options ?? {};
    const positions = Array.from(options?.positions ?? Array.from({ length: out.rows }, (_, i) => i));
    rec.out('out', {
      op: 'rotary',
      inputs: [rec.in(X, 'X')],
      value: out,
      params: { base, pairing, scaling, positions },
    });
  },
  /**
   * Online softmax: the weights (softmax of the scaled scores, masked like
   * scaledDotProductAttention's, on demand), output = weights V, and the
   * running maximum and sum after each key block as parts 'max' and 'sum'.
   */
  onlineSoftmaxAttention(rec, [Q, K, V, options], out) {
    const [q, k] = [rec.in(Q, 'Q'), rec.in(K, 'K')];
    const mask = maskOf(rec, q, k, options);
    const dk = colsOf(K);
    const scores = { op: 'matmul', inputs: [q, k], params: { transposeB: true } };
    const raw =
      (!rec.named('scores') && rec.find(scores)) ||
      rec.out('scores', { ...scores, value: () => rec.api.attentionScores(Q, K, precisionOf(options)) });
    const sdpaOptions = { causal: Boolean(options?.causal), ...precisionOf(options) };
    const weights = rec.out('weights', {
      op: 'softmax',
      inputs: mask ? [raw, mask] : [raw],
      value: () => rec.api.scaledDotProductAttention(Q, K, V, sdpaOptions).weights,
      params: { dk },
    });
    rec.out('output', { op: 'weightedSum', inputs: [weights, rec.in(V, 'V')], value: out.output });
    // m and ℓ after each block, explained from the scores (scaled, if recorded) and the mask.
    const scaled = rec.find({ op: 'scale', inputs: [raw], params: { dk } });
    const x = scaled ?? raw;
    const params = scaled ? { blockSize: options.blockSize } : { blockSize: options.blockSize, dk };
    const max = rec.out('max', { op: 'runningMax', inputs: [x, mask], value: out.max, params });
    rec.out('sum', { op: 'runningSum', inputs: [x, max, mask], value: out.sum, params });
  },
  /**
   * Not the API's: the heads of multiHeadAttention from its projected queries
   * and keys (all heads' columns), as an engine that ran it sends them; parts
   * `${heads(h)}Q`, `.K`, `.scores`, `.weights` (heads(h) = `head${h}.` unless named).
   */
  attentionHeads(rec, [Q, K, options], out) {
    const heads = out.weights.length;
    recordHeads(
      rec,
      rec.in(Q, 'Q'),
      rec.in(K, 'K'),
      options,
      out.weights,
      colsOf(Q) / heads,
      options?.kvHeads ?? heads,
    );
  },
};

/** Every head over the projected queries q and keys k (names), with their mask; head h reads key head ⌊h·kvHeads/heads⌋. */
function recordHeads(rec, q, k, options, heads, dk, kvHeads) {
  const mask = maskOf(rec, q, k, options);
  heads.forEach((weights, h) => {
    const g = Math.floor((h * kvHeads) / heads.length);
    recordHead(rec, { prefix: rec.headPrefix(h), q, k, mask, weights, h, g, dk });
  });
}

/**
 * The name of options.mask, or of a part 'mask' when options.causal or
 * options.window: keys after the query, and keys j <= i − window, masked.
 */
function maskOf(rec, q, k, options) {
  if (options?.mask) return rec.in(options.mask, 'options.mask');
  const { causal = false, window = 0 } = options ?? {};
  if (!causal && !window) return null;
  const hidden = (i, j) => (causal && j > i) || (window > 0 && j <= i - window);
  const value = () => zeroWhere(rec.value(q).rows, rec.value(k).rows, hidden);
  return rec.out('mask', { value, symbol: 'M' });
}

/**
 * Head h of a multi-head attention: its blocks of the projected queries and
 * keys, q·k and softmax(q·k/√d_k), named Q1, K1, score1, weight1 for head 1
 * and labelled like the queries (rows) and keys (columns).
 */
function recordHead(rec, { prefix, q, k, mask, weights, h, g = h, dk }) {
  const [rowLabels, colLabels] = [rec.entry(q).rowLabels, rec.entry(k).rowLabels];
  const block = (of, c) => () => columnsOf(rec.value(of), c * dk, dk);
  const split = { op: 'split', params: { c0: h * dk, width: dk } };
  const Qh = rec.out(`${prefix}Q`, {
    ...split,
    inputs: [q],
    value: block(q, h),
    symbol: `Q${h + 1}`,
    row: 'q',
    rowLabels,
  });
  const keys = { symbol: `K${h + 1}`, row: 'k', rowLabels: colLabels };
  // Grouped-query attention: key head g's columns, shared by heads / kvHeads query heads.
  const kSplit = { op: 'split', params: { c0: g * dk, width: dk } };
  const Kh = rec.out(`${prefix}K`, { ...kSplit, inputs: [k], value: block(k, g), ...keys });
  const scores = () => rec.api.attentionScores(rec.value(Qh), rec.value(Kh));
  const pairs = { rowLabels, colLabels };
  const S = { op: 'matmul', inputs: [Qh, Kh], value: scores, params: { transposeB: true }, symbol: `score${h + 1}` };
  const s = rec.out(`${prefix}scores`, { ...S, ...pairs });
  const W = { op: 'softmax', inputs: [s, mask], value: weights, params: { dk }, symbol: `weight${h + 1}`, ...pairs };
  return rec.out(`${prefix}weights`, W, weights);
}

/**
 * A part's naming: 'Q', or { name, symbol, row, … }; a part given no name is
 * `${prefix}${part}`, prefix defaulting to the first named part's name and a dot.
 */
function partNaming(naming, part) {
  const given = naming?.[part];
  if (typeof given === 'string') return { name: given };
  const nameOf = ([key, n]) =>
    key === 'prefix' ? undefined : typeof n === 'string' ? n : typeof n === 'object' ? n?.name : undefined;
  const first = Object.entries(naming ?? {})
    .map(nameOf)
    .find((n) => typeof n === 'string');
  const prefix = naming?.prefix ?? (first === undefined ? '' : `${first}.`);
  return { name: `${prefix}${part}`, ...(typeof given === 'object' ? given : {}) };
}

/**
 * The API through `trace`:
 * - t.input(name, value, names) records data (rows of numbers are held as a
 *   matrix; names.value overrides what the trace holds, names.columns says it
 *   is held one column per row) and returns it;
 * - t.name('Q', { symbol: 'Q', row: 'q' }).matmul(X, WQ) is api.matmul(X, WQ),
 *   recorded under that name (also t.name({ name: 'Q', symbol: 'Q' }));
 *   t.name({ weights: {…}, output: {…}, prefix }) names the parts of a call
 *   with several (heads: (h) => `H${h}.` names a multi-head call's heads);
 * - t.name(…).record(fn, args, result) records a result computed elsewhere (a
 *   worker, the wasm model, a JS layout step) as fn's recorder says;
 * - t.same(other, value): a second object standing for a named one.
 * Unnamed calls (t.matmul) and every call without a trace are the plain API's.
 */
export function tracedApi(api, trace) {
  const state = trace ? stateOf(trace) : null;
  const recorded = new Set(); // names recorded through this view
  const view = (naming) => {
    const rec = {
      api,
      value: (name) => trace.value(name),
      entry: (name) => trace.entry(name),
      columns: (name) => state.columns.has(name),
      headPrefix: (h) => (naming?.heads ? naming.heads(h) : `head${h}.`),
      wanted: (part) => rec.named(part) || typeof naming?.prefix === 'string',
      named: (part) => typeof naming?.[part] === 'string' || typeof naming?.[part]?.name === 'string',
      in(value, arg) {
        if (value === undefined || value === null) return null;
        const name = typeof value === 'object' ? state.names.get(value) : undefined;
        if (name === undefined) {
          throw new RangeError(`tracedApi.${rec.fn}: ${arg} is not a named tensor (name it with input or name first)`);
        }
        return name;
      },
      find({ op, inputs, params }) {
        const key = keyOf(op, inputs, params);
        const name = state.made.get(key);
        if (name === undefined || !trace.has(name)) return null;
        const entry = trace.entry(name);
        if (keyOf(entry.op, entry.inputs, entry.params) !== key) return null; // the name now holds another op
        // A lazy tensor of an earlier recording may close over its arguments: only this one's, or held values.
        return recorded.has(name) || typeof entry.value !== 'function' ? name : null;
      },
      out(part, entry, result = entry.value) {
        const { name, params, ...names } = partNaming(naming, part);
        const merged = params ? { ...entry.params, ...params } : entry.params;
        trace.add({ ...entry, ...names, name, params: merged });
        recorded.add(name);
        if (entry.op) state.made.set(keyOf(entry.op, entry.inputs, entry.params), name);
        if (typeof result === 'object' && result !== null) state.names.set(result, name);
        return name;
      },
    };
    const record = (fn, args, result) => {
      if (!RECORDERS[fn]) throw new RangeError(`tracedApi.record: fn '${fn}' has no recorder`);
      rec.fn = fn;
      if (trace) RECORDERS[fn](rec, args, result);
      return result;
    };
    // Without names (or without a trace) a call is the plain API's: nothing to record it under.
    const call =
      naming && trace
        ? (fn) =>
            (...args) =>
              record(fn, args, api[fn](...args))
        : (fn) => api[fn].bind(api);
    const calls = Object.fromEntries(Object.keys(RECORDERS).flatMap((fn) => (api?.[fn] ? [[fn, call(fn)]] : [])));
    return { ...calls, record };
  };
  const t = {
    ...view(undefined),
    api,
    trace,
    input(name, value, { value: held, columns = false, ...names } = {}) {
      if (!trace) return value;
      const stored = held ?? (Array.isArray(value) && Array.isArray(value[0]) ? () => matrixOfRows(value) : value);
      trace.add({ name, value: stored, ...names });
      if (columns) state.columns.add(name);
      else state.columns.delete(name);
      if (typeof value === 'object' && value !== null) state.names.set(value, name);
      return value;
    },
    same(other, value) {
      if (!trace) return other;
      state.names.set(other, state.names.get(value));
      return other;
    },
    name(name, names) {
      if (typeof name === 'string') return view({ out: { name, ...names } });
      if (typeof name !== 'object' || name === null) {
        throw new TypeError(`tracedApi.name: name must be a string or an object, got ${typeof name}`);
      }
      return view(typeof name.name === 'string' ? { out: name } : name); // { name, symbol, … } or parts
    },
  };
  return t;
}
