// A GPT-2 opened from Hugging Face files (open.js): its weights live in the
// wasm core (cpp/models/families/gpt2/) inside a `_Gpt2Model` that the base
// (base_model.js) owns. Every result is a JS copy. config: the checked
// config.json fields (n_layer, n_head, n_embd, n_positions, vocab_size, ...);
// tokenizer: from tokenizer.json (or vocab.json + merges.txt).
import { describe, readOptions, requireInteger, throwForStatus } from '../../../errors.js';
import { rawOf } from '../../../handle.js';
import { withHeap } from '../../../heap.js';
import { Matrix } from '../../../matrix.js';
import {
  attentionsOf,
  checkIds,
  CheckpointModel,
  coreOf,
  inForwardScope,
  int32At,
  topTokens,
} from '../../base_model.js';
import { readHeadWeights } from './head_weights.js';

/** Runs the model on `ids` (copied into `heap` as int32); its results stay in the core. */
function forwardIn(raw, heap, ids, fn) {
  throwForStatus(heap.core, raw.forward(int32At(heap, ids, 'ids'), ids.length), fn);
}

export class Gpt2 extends CheckpointModel {
  /** @internal */
  constructor(core, raw, config, tokenizer, weights) {
    super(core, raw, 'Gpt2Model', 'gpt2', config, tokenizer, weights);
  }
  /**
   * A token's text. Models often pad their vocabulary past the tokenizer's (vocab_size 50304
   * for 50257 tokens): such an id has no text, and shows as `<id N>`.
   */
  #text(id) {
    return id < this.tokenizer.vocabSize ? this.tokenizer.tokenText(id) : `<id ${id}>`;
  }

  /**
   * Tokenizes `text` and runs the model on it (see runIds).
   * @param {string} text
   * @param {{ k?: number, logits?: boolean }} [options]
   */
  run(text, options) {
    const fn = 'Gpt2Model.run';
    rawOf(this, 'run');
    return this.#forward(fn, this.#encode(fn, text), options);
  }

  /** The ids of `text`, checked against n_positions. */
  #encode(fn, text) {
    if (typeof text !== 'string') throw new TypeError(`${fn}: text must be a string, got ${describe(text)}`);
    const { ids } = this.tokenizer.encode(text);
    if (ids.length === 0) throw new RangeError(`${fn}: text has no tokens`);
    if (ids.length > this.config.n_positions)
      throw new RangeError(
        `${fn}: text is ${ids.length} tokens, more than the model's n_positions = ${this.config.n_positions}`,
      );
    return ids;
  }

  /**
   * What one head computed on `text`, to explain its weights down to q·k: its queries,
   * keys and values (T x d_k float32 Matrices, as the model's attention op read them).
   * Costs nothing until called: it reads the layer's ln_1 and c_attn weights again from
   * model.safetensors (the Blob/File, buffer or URL the model was opened from), runs the
   * model, and applies ln_1 and the head's columns of c_attn with the core's ops.
   * @param {string} text
   * @param {{ layer: number, head: number, signal?: AbortSignal }} options
   */
  async explainHead(text, options) {
    const fn = 'Gpt2Model.explainHead';
    rawOf(this, 'explainHead');
    const ids = this.#encode(fn, text);
    const { layer, head, signal } = readOptions(options, ['layer', 'head', 'signal'], fn);
    const { n_layer, n_head, n_embd } = this.config;
    requireInteger(layer, fn, 'options.layer', 0, n_layer - 1);
    requireInteger(head, fn, 'options.head', 0, n_head - 1);
    const w = await readHeadWeights(this, this.config, layer, head, fn, signal);
    const raw = rawOf(this, 'explainHead'); // deleted while the weights were read?
    const core = coreOf(this);
    const dk = n_embd / n_head;
    const T = ids.length;
    return withHeap(
      core,
      fn,
      (heap) => {
        forwardIn(raw, heap, ids, fn);
        const vector = (v, name) => heap.matrix({ rows: 1, cols: v.length, data: v }, name);
        const out = heap.output(T, 3 * dk, 'q | k | v');
        throwForStatus(
          core,
          raw.headInputs(
            layer,
            vector(w.gamma, 'ln_1.weight'),
            vector(w.beta, 'ln_1.bias'),
            heap.matrix({ rows: n_embd, cols: 3 * dk, data: w.weight }, 'c_attn columns'),
            vector(w.bias, 'c_attn bias'),
            out,
          ),
          fn,
        );
        const qkv = heap.read(out);
        const part = (p) => {
          const m = new Float32Array(T * dk);
          for (let i = 0; i < T; i++) m.set(qkv.subarray(i * 3 * dk + p * dk, i * 3 * dk + (p + 1) * dk), i * dk);
          return new Matrix(T, dk, m);
        };
        return { tokens: ids.map((id) => this.#text(id)), ids, q: part(0), k: part(1), v: part(2) };
      },
      'float32',
    );
  }

  /**
   * Runs the model on token ids: every layer's and head's attention weights and
   * the next token's most likely continuations.
   * @param {ArrayLike<number>} ids 1 to n_positions ids in [0, vocab_size)
   * @param {{ k?: number, logits?: boolean }} [options] k: how many next tokens (default 10);
   *   logits: also return the last position's logits
   */
  runIds(ids, options) {
    const fn = 'Gpt2Model.runIds';
    rawOf(this, 'runIds');
    const { n_positions, vocab_size } = this.config;
    return this.#forward(fn, checkIds(ids, fn, n_positions, 'n_positions', vocab_size), options);
  }

  #forward(fn, ids, options) {
    rawOf(this, fn.slice(fn.indexOf('.') + 1));
    const { n_layer, n_head, vocab_size } = this.config;
    const { k = Math.min(10, vocab_size), logits = false } = readOptions(options, ['k', 'logits'], fn);
    requireInteger(k, fn, 'options.k', 1, vocab_size);
    const T = ids.length;
    return inForwardScope(this, fn, n_head, T, (raw, heap, maps) => {
      const last = heap.output(1, vocab_size, 'probabilities');
      forwardIn(raw, heap, ids, fn);
      const attentions = attentionsOf(raw, heap, maps, n_layer, n_head, T);
      raw.copyLast(0, last);
      const next = topTokens(heap.read(last), k, (id) => this.#text(id), fn);
      const tokens = ids.map((id) => this.#text(id));
      const result = { tokens, ids, attentions, next };
      if (logits) {
        raw.copyLast(1, last);
        result.logits = heap.read(last);
      }
      return result;
    });
  }
}
