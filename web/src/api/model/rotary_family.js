// What the rotary decoder families share (families/llama, qwen2, qwen3, gemma3:
// each folder's index.js is rotaryFamily(...) with its model types and the
// defaults of its Hugging Face configuration_*.py): config.json read by field
// name, the flags the core's one decoder (`_LlamaModel`,
// cpp/models/families/llama/) takes, the tokenizer, generation_config.json, and
// the model class with explainHead. The families differ only in data.
import { describe, isPlainObject, readOptions, requireInteger, throwForStatus } from '../errors.js';
import { rawOf } from '../handle.js';
import { withHeap } from '../heap.js';
import { Matrix } from '../matrix.js';
import { loadTokenizerAsync } from '../tokenizer/index.js';
import { coreOf } from './base_model.js';
import { CausalModel, encodeText, eosIdOf, eosIds, forwardIn, tokenText } from './causal_model.js';
import { MAX_LAYERS, requireSize } from './config.js';
import { readJson } from './source.js';

/** rope_scaling's types the core computes (Hugging Face's names; 'default' is none), by the core's number. */
const ROPE_TYPES = Object.freeze({ default: 0, linear: 1, llama3: 2 });
/** The gated MLP's activations (hidden_act / hidden_activation) and whether each is the tanh GELU. */
const GATE_ACTIVATIONS = Object.freeze({ silu: false, gelu_pytorch_tanh: true });

/** config[key] (or `fallback` when absent), a number passing `test`; `where` prefixes the field ('rope_scaling.'). */
function requireNumber(config, key, fn, fallback, test, what, where = '') {
  const value = config[key] ?? fallback;
  if (typeof value !== 'number')
    throw new TypeError(`${fn}: config.json's ${where}${key} must be a number, got ${describe(value)}`);
  if (!test(value)) throw new RangeError(`${fn}: config.json's ${where}${key} must be ${what}, got ${value}`);
  return value;
}

function requireFlag(config, key, fn, fallback) {
  const value = config[key] ?? fallback;
  if (typeof value !== 'boolean')
    throw new TypeError(`${fn}: config.json's ${key} must be true or false, got ${describe(value)}`);
  return value;
}

const finite = (x) => Number.isFinite(x);
const positive = (x) => x > 0 && Number.isFinite(x);

/** rope_scaling, checked: null, or { rope_type, factor, ... } of a type the core computes. */
function readRopeScaling(config, fn) {
  const scaling = config.rope_scaling ?? null;
  if (scaling === null) return null;
  if (!isPlainObject(scaling))
    throw new TypeError(`${fn}: config.json's rope_scaling must be an object or null, got ${describe(scaling)}`);
  const type = scaling.rope_type ?? scaling.type ?? 'default';
  if (!Object.hasOwn(ROPE_TYPES, type))
    throw new RangeError(
      `${fn}: config.json's rope_scaling.rope_type is ${JSON.stringify(type)}; known: ${Object.keys(ROPE_TYPES).join(', ')}`,
    );
  if (type === 'default') return null;
  const field = (key, fallback, test, what) => requireNumber(scaling, key, fn, fallback, test, what, 'rope_scaling.');
  const factor = field('factor', undefined, (x) => x >= 1 && finite(x), 'a finite number >= 1');
  if (type === 'linear') return Object.freeze({ rope_type: type, factor });
  const low_freq_factor = field('low_freq_factor', 1, positive, 'a finite number > 0');
  const high_freq_factor = field(
    'high_freq_factor',
    4,
    (x) => x > low_freq_factor && finite(x),
    'above low_freq_factor',
  );
  const original_max_position_embeddings = field(
    'original_max_position_embeddings',
    8192,
    (x) => Number.isInteger(x) && x >= 1 && x < 2 ** 31,
    'an integer >= 1',
  );
  return Object.freeze({
    rope_type: type,
    factor,
    low_freq_factor,
    high_freq_factor,
    original_max_position_embeddings,
  });
}

/**
 * Each layer's attention ('sliding_attention' or 'full_attention') as the family's
 * `rule` gives it (layer_types, or the family's default), checked; null: none slides.
 */
function readLayerTypes(config, layers, fn, rule) {
  const types = rule(config, layers);
  if (types === null) return null;
  if (!Array.isArray(types) || types.length !== layers)
    throw new RangeError(
      `${fn}: config.json's layer_types must list num_hidden_layers = ${layers} entries, got ${describe(types)}`,
    );
  types.forEach((t, l) => {
    if (t !== 'sliding_attention' && t !== 'full_attention')
      throw new RangeError(
        `${fn}: config.json's layer_types[${l}] is ${JSON.stringify(t)}; known: sliding_attention, full_attention`,
      );
  });
  return Object.freeze([...types]);
}

/**
 * The config reader of a family: config.json's fields by name, `defaults` (the
 * family's configuration_*.py) for the absent ones, checked.
 */
function configReader({ modelTypes, defaults, layerTypes, gemma }) {
  return function readConfig(json, fn) {
    if (!isPlainObject(json)) throw new TypeError(`${fn}: config.json must hold a JSON object, got ${describe(json)}`);
    let config = /** @type {Record<string, any>} */ (json);
    if (!modelTypes.includes(config.model_type))
      throw new RangeError(`${fn}: config.json's model_type is ${JSON.stringify(config.model_type)}`);
    const model_type = config.model_type;
    if (model_type === 'gemma3') {
      // Gemma 3's image-text checkpoints keep the text model's config in text_config.
      if (!isPlainObject(config.text_config))
        throw new TypeError(`${fn}: config.json's model_type is 'gemma3' but it has no text_config object`);
      config = config.text_config;
    }
    const size = (key) => requireSize(config, key, fn, defaults[key]);
    const num_hidden_layers = size('num_hidden_layers');
    if (num_hidden_layers > MAX_LAYERS)
      throw new RangeError(
        `${fn}: config.json's num_hidden_layers must be at most ${MAX_LAYERS}, got ${num_hidden_layers}`,
      );
    const num_attention_heads = size('num_attention_heads');
    const hidden_size = size('hidden_size');
    const num_key_value_heads = requireSize(
      config,
      'num_key_value_heads',
      fn,
      defaults.num_key_value_heads ?? num_attention_heads,
    );
    if (num_attention_heads % num_key_value_heads !== 0)
      throw new RangeError(
        `${fn}: config.json's num_key_value_heads = ${num_key_value_heads} does not divide num_attention_heads = ${num_attention_heads}`,
      );
    const head_dim = requireSize(
      config,
      'head_dim',
      fn,
      defaults.head_dim ?? Math.floor(hidden_size / num_attention_heads),
    );
    if (head_dim % 2 !== 0)
      throw new RangeError(
        `${fn}: config.json's head_dim must be even (RoPE turns pairs of coordinates), got ${head_dim}`,
      );
    const activationKey = gemma ? 'hidden_activation' : 'hidden_act';
    const activation = config[activationKey] ?? (gemma ? config.hidden_act : undefined) ?? defaults[activationKey];
    if (!Object.hasOwn(GATE_ACTIVATIONS, activation))
      throw new RangeError(
        `${fn}: config.json's ${activationKey} is ${JSON.stringify(activation)}; known: ${Object.keys(GATE_ACTIVATIONS).join(', ')}`,
      );
    const sliding_window = config.sliding_window ?? null;
    const layer_types = readLayerTypes(config, num_hidden_layers, fn, layerTypes);
    if (layer_types?.includes('sliding_attention')) requireSize(config, 'sliding_window', fn, defaults.sliding_window);
    const read = {
      model_type,
      num_hidden_layers,
      num_attention_heads,
      num_key_value_heads,
      hidden_size,
      head_dim,
      intermediate_size: size('intermediate_size'),
      vocab_size: size('vocab_size'),
      max_position_embeddings: size('max_position_embeddings'),
      rms_norm_eps: requireNumber(config, 'rms_norm_eps', fn, defaults.rms_norm_eps, positive, 'a finite number > 0'),
      rope_theta: requireNumber(
        config,
        'rope_theta',
        fn,
        defaults.rope_theta,
        (x) => x > 1 && finite(x),
        'a finite number > 1',
      ),
      rope_scaling: readRopeScaling(config, fn),
      [activationKey]: activation,
      tie_word_embeddings: requireFlag(config, 'tie_word_embeddings', fn, defaults.tie_word_embeddings),
      attention_bias: requireFlag(config, 'attention_bias', fn, false),
      mlp_bias: requireFlag(config, 'mlp_bias', fn, false),
      sliding_window: layer_types?.includes('sliding_attention') ? (sliding_window ?? defaults.sliding_window) : null,
      layer_types,
      eos_token_id: eosIdOf(config.eos_token_id ?? json.eos_token_id ?? null, fn),
    };
    if (gemma) {
      if (config.use_bidirectional_attention === true)
        throw new RangeError(
          `${fn}: config.json's use_bidirectional_attention is true; this reader runs Gemma 3 causal`,
        );
      if ((config.attn_logit_softcapping ?? null) !== null)
        throw new RangeError(
          `${fn}: config.json's attn_logit_softcapping is ${config.attn_logit_softcapping}; Gemma 3 uses none, and this reader computes none`,
        );
      const cap = config.final_logit_softcapping ?? null;
      Object.assign(read, {
        query_pre_attn_scalar: requireNumber(
          config,
          'query_pre_attn_scalar',
          fn,
          256,
          (x) => x >= 1 && finite(x),
          'a finite number >= 1',
        ),
        rope_local_base_freq: requireNumber(
          config,
          'rope_local_base_freq',
          fn,
          10000,
          (x) => x > 1 && finite(x),
          'a finite number > 1',
        ),
        final_logit_softcapping:
          cap === null
            ? null
            : requireNumber(config, 'final_logit_softcapping', fn, null, positive, 'a finite number > 0 or null'),
      });
    }
    return Object.freeze(read);
  };
}

/** configure()'s object for the core's `_LlamaModel` (cpp/models/families/llama/binding.cpp). */
function coreConfigOf(config, { qkvBias, outputBias, qkNorm, gemma }) {
  const scaling = config.rope_scaling;
  return {
    num_hidden_layers: config.num_hidden_layers,
    num_attention_heads: config.num_attention_heads,
    num_key_value_heads: config.num_key_value_heads,
    hidden_size: config.hidden_size,
    head_dim: config.head_dim,
    intermediate_size: config.intermediate_size,
    vocab_size: config.vocab_size,
    max_position_embeddings: config.max_position_embeddings,
    rms_norm_eps: config.rms_norm_eps,
    rope_theta: config.rope_theta,
    rope_scaling_type: scaling ? ROPE_TYPES[scaling.rope_type] : 0,
    rope_scaling_factor: scaling?.factor ?? 1,
    low_freq_factor: scaling?.low_freq_factor ?? 1,
    high_freq_factor: scaling?.high_freq_factor ?? 4,
    original_max_position_embeddings: scaling?.original_max_position_embeddings ?? 8192,
    rope_local_base_freq: gemma ? config.rope_local_base_freq : 0,
    sliding_window: config.sliding_window ?? 0,
    sliding_layers: (config.layer_types ?? []).map((t) => (t === 'sliding_attention' ? '1' : '0')).join(''),
    query_pre_attn_scalar: gemma ? config.query_pre_attn_scalar : 0,
    final_logit_softcapping: (gemma && config.final_logit_softcapping) || 0,
    attention_bias: qkvBias(config),
    output_bias: outputBias(config),
    mlp_bias: config.mlp_bias,
    qk_norm: qkNorm,
    norm_offset: gemma,
    sandwich_norms: gemma,
    embed_scale: gemma,
    gelu_tanh: GATE_ACTIVATIONS[gemma ? config.hidden_activation : config.hidden_act],
    // Hugging Face ties lm_head to embed_tokens when tie_word_embeddings (a stored copy is
    // then unused), else loads lm_head.weight, which must be stored
    lm_head: !config.tie_word_embeddings,
  };
}

/**
 * What the model keeps of generation_config.json (null without it): its token ids
 * (m.generationConfig) and generate's default temperature (its temperature when
 * do_sample is true, else 0: greedy).
 */
async function readGeneration(files, fn, signal) {
  if (files['generation_config.json'] === undefined) return null;
  const json = await readJson(files['generation_config.json'], fn, 'generation_config.json', signal);
  if (!isPlainObject(json)) return null;
  const ids = (v) =>
    Number.isInteger(v) ? v : Array.isArray(v) && v.every(Number.isInteger) ? Object.freeze([...v]) : null;
  const t = json.temperature;
  return {
    generationConfig: Object.freeze({ bos_token_id: ids(json.bos_token_id), eos_token_id: ids(json.eos_token_id) }),
    temperature: json.do_sample === true ? (Number.isFinite(t) && t >= 0 ? t : 1) : 0,
  };
}

/** The model class of the rotary families; `kind` names it in messages. */
export class RotaryModel extends CausalModel {
  #kind;

  /** @internal */
  constructor(core, raw, kind, family, config, tokenizer, weights, extras) {
    const generation = extras?.generationConfig ?? null;
    super(core, raw, kind, family, config, tokenizer, weights, {
      layers: config.num_hidden_layers,
      heads: config.num_attention_heads,
      vocab: config.vocab_size,
      positions: config.max_position_embeddings,
      positionsName: 'max_position_embeddings',
      // generate's defaults: generation_config.json's, else config.json's EOS and greedy
      stop: eosIds(generation?.eos_token_id ?? config.eos_token_id),
      temperature: extras?.temperature ?? 0,
    });
    /** generation_config.json's bos_token_id and eos_token_id, or null without that file. */
    this.generationConfig = generation;
    this.#kind = kind;
  }

  /**
   * What one query head computed on `text`: its queries and its kv head's keys and
   * values (T x head_dim float32 Matrices), q and k before RoPE (after the QK-norm where
   * the family has one) and rotated, as the attention op read them; the weights are
   * softmax(qRotated kRotatedᵀ · scale), causal (and windowed on sliding layers).
   * Recomputed in the core from the layer's input of a forward pass over `text`.
   * @param {string} text
   * @param {{ layer: number, head: number, signal?: AbortSignal }} options
   */
  async explainHead(text, options) {
    const fn = `${this.#kind}.explainHead`;
    rawOf(this, 'explainHead');
    const ids = encodeText(this, fn, text);
    const { layer, head } = readOptions(options, ['layer', 'head', 'signal'], fn);
    const c = this.config;
    requireInteger(layer, fn, 'options.layer', 0, c.num_hidden_layers - 1);
    requireInteger(head, fn, 'options.head', 0, c.num_attention_heads - 1);
    const raw = rawOf(this, 'explainHead');
    const core = coreOf(this);
    const hd = c.head_dim;
    const T = ids.length;
    const sliding = c.layer_types?.[layer] === 'sliding_attention';
    return withHeap(
      core,
      fn,
      (heap) => {
        forwardIn(raw, heap, ids, fn);
        const out = heap.output(T, 5 * hd, 'q | k | v | qRotated | kRotated');
        throwForStatus(core, raw.headInputs(layer, head, out), fn);
        const all = heap.read(out);
        const part = (p) => {
          const m = new Float32Array(T * hd);
          for (let i = 0; i < T; i++) m.set(all.subarray(i * 5 * hd + p * hd, i * 5 * hd + (p + 1) * hd), i * hd);
          return new Matrix(T, hd, m);
        };
        return {
          tokens: ids.map((id) => tokenText(this, id)),
          ids,
          q: part(0),
          k: part(1),
          v: part(2),
          qRotated: part(3),
          kRotated: part(4),
          kvHead: Math.floor((head * c.num_key_value_heads) / c.num_attention_heads),
          scale: (c.query_pre_attn_scalar ?? hd) ** -0.5,
          window: sliding ? c.sliding_window : null,
        };
      },
      'float32',
    );
  }
}

/**
 * A rotary family's registry row (open.js reads it).
 * @param {{ family: string, kind: string, modelTypes: string[], prefixes?: string[],
 *   defaults: Record<string, any>, layerTypes?: (config: any, layers: number) => string[] | null,
 *   qkvBias: (config: any) => boolean, outputBias: (config: any) => boolean, qkNorm?: boolean, gemma?: boolean }} spec
 */
export function rotaryFamily(spec) {
  const { family, kind, modelTypes, qkNorm = false, gemma = false } = spec;
  const layerTypes = spec.layerTypes ?? (() => null); // Llama: no sliding layers
  const Model = {
    [kind]: class extends RotaryModel {
      /** @internal */
      constructor(core, raw, config, tokenizer, weights, extras) {
        super(core, raw, kind, family, config, tokenizer, weights, extras ?? null);
      }
    },
  }[kind];
  return Object.freeze({
    family,
    modelTypes,
    /** Hugging Face's names: "model." (…ForCausalLM) and lm_head.weight at the top. */
    prefixes: spec.prefixes ?? ['model.'],
    readConfig: configReader({ modelTypes, defaults: spec.defaults, layerTypes, gemma }),
    tokenizerFiles: ['tokenizer.json'],
    /** Byte-level BPE from tokenizer.json (its tables built in slices: `signal` lands). */
    async openTokenizer(files, fn, signal) {
      if (files['tokenizer.json'] === undefined) throw new TypeError(`${fn}: files needs 'tokenizer.json'`);
      return loadTokenizerAsync(
        { 'tokenizer.json': await readJson(files['tokenizer.json'], fn, 'tokenizer.json', signal) },
        signal,
      );
    },
    /** What the model keeps of the folder's other files: generation_config.json's token ids and temperature. */
    readExtras: readGeneration,
    coreClass: '_LlamaModel',
    coreConfig: (config) => coreConfigOf(config, { qkvBias: spec.qkvBias, outputBias: spec.outputBias, qkNorm, gemma }),
    Model,
  });
}

/**
 * Qwen2's and Qwen3's layers: sliding only with use_sliding_window (else Hugging Face
 * sets no window), as layer_types lists them or from max_window_layers on.
 */
export function qwenLayerTypes(config, layers) {
  if (!(config.use_sliding_window ?? false)) return null;
  const first = config.max_window_layers ?? 28;
  return (
    config.layer_types ??
    Array.from({ length: layers }, (_, l) => (l >= first ? 'sliding_attention' : 'full_attention'))
  );
}
