// What the model chapter reads of a model's family, by config.json's names (no
// DOM): its sizes, whether it is causal, each layer's sliding window, the shared
// key/value heads, QK-norm, the score scale, and the rotation's frequencies.

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

/**
 * The rotation's frequencies θ_m of layer `layer` (m < head_dim / 2) by config.json's names:
 * rope_theta (Gemma 3's sliding layers: rope_local_base_freq), then rope_scaling 'linear'
 * (θ / factor) or 'llama3' (Llama 3.1's long-wavelength rescaling). { invFreq, text }.
 */
export function ropeFrequencies(config, shape, layer) {
  const half = shape.headDim / 2;
  const local = shape.window(layer) !== null && typeof config.rope_local_base_freq === 'number';
  const base = local ? config.rope_local_base_freq : (config.rope_theta ?? 10000);
  const baseName = local ? 'rope_local_base_freq' : 'rope_theta';
  const invFreq = Float64Array.from({ length: half }, (_, m) => base ** ((-2 * m) / shape.headDim));
  let text = `${base}^(−2(m−1)/${shape.headDim}), ${baseName} ${base}`;
  const scaling = local ? null : config.rope_scaling;
  const type = scaling?.rope_type ?? scaling?.type;
  if (type === 'linear' && scaling.factor > 0) {
    for (let m = 0; m < half; m++) invFreq[m] /= scaling.factor;
    text += `, divided by rope_scaling's factor ${scaling.factor}`;
  } else if (type === 'llama3') {
    const { factor, low_freq_factor: low, high_freq_factor: high, original_max_position_embeddings: old } = scaling;
    for (let m = 0; m < half; m++) {
      const wavelength = (2 * Math.PI) / invFreq[m];
      if (wavelength > old / low) invFreq[m] /= factor;
      else if (wavelength >= old / high) {
        const smooth = (old / wavelength - low) / (high - low);
        invFreq[m] = (1 - smooth) * (invFreq[m] / factor) + smooth * invFreq[m];
      }
    }
    text += ', rescaled as rope_scaling llama3 says';
  }
  return { invFreq, text };
}
