// A BERT opened from Hugging Face files (open.js): its weights live in the wasm
// core (cpp/models/bert_model.h) inside a `_BertModel` that this class owns
// (OwnedHandle: delete(), or reclaimed when dropped). Every result is a JS copy.
//
// BERT reads the whole text at once: every token attends to every token (no
// causal mask), and a [MASK] written in the text is predicted from both sides.
import { describe, readOptions, requireInteger, throwForStatus } from '../errors.js';
import { OwnedHandle, rawOf } from '../handle.js';
import { withHeap } from '../heap.js';
import { Matrix } from '../matrix.js';
import { softmaxOf, topK } from './top-k.js';

const isIdList = (x) => Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView));

export class Bert extends OwnedHandle {
  #core;

  /** @internal */
  constructor(core, raw, config, tokenizer) {
    super(raw, 'BertModel');
    this.#core = core;
    /** Which kind of model this is (openModel opens GPT-2 and BERT). */
    this.family = 'bert';
    /** The checked config.json fields (num_hidden_layers, num_attention_heads, hidden_size, ...). */
    this.config = config;
    /** The WordPiece tokenizer loaded from tokenizer.json (or vocab.txt). */
    this.tokenizer = tokenizer;
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
    if (typeof text !== 'string') throw new TypeError(`${fn}: text must be a string, got ${describe(text)}`);
    const { pair, ...rest } = readOptions(options, ['pair', 'k', 'logits'], fn);
    if (pair !== undefined && typeof pair !== 'string')
      throw new TypeError(`${fn}: options.pair must be a string, got ${describe(pair)}`);
    const { ids, typeIds } = this.tokenizer.encode(text, pair);
    const most = this.config.max_position_embeddings;
    if (ids.length > most)
      throw new RangeError(
        `${fn}: text is ${ids.length} tokens with [CLS] and [SEP], more than the model's max_position_embeddings = ${most}`,
      );
    return this.#forward(fn, ids, typeIds, rest);
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
    if (!isIdList(ids)) throw new TypeError(`${fn}: ids must be an array of integers, got ${describe(ids)}`);
    const { max_position_embeddings: most, vocab_size, type_vocab_size } = this.config;
    if (ids.length < 1 || ids.length > most)
      throw new RangeError(`${fn}: ids has ${ids.length} tokens but must have 1 to max_position_embeddings = ${most}`);
    const list = Array.from(ids, (id, i) => requireInteger(id, fn, `ids[${i}]`, 0, vocab_size - 1));
    const { typeIds, ...rest } = readOptions(options, ['typeIds', 'k', 'logits'], fn);
    let types = list.map(() => 0);
    if (typeIds !== undefined) {
      if (!isIdList(typeIds)) throw new TypeError(`${fn}: options.typeIds must be an array, got ${describe(typeIds)}`);
      if (typeIds.length !== list.length)
        throw new RangeError(`${fn}: options.typeIds has ${typeIds.length} entries but ids has ${list.length}`);
      types = Array.from(typeIds, (t, i) => requireInteger(t, fn, `options.typeIds[${i}]`, 0, type_vocab_size - 1));
    }
    return this.#forward(fn, list, types, rest);
  }

  #forward(fn, ids, types, { k = Math.min(10, this.config.vocab_size), logits = false }) {
    const raw = rawOf(this, fn.slice(fn.indexOf('.') + 1));
    const core = this.#core;
    const { num_hidden_layers: L, num_attention_heads: H, vocab_size: V } = this.config;
    requireInteger(k, fn, 'options.k', 1, V);
    const T = ids.length;
    const mask = this.tokenizer.idOf('[MASK]');
    const positions = this.maskedLm ? ids.flatMap((id, t) => (id === mask ? [t] : [])) : [];
    const tokens = ids.map((id) => this.tokenizer.tokenText(id));
    return withHeap(
      core,
      fn,
      (heap) => {
        const idsAt = heap.allocBytes(4 * T, `ids (${T})`);
        const typesAt = heap.allocBytes(4 * T, `typeIds (${T})`);
        new Int32Array(core.HEAPF64.buffer, idsAt, T).set(ids);
        new Int32Array(core.HEAPF64.buffer, typesAt, T).set(types);
        const maps = heap.output(H * T, T, 'attention');
        throwForStatus(core, raw.forward(idsAt, typesAt, T), fn);
        const attentions = [];
        for (let l = 0; l < L; l++) {
          raw.copyAttention(l, maps);
          const all = heap.read(maps);
          attentions.push(Array.from({ length: H }, (_, h) => new Matrix(T, T, all.slice(h * T * T, (h + 1) * T * T))));
        }
        const masked = [];
        if (positions.length) {
          const at = heap.allocBytes(4 * positions.length, `positions (${positions.length})`);
          new Int32Array(core.HEAPF64.buffer, at, positions.length).set(positions);
          const out = heap.output(positions.length, V, 'logits');
          throwForStatus(core, raw.predict(at, positions.length, out), fn);
          const all = heap.read(out);
          positions.forEach((position, i) => {
            const row = all.slice(i * V, (i + 1) * V);
            const p = softmaxOf(row);
            if (p.some(Number.isNaN))
              throw new RangeError(`${fn}: the logits overflow float32 (|x| > 3.4e38); the weights are too large`);
            const top = topK(p, k).map(({ id, p }) => ({ id, token: this.tokenizer.tokenText(id), p }));
            masked.push(logits ? { position, top, logits: row } : { position, top });
          });
        }
        return { tokens, ids, typeIds: types, attentions, masked };
      },
      'float32',
    );
  }
}
