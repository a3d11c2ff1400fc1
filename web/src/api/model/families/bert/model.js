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
import {
  attentionsOf,
  checkIds,
  CheckpointModel,
  inForwardScope,
  int32At,
  isIdList,
  refuseLongText,
  topTokens,
} from '../../base_model.js';
import { softmaxOf } from '../../top-k.js';

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
    if (typeof text !== 'string') throw new TypeError(`${fn}: text must be a string, got ${describe(text)}`);
    const { pair, ...rest } = readOptions(options, ['pair', 'k', 'logits'], fn);
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
