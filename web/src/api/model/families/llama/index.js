// The Llama family's registry row (open.js reads it): Llama 2 and 3, TinyLlama,
// SmolLM/SmolLM2 folders (config.json's model_type 'llama'), run by the core's
// rotary decoder `_LlamaModel` (cpp/models/families/llama/). What it shares with
// Qwen and Gemma: ../../rotary_family.js. Defaults: Hugging Face's LlamaConfig.
import { rotaryFamily } from '../../rotary_family.js';

export default rotaryFamily({
  family: 'llama',
  kind: 'LlamaModel',
  modelTypes: ['llama'],
  defaults: {
    num_hidden_layers: 32,
    num_attention_heads: 32,
    hidden_size: 4096,
    intermediate_size: 11008,
    vocab_size: 32000,
    max_position_embeddings: 2048,
    rms_norm_eps: 1e-6,
    rope_theta: 10000,
    hidden_act: 'silu',
    tie_word_embeddings: false,
  },
  // attention_bias: on q, k, v and o_proj alike
  qkvBias: (config) => config.attention_bias,
  outputBias: (config) => config.attention_bias,
});
