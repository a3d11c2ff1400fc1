// A BERT opened from Hugging Face files (open.js): its weights live in the wasm
// core (cpp/models/families/bert/) inside a `_BertModel` that the base
// (base_model.js) owns. Every result is a JS copy. config: the checked
// config.json fields (num_hidden_layers, num_attention_heads, hidden_size, ...);
// tokenizer: WordPiece, from tokenizer.json (or vocab.txt).
//
// BERT reads the whole text at once: every token attends to every token (no
// causal mask), and a [MASK] written in the text is predicted from both sides.
import { isDetached } from '../../../detached.js';
import { describe, readOptions, requireBoolean, requireInteger, throwForStatus } from '../../../errors.js';
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
  isIdList,
  refuseLongText,
  topTokens,
} from '../../base_model.js';
import { softmaxOf } from '../../top-k.js';
import { readHeadWeights } from './head_weights.js';

export class Bert extends CheckpointModel {
  /** @internal */
  constructor(core, raw, config, tokenizer, weights) {
    super(core, raw, 'BertModel', 'bert', config, tokenizer, weights);
    /** True when the checkpoint has the masked-LM head (BertForMaskedLM): run() predicts each [MASK]. */
    this.maskedLm = raw.parameter(raw.parameterCount() - 1) === `cls.predictions.bias 1 ${config.vocab_size}`;
  }

  /**
   * Tokenizes `text` ([CLS] text [SEP], or with `options.pair` [CLS] text [SEP] pair [SEP],
   * token types 0 then 1) and runs the model (see runIds).
   * @param {string} text
   * @param {{ pair?: string, k?: number, logits?: boolean }} [options]
   */
  run(text, options) {
    const fn = 'BertModel.run';
    rawOf(this, 'run');
    const { pair, ...rest } = readOptions(options, ['pair', 'k', 'logits'], fn);
    const { ids, typeIds } = this.#encode(fn, text, pair);
    return this.#forward(fn, ids, typeIds, rest);
  }

  /** [CLS] text [SEP] (pair [SEP]) as ids and token types, checked against max_position_embeddings. */
  #encode(fn, text, pair) {
    if (typeof text !== 'string') throw new TypeError(`${fn}: text must be a string, got ${describe(text)}`);
    if (pair !== undefined && typeof pair !== 'string')
      throw new TypeError(`${fn}: options.pair must be a string, got ${describe(pair)}`);
    const most = this.config.max_position_embeddings;
    const texts = pair === undefined ? [text] : [text, pair];
    refuseLongText(this.tokenizer, fn, texts, texts.length + 1, most, 'max_position_embeddings');
    const { ids, typeIds } = this.tokenizer.encode(text, pair);
    if (ids.length > most)
      throw new RangeError(
        `${fn}: text is ${ids.length} tokens with [CLS] and [SEP], more than the model's max_position_embeddings = ${most}`,
      );
    return { ids, typeIds };
  }

  /**
   * What one head computed on `text` (and `options.pair`, as run() reads them), to explain
   * its weights down to q·k: x (T x hidden_size, the layer's input: the previous layer's
   * output after its LayerNorm, or the embeddings' for layer 0), the head's weight columns
   * wq, wk, wv (hidden_size x d_k: its rows of query, key, value transposed, so q = x wq +
   * bq as in GPT-2's explainHead) and biases bq, bk, bv (1 x d_k), its queries, keys and
   * values q, k, v (T x d_k float32 Matrices) and the scores' scale 1/√d_k: the weights are
   * softmax(q kᵀ · scale) over every key (no mask). The weights are read again from the
   * model file (checked against what openModel read); x comes from a forward pass.
   * @param {string} text
   * @param {{ layer: number, head: number, pair?: string, signal?: AbortSignal }} options
   */
  async explainHead(text, options) {
    const fn = 'BertModel.explainHead';
    rawOf(this, 'explainHead');
    const { layer, head, pair, signal } = readOptions(options, ['layer', 'head', 'pair', 'signal'], fn);
    const { ids, typeIds } = this.#encode(fn, text, pair);
    const { num_hidden_layers: L, num_attention_heads: H, hidden_size: D } = this.config;
    requireInteger(layer, fn, 'options.layer', 0, L - 1);
    requireInteger(head, fn, 'options.head', 0, H - 1);
    const w = await readHeadWeights(this, this.config, layer, head, fn, signal);
    const raw = rawOf(this, 'explainHead'); // deleted while the weights were read?
    const core = coreOf(this);
    const dk = D / H;
    const T = ids.length;
    const width = D + 3 * dk;
    return withHeap(
      core,
      fn,
      (heap) => {
        throwForStatus(core, raw.forward(int32At(heap, ids, 'ids'), int32At(heap, typeIds, 'typeIds'), T), fn);
        const out = heap.output(T, width, 'x | q | k | v');
        const weight = heap.matrix({ rows: D, cols: 3 * dk, data: w.weight }, 'query | key | value columns');
        const bias = heap.matrix({ rows: 1, cols: 3 * dk, data: w.bias }, 'their biases');
        throwForStatus(core, raw.headInputs(layer, weight, bias, out), fn);
        const all = heap.read(out);
        const columns = (from, cols) => {
          const m = new Float32Array(T * cols);
          for (let i = 0; i < T; i++) m.set(all.subarray(i * width + from, i * width + from + cols), i * cols);
          return new Matrix(T, cols, m);
        };
        const weightOf = (p) => {
          const m = new Float32Array(D * dk);
          for (let r = 0; r < D; r++) m.set(w.weight.subarray(r * 3 * dk + p * dk, r * 3 * dk + (p + 1) * dk), r * dk);
          return new Matrix(D, dk, m);
        };
        const biasOf = (p) => new Matrix(1, dk, w.bias.slice(p * dk, (p + 1) * dk));
        const text = (id) => this.tokenizer.tokenText(id);
        return {
          tokens: ids.map(text),
          ids,
          typeIds,
          x: columns(0, D),
          q: columns(D, dk),
          k: columns(D + dk, dk),
          v: columns(D + 2 * dk, dk),
          wq: weightOf(0),
          wk: weightOf(1),
          wv: weightOf(2),
          bq: biasOf(0),
          bk: biasOf(1),
          bv: biasOf(2),
          scale: dk ** -0.5,
        };
      },
      'float32',
    );
  }

  /**
   * Runs the model on token ids: every layer's and head's attention weights and,
   * for a masked-LM checkpoint, the most likely tokens at each [MASK].
   * @param {ArrayLike<number>} ids 1 to max_position_embeddings ids in [0, vocab_size)
   * @param {{ typeIds?: ArrayLike<number>, k?: number, logits?: boolean }} [options] typeIds:
   *   each token's type in [0, type_vocab_size) (default all 0); k: how many predictions per
   *   [MASK] (default 10); logits: also return each [MASK]'s logits
   */
  runIds(ids, options) {
    const fn = 'BertModel.runIds';
    rawOf(this, 'runIds');
    const { max_position_embeddings: most, vocab_size, type_vocab_size } = this.config;
    const list = checkIds(ids, fn, most, 'max_position_embeddings', vocab_size);
    const { typeIds, ...rest } = readOptions(options, ['typeIds', 'k', 'logits'], fn);
    let types = list.map(() => 0);
    if (typeIds !== undefined) {
      if (!isIdList(typeIds)) throw new TypeError(`${fn}: options.typeIds must be an array, got ${describe(typeIds)}`);
      if (ArrayBuffer.isView(typeIds) && isDetached(typeIds.buffer))
        throw new TypeError(
          `${fn}: options.typeIds is ${describe(typeIds)} whose ArrayBuffer was detached (transferred)`,
        );
      if (typeIds.length !== list.length)
        throw new RangeError(`${fn}: options.typeIds has ${typeIds.length} entries but ids has ${list.length}`);
      types = Array.from(typeIds, (t, i) => requireInteger(t, fn, `options.typeIds[${i}]`, 0, type_vocab_size - 1));
    }
    return this.#forward(fn, list, types, rest);
  }

  #forward(fn, ids, types, { k = Math.min(10, this.config.vocab_size), logits = false }) {
    rawOf(this, fn.slice(fn.indexOf('.') + 1));
    const { num_hidden_layers: L, num_attention_heads: H, vocab_size: V } = this.config;
    requireInteger(k, fn, 'options.k', 1, V);
    requireBoolean(logits, fn, 'options.logits');
    const T = ids.length;
    const mask = this.tokenizer.idOf('[MASK]');
    const positions = this.maskedLm ? ids.flatMap((id, t) => (id === mask ? [t] : [])) : [];
    const text = (id) => this.tokenizer.tokenText(id);
    const tokens = ids.map(text);
    return inForwardScope(this, fn, H, T, (raw, heap, maps) => {
      throwForStatus(heap.core, raw.forward(int32At(heap, ids, 'ids'), int32At(heap, types, 'typeIds'), T), fn);
      const attentions = attentionsOf(raw, heap, maps, L, H, T);
      const masked = [];
      if (positions.length) {
        const at = int32At(heap, positions, 'positions');
        const out = heap.output(positions.length, V, 'logits');
        throwForStatus(heap.core, raw.predict(at, positions.length, out), fn);
        const all = heap.read(out);
        positions.forEach((position, i) => {
          const row = all.slice(i * V, (i + 1) * V);
          const top = topTokens(softmaxOf(row), k, text, fn);
          masked.push(logits ? { position, top, logits: row } : { position, top });
        });
      }
      return { tokens, ids, typeIds: types, attentions, masked };
    });
  }
}
