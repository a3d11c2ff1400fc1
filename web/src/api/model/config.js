// config.json of the GPT-2 family (Hugging Face's GPT2Config): the fields the
// model needs, checked, with GPT2Config's defaults for the optional ones.
import { describe, isPlainObject } from '../errors.js';

/** activation_function values and the GELU form each names (Hugging Face's ACT2FN). */
export const ACTIVATIONS = Object.freeze({
  gelu_new: 'tanh',
  gelu_pytorch_tanh: 'tanh',
  gelu_fast: 'tanh',
  gelu: 'erf',
});

/** Largest n_layer, n_head, n_embd, n_positions, vocab_size, n_inner accepted (before any size check). */
const MAX_SIZE = 2 ** 24;
/** Most layers accepted (GPT-2 XL has 48; the core's limit too). */
const MAX_LAYERS = 4096;

function requireSize(config, key, fn, fallback) {
  const value = config[key] ?? fallback;
  if (value === undefined) throw new RangeError(`${fn}: config.json has no ${key}`);
  if (typeof value !== 'number')
    throw new TypeError(`${fn}: config.json's ${key} must be a number, got ${describe(value)}`);
  if (!Number.isInteger(value) || value < 1 || value > MAX_SIZE)
    throw new RangeError(`${fn}: config.json's ${key} must be an integer in [1, ${MAX_SIZE}], got ${value}`);
  return value;
}

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
  });
}

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
