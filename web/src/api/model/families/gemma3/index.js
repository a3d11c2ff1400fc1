// The Gemma 3 family's registry row (open.js reads it): Gemma 3 text folders
// (config.json's model_type 'gemma3_text': 270M, 1B; and 'gemma3' image-text
// folders, whose text_config and language-model tensors it reads), run by the
// core's rotary decoder `_LlamaModel` (cpp/models/families/llama/) with Gemma's
// parts: embeddings times sqrt(hidden_size), RMS weights as offsets from 1, four
// norms a layer, QK-norm, GeGLU, query_pre_attn_scalar, sliding layers on
// rope_local_base_freq, final_logit_softcapping. Shared code: ../../rotary_family.js.
// Defaults: Gemma3TextConfig.
import { rotaryFamily } from '../../rotary_family.js';

export default rotaryFamily({
  family: 'gemma3',
  kind: 'Gemma3Model',
  modelTypes: ['gemma3_text', 'gemma3'],
  prefixes: ['model.language_model.', 'language_model.model.', 'model.'],
  defaults: {
    num_hidden_layers: 26,
    num_attention_heads: 8,
    num_key_value_heads: 4,
    head_dim: 256,
    hidden_size: 2304,
    intermediate_size: 9216,
    vocab_size: 262208,
    max_position_embeddings: 131072,
    rms_norm_eps: 1e-6,
    rope_theta: 1000000,
    hidden_activation: 'gelu_pytorch_tanh',
    tie_word_embeddings: true,
    sliding_window: 4096,
  },
  // layer_types, or every sliding_window_pattern-th layer full (Gemma3TextConfig's rule, pattern 6)
  layerTypes: (config, layers) =>
    config.layer_types ??
    Array.from({ length: layers }, (_, l) =>
      (l + 1) % (config.sliding_window_pattern ?? config._sliding_window_pattern ?? 6)
        ? 'sliding_attention'
        : 'full_attention',
    ),
  qkNorm: true,
  gemma: true,
  qkvBias: (config) => config.attention_bias,
  outputBias: (config) => config.attention_bias,
});
