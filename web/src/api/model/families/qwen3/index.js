// The Qwen3 family's registry row (open.js reads it): Qwen3 folders (config.json's
// model_type 'qwen3'), run by the core's rotary decoder `_LlamaModel`
// (cpp/models/families/llama/) with QK-norm (an RMS norm of every q and k head
// before RoPE). Shared code: ../../rotary_family.js. Defaults: Qwen3Config.
import { qwenLayerTypes, rotaryFamily } from '../../rotary_family.js';

export default rotaryFamily({
  family: 'qwen3',
  kind: 'Qwen3Model',
  modelTypes: ['qwen3'],
  defaults: {
    num_hidden_layers: 32,
    num_attention_heads: 32,
    num_key_value_heads: 32,
    head_dim: 128,
    hidden_size: 4096,
    intermediate_size: 22016,
    vocab_size: 151936,
    max_position_embeddings: 32768,
    rms_norm_eps: 1e-6,
    rope_theta: 10000,
    hidden_act: 'silu',
    tie_word_embeddings: false,
    sliding_window: 4096,
  },
  layerTypes: qwenLayerTypes,
  qkNorm: true,
  qkvBias: (config) => config.attention_bias,
  outputBias: (config) => config.attention_bias,
});
