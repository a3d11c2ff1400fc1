// The attention shapes of real checkpoints, as their config.json files state
// them, for the cache's bytes per token (no DOM). Each entry names the file it
// comes from; `bytes` is the size of one stored number in the checkpoint's dtype.
export const CONFIGS = [
  {
    // openai-community/gpt2 config.json (and OpenAI's hparams.json for the 124M model): n_layer 12,
    // n_head 12, n_embd 768 (head_dim 768 / 12);
    // no torch_dtype: the checkpoint's tensors are float32. Plain multi-head: every head has its own K/V.
    id: 'gpt2',
    name: 'GPT-2 small',
    source: 'openai-community/gpt2',
    layers: 12,
    heads: 12,
    kvHeads: 12,
    headDim: 64,
    dtype: 'float32',
    bytes: 4,
  },
  {
    // HuggingFaceTB/SmolLM2-135M config.json: num_hidden_layers 30, num_attention_heads 9,
    // num_key_value_heads 3, head_dim 64 (hidden_size 576), torch_dtype bfloat16.
    id: 'smollm2-135m',
    name: 'SmolLM2-135M',
    source: 'HuggingFaceTB/SmolLM2-135M',
    layers: 30,
    heads: 9,
    kvHeads: 3,
    headDim: 64,
    dtype: 'bfloat16',
    bytes: 2,
  },
  {
    // Qwen/Qwen3-0.6B config.json: num_hidden_layers 28, num_attention_heads 16,
    // num_key_value_heads 8, head_dim 128 (wider than hidden_size 1024 / 16), torch_dtype bfloat16.
    id: 'qwen3-0.6b',
    name: 'Qwen3-0.6B',
    source: 'Qwen/Qwen3-0.6B',
    layers: 28,
    heads: 16,
    kvHeads: 8,
    headDim: 128,
    dtype: 'bfloat16',
    bytes: 2,
  },
  {
    // google/gemma-3-270m config.json: num_hidden_layers 18, num_attention_heads 4,
    // num_key_value_heads 1, head_dim 256 (hidden_size 640); stored in bfloat16 like the other
    // Gemma 3 checkpoints (their configs' dtype);
    // 15 of its 18 layers attend within a sliding window of 512 (layer_types), counted here as full.
    id: 'gemma-3-270m',
    name: 'Gemma-3-270m',
    source: 'google/gemma-3-270m',
    layers: 18,
    heads: 4,
    kvHeads: 1,
    headDim: 256,
    dtype: 'bfloat16',
    bytes: 2,
  },
  {
    // meta-llama/Llama-3.2-1B config.json: num_hidden_layers 16, num_attention_heads 32,
    // num_key_value_heads 8, head_dim 64 (hidden_size 2048), torch_dtype bfloat16.
    id: 'llama-3.2-1b',
    name: 'Llama-3.2-1B',
    source: 'meta-llama/Llama-3.2-1B',
    layers: 16,
    heads: 32,
    kvHeads: 8,
    headDim: 64,
    dtype: 'bfloat16',
    bytes: 2,
  },
];

/** Bytes the cache holds per token: a key and a value of headDim numbers, per K/V head, per layer. */
export const bytesPerToken = ({ layers, kvHeads, headDim, bytes }) => 2 * layers * kvHeads * headDim * bytes;

/**
 * The attention shape of an opened model from its config (config.json's names:
 * GPT-2's n_layer/n_head/n_embd, or num_hidden_layers, num_attention_heads,
 * num_key_value_heads, head_dim), held as this page holds it (float32), or null.
 */
export function configShape(config) {
  if (!config || typeof config !== 'object') return null;
  const layers = config.num_hidden_layers ?? config.n_layer;
  const heads = config.num_attention_heads ?? config.n_head;
  const width = config.hidden_size ?? config.n_embd;
  const kvHeads = config.num_key_value_heads ?? heads;
  const headDim = config.head_dim ?? (width && heads ? width / heads : undefined);
  const whole = [layers, heads, kvHeads, headDim].every((x) => Number.isSafeInteger(x) && x > 0);
  return whole ? { layers, heads, kvHeads, headDim, dtype: 'float32', bytes: 4 } : null;
}
