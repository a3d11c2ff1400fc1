// The base of every decoder-only family (GPT-2; the next ones: llama, qwen, gemma):
// run(text) and runIds(ids) give every layer's and head's attention maps and the
// next token's most likely continuations. A family's class passes its sizes by
// config.json's names and adds what it has of its own (GPT-2: explainHead). Its
// core class binds forward(ids address, count) and copyLast(which, out): the last
// position's probabilities (0) or logits (1), (1 x vocab) float32.
import { describe, readOptions, requireBoolean, requireInteger, throwForStatus } from '../errors.js';
import { rawOf } from '../handle.js';
import {
  attentionsOf,
  checkIds,
  CheckpointModel,
  inForwardScope,
  int32At,
  refuseLongText,
  topTokens,
} from './base_model.js';

/** @type {(model: CausalModel) => { kind: string, sizes: CausalSizes }} */
let internals;

/**
 * @typedef {{ layers: number, heads: number, vocab: number, positions: number, positionsName: string }} CausalSizes
 * positionsName: the config.json field that bounds the tokens (n_positions, max_position_embeddings)
 */

export class CausalModel extends CheckpointModel {
  #kind;
  #sizes;

  /**
   * @internal
   * @param {CausalSizes} sizes
   */
  constructor(core, raw, kind, family, config, tokenizer, weights, sizes) {
    super(core, raw, kind, family, config, tokenizer, weights);
    this.#kind = kind;
    this.#sizes = sizes;
  }

  static {
    internals = (model) => ({ kind: model.#kind, sizes: model.#sizes });
  }

  /**
   * Tokenizes `text` and runs the model on it (see runIds).
   * @param {string} text
   * @param {{ k?: number, logits?: boolean }} [options]
   */
  run(text, options) {
    const fn = `${this.#kind}.run`;
    rawOf(this, 'run');
    const read = this.#options(fn, options);
    return this.#forward(fn, encodeText(this, fn, text), read);
  }

  /**
   * Runs the model on token ids: every layer's and head's attention weights and
   * the next token's most likely continuations.
   * @param {ArrayLike<number>} ids 1 to `positions` ids in [0, vocab_size)
   * @param {{ k?: number, logits?: boolean }} [options] k: how many next tokens (default 10);
   *   logits: also return the last position's logits
   */
  runIds(ids, options) {
    const fn = `${this.#kind}.runIds`;
    rawOf(this, 'runIds');
    const { positions, positionsName, vocab } = this.#sizes;
    const read = this.#options(fn, options);
    return this.#forward(fn, checkIds(ids, fn, positions, positionsName, vocab), read);
  }

  /** The options copied and checked before any other work (a getter may delete the model). */
  #options(fn, options) {
    const { vocab } = this.#sizes;
    const { k = Math.min(10, vocab), logits = false } = readOptions(options, ['k', 'logits'], fn);
    requireInteger(k, fn, 'options.k', 1, vocab);
    requireBoolean(logits, fn, 'options.logits');
    return { k, logits };
  }

  #forward(fn, ids, { k, logits }) {
    rawOf(this, fn.slice(fn.indexOf('.') + 1)); // deleted by a getter of the options or ids?
    const { layers, heads, vocab } = this.#sizes;
    const T = ids.length;
    return inForwardScope(this, fn, heads, T, (raw, heap, maps) => {
      const last = heap.output(1, vocab, 'probabilities');
      forwardIn(raw, heap, ids, fn);
      const attentions = attentionsOf(raw, heap, maps, layers, heads, T);
      raw.copyLast(0, last);
      const next = topTokens(heap.read(last), k, (id) => tokenText(this, id), fn);
      const tokens = ids.map((id) => tokenText(this, id));
      const result = { tokens, ids, attentions, next };
      if (logits) {
        raw.copyLast(1, last);
        result.logits = heap.read(last);
      }
      return result;
    });
  }
}

/** Runs the model on `ids` (copied into `heap` as int32); its results stay in the core. */
export function forwardIn(raw, heap, ids, fn) {
  throwForStatus(heap.core, raw.forward(int32At(heap, ids, 'ids'), ids.length), fn);
}

/**
 * A token's text. Models often pad their vocabulary past the tokenizer's (vocab_size 50304
 * for 50257 tokens): such an id has no text, and shows as `<id N>`.
 */
export function tokenText(model, id) {
  return id < model.tokenizer.vocabSize ? model.tokenizer.tokenText(id) : `<id ${id}>`;
}

/** The ids of `text`, checked against the model's positions. */
export function encodeText(model, fn, text) {
  if (typeof text !== 'string') throw new TypeError(`${fn}: text must be a string, got ${describe(text)}`);
  const { positions, positionsName } = internals(model).sizes;
  refuseLongText(model.tokenizer, fn, [text], 0, positions, positionsName);
  const { ids } = model.tokenizer.encode(text);
  if (ids.length === 0) throw new RangeError(`${fn}: text has no tokens`);
  if (ids.length > positions)
    throw new RangeError(`${fn}: text is ${ids.length} tokens, more than the model's ${positionsName} = ${positions}`);
  return ids;
}
