// config.json of the BERT family (Hugging Face's BertConfig): the fields the
// model needs, checked, with BertConfig's defaults for the optional ones.
import { describe, isPlainObject } from '../../../errors.js';
import { ACTIVATIONS, MAX_LAYERS, requireSize } from '../../config.js';

/**
 * The BERT configuration in `json` (parsed config.json of Hugging Face's BertConfig), checked.
 * @param {unknown} json
 * @param {string} fn public function name, for messages
 */
export function readBertConfig(json, fn) {
  if (!isPlainObject(json)) throw new TypeError(`${fn}: config.json must hold a JSON object, got ${describe(json)}`);
  const config = /** @type {Record<string, any>} */ (json);
  const num_hidden_layers = requireSize(config, 'num_hidden_layers', fn);
  if (num_hidden_layers > MAX_LAYERS)
    throw new RangeError(
      `${fn}: config.json's num_hidden_layers must be at most ${MAX_LAYERS}, got ${num_hidden_layers}`,
    );
  const num_attention_heads = requireSize(config, 'num_attention_heads', fn);
  const hidden_size = requireSize(config, 'hidden_size', fn);
  if (hidden_size % num_attention_heads !== 0)
    throw new RangeError(
      `${fn}: config.json's num_attention_heads = ${num_attention_heads} does not divide hidden_size = ${hidden_size}`,
    );
  const layer_norm_eps = config.layer_norm_eps ?? 1e-12;
  if (typeof layer_norm_eps !== 'number')
    throw new TypeError(`${fn}: config.json's layer_norm_eps must be a number, got ${describe(layer_norm_eps)}`);
  if (!(layer_norm_eps > 0) || !Number.isFinite(layer_norm_eps))
    throw new RangeError(`${fn}: config.json's layer_norm_eps must be a finite number > 0, got ${layer_norm_eps}`);
  const hidden_act = config.hidden_act ?? 'gelu';
  if (!Object.hasOwn(ACTIVATIONS, hidden_act))
    throw new RangeError(
      `${fn}: config.json's hidden_act is ${JSON.stringify(hidden_act)}; known: ${Object.keys(ACTIVATIONS).join(', ')}`,
    );
  return Object.freeze({
    model_type: 'bert',
    num_hidden_layers,
    num_attention_heads,
    hidden_size,
    intermediate_size: requireSize(config, 'intermediate_size', fn, 4 * hidden_size),
    max_position_embeddings: requireSize(config, 'max_position_embeddings', fn, 512),
    type_vocab_size: requireSize(config, 'type_vocab_size', fn, 2),
    vocab_size: requireSize(config, 'vocab_size', fn),
    layer_norm_eps,
    hidden_act,
  });
}
