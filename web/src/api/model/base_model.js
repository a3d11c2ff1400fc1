// The base of every model openModel opens (families/<family>/model.js): it
// owns the core's object of the family (OwnedHandle: delete(), or reclaimed when
// dropped) and holds what a family's run/runIds/explainHead share: the id
// checks, a forward pass's heap scope with every layer's attention maps copied
// out, the top-k tokens, and the weights explainHead reads again on demand. A
// family's class adds only what differs: its inputs, its outputs.
import { isDetached } from '../detached.js';
import { describe, requireInteger } from '../errors.js';
import { OwnedHandle, rawOf } from '../handle.js';
import { withHeap } from '../heap.js';
import { Matrix } from '../matrix.js';
import { LEAST_TOKENS } from '../tokenizer/bound.js';
import { readTensors } from './tensor_reader.js';
import { topK } from './top-k.js';

/** @type {(model: CheckpointModel) => { core: any, weights: any }} */
let internals;

export class CheckpointModel extends OwnedHandle {
  #core;
  #weights; // where explainHead reads weights again: { source, dataStart, tensors }

  /**
   * @internal
   * @param {string} kind the public class name (Gpt2Model, ...), for messages
   * @param {string} family the registry row's family ('gpt2', ...)
   */
  constructor(core, raw, kind, family, config, tokenizer, weights) {
    super(raw, kind);
    this.#core = core;
    this.#weights = weights;
    /** Which kind of model this is (openModel opens a registry family: 'gpt2', 'bert', ...). */
    this.family = family;
    /** The checked config.json fields. */
    this.config = config;
    /** The tokenizer loaded from the folder's files. */
    this.tokenizer = tokenizer;
  }

  static {
    internals = (model) => ({ core: model.#core, weights: model.#weights });
  }
}

/** An array or typed array (not a DataView): what runIds takes as ids. */
export const isIdList = (x) => Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView));

/** runIds' ids: a list of 1 to `most` ids (`mostName`: the config field) in [0, vocab). */
export function checkIds(ids, fn, most, mostName, vocab) {
  if (!isIdList(ids)) throw new TypeError(`${fn}: ids must be an array of integers, got ${describe(ids)}`);
  if (ArrayBuffer.isView(ids) && isDetached(ids.buffer))
    throw new TypeError(`${fn}: ids is ${describe(ids)} whose ArrayBuffer was detached (transferred)`);
  if (ids.length < 1 || ids.length > most)
    throw new RangeError(`${fn}: ids has ${ids.length} tokens but must have 1 to ${mostName} = ${most}`);
  return Array.from(ids, (id, i) => requireInteger(id, fn, `ids[${i}]`, 0, vocab - 1));
}

/**
 * A RangeError before tokenizing when `texts` certainly give more than `most` tokens (with
 * `extra` tokens the model adds: [CLS], [SEP]); the tokenizer's lower bound decides.
 */
export function refuseLongText(tokenizer, fn, texts, extra, most, mostName) {
  const least = tokenizer[LEAST_TOKENS];
  if (typeof least !== 'function') return;
  let count = extra;
  for (const text of texts) if (count <= most) count += least.call(tokenizer, text, most);
  if (count > most) {
    const chars = texts.reduce((sum, text) => sum + text.length, 0);
    throw new RangeError(
      `${fn}: text is ${count} tokens or more (${chars} characters, refused before tokenizing), more than the model's ${mostName} = ${most}`,
    );
  }
}

/** `values` as int32 in the scope's heap: their address. */
export function int32At(heap, values, what) {
  const at = heap.allocBytes(4 * values.length, `${what} (${values.length})`);
  new Int32Array(heap.core.HEAPF64.buffer, at >>> 0, values.length).set(values);
  return at;
}

/**
 * One forward pass of `model` in a float32 heap scope: `body(raw, heap, maps)`
 * runs the family's forward (its inputs, its outputs; `maps` is the (H T x T)
 * output attentionsOf copies each layer through). Everything the scope
 * allocated is freed after it.
 */
export function inForwardScope(model, fn, heads, T, body) {
  const raw = rawOf(model, fn.slice(fn.indexOf('.') + 1));
  return withHeap(
    internals(model).core,
    fn,
    (heap) => body(raw, heap, heap.output(heads * T, T, 'attention')),
    'float32',
  );
}

/** After the family's forward: `attentions[layer][head]`, (T x T) Matrices. */
export function attentionsOf(raw, heap, maps, layers, heads, T) {
  const attentions = [];
  for (let l = 0; l < layers; l++) {
    raw.copyAttention(l, maps);
    const all = heap.read(maps);
    attentions.push(Array.from({ length: heads }, (_, h) => new Matrix(T, T, all.slice(h * T * T, (h + 1) * T * T))));
  }
  return attentions;
}

/** The k most likely of probabilities `p` as { id, token, p }; NaN (float32 overflow) is a RangeError. */
export function topTokens(p, k, text, fn) {
  if (p.some(Number.isNaN))
    throw new RangeError(`${fn}: the logits overflow float32 (|x| > 3.4e38); the weights are too large`);
  return topK(p, k, fn).map(({ id, p }) => ({ id, token: text(id), p }));
}

/**
 * The tensors `names` of the model's file as float32, read again on demand
 * (explainHead: the model keeps no copy of them).
 */
export function readWeights(model, names, fn, signal) {
  const { weights } = internals(model);
  return readTensors(weights, names, fn, signal);
}

/** The model's core module (for its heap and status codes). */
export const coreOf = (model) => internals(model).core;
