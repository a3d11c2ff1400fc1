// config.json of the GPT-2 family (Hugging Face's GPT2Config): the fields the
// model needs, checked, with GPT2Config's defaults for the optional ones.
import { describe, isPlainObject } from '../../../errors.js';
import { eosIdOf } from '../../causal_model.js';
import { ACTIVATIONS, MAX_LAYERS, requireSize } from '../../config.js';

/**
 * The GPT-2 configuration in `json` (parsed config.json), checked.
 * @param {unknown} json
 * @param {string} fn public function name, for messages
 */
export function readGpt2Config(json, fn) {
  if (!isPlainObject(json)) throw new TypeError(`${fn}: config.json must hold a JSON object, got ${describe(json)}`);
  const config = /** @type {Record<string, any>} */ (json);
  if (config.model_type !== undefined && config.model_type !== 'gpt2')
    throw new RangeError(`${fn}: config.json's model_type is '${config.model_type}'; only 'gpt2' models open here`);
  const n_layer = requireSize(config, 'n_layer', fn);
  if (n_layer > MAX_LAYERS)
    throw new RangeError(`${fn}: config.json's n_layer must be at most ${MAX_LAYERS}, got ${n_layer}`);
  const n_head = requireSize(config, 'n_head', fn);
  const n_embd = requireSize(config, 'n_embd', fn);
  const n_positions = requireSize(config, 'n_positions', fn);
  const vocab_size = requireSize(config, 'vocab_size', fn);
  const n_inner = config.n_inner === null ? 4 * n_embd : requireSize(config, 'n_inner', fn, 4 * n_embd);
  if (n_embd % n_head !== 0)
    throw new RangeError(`${fn}: config.json's n_head = ${n_head} does not divide n_embd = ${n_embd}`);
  const layer_norm_epsilon = config.layer_norm_epsilon ?? 1e-5;
  if (typeof layer_norm_epsilon !== 'number')
    throw new TypeError(
      `${fn}: config.json's layer_norm_epsilon must be a number, got ${describe(layer_norm_epsilon)}`,
    );
  if (!(layer_norm_epsilon > 0) || !Number.isFinite(layer_norm_epsilon))
    throw new RangeError(
      `${fn}: config.json's layer_norm_epsilon must be a finite number > 0, got ${layer_norm_epsilon}`,
    );
  const activation_function = config.activation_function ?? 'gelu_new';
  if (!Object.hasOwn(ACTIVATIONS, activation_function))
    throw new RangeError(
      `${fn}: config.json's activation_function is ${JSON.stringify(activation_function)}; ` +
        `known: ${Object.keys(ACTIVATIONS).join(', ')}`,
    );
  return Object.freeze({
    model_type: 'gpt2',
    n_layer,
    n_head,
    n_embd,
    n_positions,
    vocab_size,
    n_inner,
    layer_norm_epsilon,
    activation_function,
    // generate's default stop ids (GPT2Config's default: 50256)
    eos_token_id: eosIdOf(config.eos_token_id ?? 50256, fn),
  });
}
