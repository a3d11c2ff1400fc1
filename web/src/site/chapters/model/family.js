// What the model chapter reads of a model's family, by config.json's names (no
// DOM): its sizes, whether it is causal, each layer's sliding window, the shared
// key/value heads, QK-norm and the score scale (the rotation's frequencies:
// explain/rotary.js, shared with the RoPE chapter).

/** Families whose heads normalise q and k (RMSNorm per head, q_norm and k_norm) before the rotation. */
const QK_NORM = ['qwen3', 'gemma3'];

/**
 * What the chapter needs of a model, by config.json's names (GPT-2's n_layer …, BERT's and
 * the Llama-like families' num_hidden_layers …): sizes, whether it is causal, each layer's
 * sliding window (layer_types, sliding_window), the shared key/value heads
 * (num_key_value_heads), QK-norm and the score scale (Gemma's query_pre_attn_scalar).
 */
export function shapeOf(model) {
  const c = model.config;
  const gpt2 = 'n_layer' in c;
  const heads = gpt2 ? c.n_head : c.num_attention_heads;
  const width = gpt2 ? c.n_embd : c.hidden_size;
  const headDim = c.head_dim ?? width / heads;
  const positionsName = gpt2 ? 'n_positions' : 'max_position_embeddings';
  const types = Array.isArray(c.layer_types) ? c.layer_types : null;
  const scalar = typeof c.query_pre_attn_scalar === 'number' ? c.query_pre_attn_scalar : null;
  return {
    family: model.family,
    layers: gpt2 ? c.n_layer : c.num_hidden_layers,
    heads,
    kvHeads: c.num_key_value_heads ?? heads,
    width,
    widthName: gpt2 ? 'n_embd' : 'hidden_size',
    headDim,
    positions: c[positionsName],
    positionsName,
    vocab: c.vocab_size,
    causal: model.family !== 'bert',
    /** Layer l's window (keys i − w + 1 … i), or null for a layer that reads every earlier token. */
    window: (l) => (types?.[l] === 'sliding_attention' && c.sliding_window ? c.sliding_window : null),
    qkNorm: QK_NORM.includes(model.family),
    rotary: typeof model.explainHead === 'function' && model.family !== 'gpt2' && model.family !== 'bert',
    /** The scores are divided by √scale.value before the softmax. */
    scale: scalar ? { name: 'query_pre_attn_scalar', value: scalar } : { name: 'd_k', value: headDim },
  };
}

/** Whether query i may read key j in layer `layer` (causal, and within its window if it has one). */
export function maySee(shape, layer) {
  const w = shape.window(layer);
  if (!shape.causal) return () => true;
  return (i, j) => j <= i && (w === null || i - j < w);
}

/** How many keys query i may read (the even-spread baseline's 1 / that). */
export const keysOpen = (shape, layer, T) => {
  const w = shape.window(layer);
  if (!shape.causal) return () => T;
  return (i) => (w === null ? i + 1 : Math.min(i + 1, w));
};
