// The base of every decoder-only family (GPT-2; llama, qwen2, qwen3, gemma3):
// run(text) and runIds(ids) give every layer's and head's attention maps and the
// next token's most likely continuations; generate(prompt) and generateIds(ids)
// continue a text token by token with the core's KV cache. A family's class
// passes its sizes by config.json's names (and its generation defaults) and adds
// what it has of its own (explainHead). Its core class binds forward(ids address,
// count) and copyLast(which, out): the last position's probabilities (0) or
// logits (1), (1 x vocab) float32; reserveCache(positions), decode(id) and
// copyStepAttention(layer, out): the decode step's (H x n) attention rows.
import { describe, readOptions, requireBoolean, requireInteger, requireNumber, throwForStatus } from '../errors.js';
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
import { chooseToken, seededUniform } from './sampling.js';
import { checkAborted } from './source.js';

/** @type {(model: CausalModel) => { kind: string, sizes: CausalSizes }} */
let internals;

/**
 * @typedef {{ layers: number, heads: number, vocab: number, positions: number, positionsName: string,
 *   stop: number[], temperature: number }} CausalSizes
 * positionsName: the config.json field that bounds the tokens (n_positions, max_position_embeddings);
 * stop: generate's default stop ids (the EOS ids); temperature: its default temperature
 */

/** Which generate call's tokens the core's KV cache holds, per raw model (any other forward pass clears it). */
const cacheOwner = new WeakMap();

/** The options generate reads. */
const GENERATE_OPTIONS = ['maxTokens', 'temperature', 'topK', 'topP', 'seed', 'stop', 'signal', 'onToken'];

/**
 * Lets the event loop run (an abort, a repaint) between two generated tokens: the
 * scheduler's yield where there is one, else a message to itself (a task, without
 * setTimeout's 4 ms clamp in browsers).
 */
const nextTurn =
  typeof globalThis.scheduler?.yield === 'function'
    ? () => globalThis.scheduler.yield()
    : () =>
        new Promise((resolve) => {
          const { port1, port2 } = new MessageChannel();
          port1.onmessage = () => {
            port1.close();
            resolve(undefined);
          };
          port2.postMessage(null);
        });

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

  /**
   * Continues `prompt` token by token (see generateIds).
   * @param {string} prompt
   * @param {object} [options] generateIds' options
   */
  async generate(prompt, options) {
    const fn = `${this.#kind}.generate`;
    rawOf(this, 'generate');
    const ids = encodeText(this, fn, prompt);
    return this.#generate(fn, ids, this.#generateOptions(fn, options, ids.length));
  }

  /**
   * Continues `ids` token by token: each new token is chosen from the model's
   * next-token distribution (greedy at temperature 0, else sampled with the
   * seeded generator), then fed back through the core's KV cache, which keeps
   * every layer's keys and values so each step computes one position.
   * @param {ArrayLike<number>} ids 1 to `positions` - 1 ids in [0, vocab_size)
   * @param {object} [options] maxTokens, temperature, topK, topP, seed, stop, signal, onToken
   */
  async generateIds(ids, options) {
    const fn = `${this.#kind}.generateIds`;
    rawOf(this, 'generateIds');
    const { positions, positionsName, vocab } = this.#sizes;
    const prompt = checkIds(ids, fn, positions, positionsName, vocab);
    return this.#generate(fn, prompt, this.#generateOptions(fn, options, prompt.length));
  }

  /** generate's options, copied and checked (`promptLength`: the prompt's tokens). */
  #generateOptions(fn, options, promptLength) {
    const { vocab, positions, positionsName, stop: eos, temperature: defaultTemperature } = this.#sizes;
    const o = readOptions(options, GENERATE_OPTIONS, fn);
    const room = positions - promptLength;
    if (room < 1)
      throw new RangeError(
        `${fn}: the prompt's ${promptLength} tokens leave no room for options.maxTokens (the model's ${positionsName} = ${positions})`,
      );
    const maxTokens = o.maxTokens ?? Math.min(32, room);
    requireNumber(maxTokens, fn, 'options.maxTokens');
    if (!Number.isSafeInteger(maxTokens) || maxTokens < 1)
      throw new RangeError(`${fn}: options.maxTokens must be an integer >= 1, got ${maxTokens}`);
    if (promptLength + maxTokens > positions)
      throw new RangeError(
        `${fn}: the prompt's ${promptLength} tokens + options.maxTokens = ${maxTokens} is more than the model's ${positionsName} = ${positions}`,
      );
    const temperature = o.temperature ?? defaultTemperature;
    requireNumber(temperature, fn, 'options.temperature');
    if (!(temperature >= 0) || !Number.isFinite(temperature))
      throw new RangeError(`${fn}: options.temperature must be a finite number >= 0, got ${temperature}`);
    const topK = o.topK ?? null;
    if (topK !== null) requireInteger(topK, fn, 'options.topK', 1, vocab);
    const topP = o.topP ?? 1;
    requireNumber(topP, fn, 'options.topP');
    if (!(topP > 0 && topP <= 1)) throw new RangeError(`${fn}: options.topP must be in (0, 1], got ${topP}`);
    const seed = o.seed ?? 0;
    requireInteger(seed, fn, 'options.seed', 0, 2 ** 32 - 1);
    const stopList = o.stop ?? eos;
    if (!Array.isArray(stopList))
      throw new TypeError(`${fn}: options.stop must be an array of token ids, got ${describe(stopList)}`);
    const stop = new Set(Array.from(stopList, (id, i) => requireInteger(id, fn, `options.stop[${i}]`, 0, vocab - 1)));
    const { signal, onToken } = o;
    if (signal !== undefined && (signal === null || typeof signal.aborted !== 'boolean'))
      throw new TypeError(`${fn}: options.signal must be an AbortSignal, got ${describe(signal)}`);
    if (onToken !== undefined && typeof onToken !== 'function')
      throw new TypeError(`${fn}: options.onToken must be a function, got ${describe(onToken)}`);
    return { maxTokens, temperature, topK, topP, seed, stop, signal, onToken };
  }

  async #generate(fn, promptIds, options) {
    const { stop } = options;
    const uniform = seededUniform(options.seed);
    const context = [...promptIds];
    const me = {}; // this call, as the owner of the core's cache
    const steps = [];
    let stopReason = 'maxTokens';
    try {
      await this.#steps(fn, options, me, context, steps, uniform);
      if (stop.has(steps[steps.length - 1].id)) stopReason = 'stop';
    } finally {
      this.#releaseCache(me);
    }
    const ids = steps.map((s) => s.id);
    return {
      ids,
      tokens: steps.map((s) => s.token),
      text: decodeText(this, ids),
      steps,
      promptIds: [...promptIds],
      stopReason,
    };
  }

  /** Frees the core's KV cache if it still holds call `me`'s tokens (and the model was not deleted). */
  #releaseCache(me) {
    if (this.deleted) return;
    const raw = rawOf(this, 'generate');
    if (cacheOwner.get(raw) !== me) return;
    cacheOwner.delete(raw);
    raw.reserveCache(0); // cannot fail: frees
  }

  /** The generation loop: appends each step to `steps` and its id to `context`. */
  async #steps(fn, options, me, context, steps, uniform) {
    const { maxTokens, stop, signal, onToken } = options;
    const promptLength = context.length;
    for (let i = 0; i < maxTokens; i++) {
      checkAborted(signal);
      const { probabilities, logits, attentions } = this.#nextDistribution(fn, me, context, promptLength + maxTokens);
      if (probabilities.some(Number.isNaN))
        throw new RangeError(`${fn}: the logits overflow float32 (|x| > 3.4e38); the weights are too large`);
      const { id, p } = chooseToken(probabilities, logits, options, uniform);
      const step = { id, token: tokenText(this, id), p, pModel: probabilities[id], attentions };
      steps.push(step);
      context.push(id);
      if (onToken !== undefined) onToken(step);
      if (stop.has(id)) return;
      if (i + 1 < maxTokens) await nextTurn();
    }
  }

  /**
   * The next token's distribution after `context` and the attention rows of its last
   * position (`attentions[layer][head]`, Float32Arrays of context.length entries):
   * one decode step when the core's cache holds context minus its last token for
   * this call (`me`), else a forward pass over all of it (the prompt; or again after
   * another call used the model), with room reserved for `reserve` positions.
   */
  #nextDistribution(fn, me, context, reserve) {
    const { layers, heads, vocab, positions } = this.#sizes;
    const raw = rawOf(this, fn.slice(fn.indexOf('.') + 1)); // deleted between steps?
    const n = context.length;
    const decoding = cacheOwner.get(raw) === me;
    return inForwardScope(this, fn, heads, decoding ? 1 : n, (raw, heap, maps) => {
      const last = heap.output(1, vocab, 'probabilities');
      const attentions = [];
      if (decoding) {
        throwForStatus(heap.core, raw.decode(context[n - 1]), fn);
        const rows = heap.output(heads, n, 'attention rows');
        for (let l = 0; l < layers; l++) {
          raw.copyStepAttention(l, rows);
          const all = heap.read(rows);
          attentions.push(Array.from({ length: heads }, (_, h) => all.slice(h * n, (h + 1) * n)));
        }
      } else {
        cacheOwner.delete(raw);
        throwForStatus(heap.core, raw.reserveCache(Math.min(reserve, positions)), fn);
        forwardIn(raw, heap, context, fn);
        cacheOwner.set(raw, me);
        for (let l = 0; l < layers; l++) {
          raw.copyAttention(l, maps);
          const all = heap.read(maps);
          // Each head's last row: the last position's weights over every position.
          attentions.push(Array.from({ length: heads }, (_, h) => all.slice((h * n + n - 1) * n, (h + 1) * n * n)));
        }
      }
      raw.copyLast(0, last);
      const probabilities = heap.read(last);
      raw.copyLast(1, last);
      return { probabilities, logits: heap.read(last), attentions };
    });
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
  cacheOwner.delete(raw); // the pass replaces the KV cache's contents
  throwForStatus(heap.core, raw.forward(int32At(heap, ids, 'ids'), ids.length), fn);
}

/** eos_token_id: an id, a list of ids or null, checked (a list is frozen). */
export function eosIdOf(value, fn) {
  if (value === null) return null;
  const id = (x) => Number.isSafeInteger(x) && x >= 0;
  if (id(value)) return value;
  if (Array.isArray(value) && value.every(id)) return Object.freeze([...value]);
  throw new TypeError(
    `${fn}: config.json's eos_token_id must be a token id, a list of them or null, got ${describe(value)}`,
  );
}

/** config.json's or generation_config.json's eos_token_id (an id, a list of ids, or absent) as a list. */
export function eosIds(value) {
  if (Number.isInteger(value) && value >= 0) return [value];
  if (Array.isArray(value)) return value.filter((id) => Number.isInteger(id) && id >= 0);
  return [];
}

/** The text of generated ids: the tokenizer's decode, `<id N>` for an id past its vocabulary. */
function decodeText(model, ids) {
  const { tokenizer } = model;
  let text = '';
  let run = [];
  for (const id of [...ids, -1]) {
    if (id >= 0 && id < tokenizer.vocabSize) {
      run.push(id);
      continue;
    }
    if (run.length > 0) text += tokenizer.decode(run);
    run = [];
    if (id >= 0) text += `<id ${id}>`;
  }
  return text;
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
