// The Qwen2 family's registry row (open.js reads it): Qwen2 and Qwen2.5 folders
// (config.json's model_type 'qwen2'), run by the core's rotary decoder
// `_LlamaModel` (cpp/models/families/llama/) with q, k, v biases (always: Qwen2Attention
// has them, o_proj none). Shared code: ../../rotary_family.js. Defaults: Qwen2Config.
import { qwenLayerTypes, rotaryFamily } from '../../rotary_family.js';

export default rotaryFamily({
  family: 'qwen2',
  kind: 'Qwen2Model',
  modelTypes: ['qwen2'],
  defaults: {
    num_hidden_layers: 32,
    num_attention_heads: 32,
    num_key_value_heads: 32,
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
  qkvBias: () => true,
  outputBias: () => false,
});
