// The whole opened model as boxes, from its config.json (no DOM): the embedding,
// each layer's norms, attention, residual adds and MLP in the family's own order
// and names, the final norm and the output head, each box with its output shape
// and the weights it reads. The model chapter's overview draws this
// (figures/model-overview.js); the shapes use the symbols T, D, H, KV, hd, F, V.

/** The sizes of `config` by family: T tokens, D wide, H query heads, KV kv heads, hd per head, F in the MLP, V tokens in the vocabulary, P positions. */
export function dimsOf({ family, config: c }, T) {
  if (family === 'gpt2')
    return {
      T,
      D: c.n_embd,
      H: c.n_head,
      KV: c.n_head,
      hd: c.n_embd / c.n_head,
      F: c.n_inner ?? 4 * c.n_embd,
      V: c.vocab_size,
      P: c.n_positions,
    };
  const H = c.num_attention_heads;
  return {
    T,
    D: c.hidden_size,
    H,
    KV: c.num_key_value_heads ?? H,
    hd: c.head_dim ?? c.hidden_size / H,
    F: c.intermediate_size,
    V: c.vocab_size,
    P: c.max_position_embeddings,
  };
}

/** "T × D" with its numbers: { symbols: 'T × D', values: [9, 32], text: 'T × D = 9 × 32' }. */
function shapeOf(dims, ...symbols) {
  const values = symbols.map((s) => (typeof s === 'number' ? s : s.split('·').reduce((p, x) => p * dims[x], 1)));
  const names = symbols.join(' × ');
  const numbers = values.join(' × ');
  return { symbols: names, values, text: names === numbers ? names : `${names} = ${numbers}` };
}

const box = (kind, name, title, shape, about, weights = '') => ({ kind, name, title, shape, about, weights });

const LAYER_NORM =
  'LayerNorm: each token’s vector minus its mean, over its standard deviation, times a learned gain plus a bias';
const RMS_NORM =
  'RMSNorm: each token’s vector over its root mean square, times a learned gain (no mean subtracted, no bias)';
const ADD =
  'residual add: the block’s output is added to the vector it read, so every layer writes into one running stream';

/** The family's parts: which norm, which MLP, what attention adds, how the input is embedded. */
function familyParts(family, config, d) {
  const gemma = family === 'gemma3';
  const activation = gemma
    ? config.hidden_activation
    : family === 'gpt2'
      ? config.activation_function
      : config.hidden_act;
  return {
    norm: family === 'gpt2' || family === 'bert' ? 'LayerNorm' : 'RMSNorm',
    normAbout:
      family === 'gpt2' || family === 'bert'
        ? LAYER_NORM
        : gemma
          ? `${RMS_NORM} (Gemma: times 1 + the gain)`
          : RMS_NORM,
    gated: family !== 'gpt2' && family !== 'bert',
    mlpName: family === 'gpt2' || family === 'bert' ? `GELU MLP` : gemma ? 'GeGLU MLP' : 'SwiGLU MLP',
    activation,
    qkNorm: family === 'qwen3' || gemma,
    qkvBias: family === 'qwen2' || config.attention_bias === true,
    scale: gemma ? `√query_pre_attn_scalar = √${config.query_pre_attn_scalar}` : `√hd = √${d.hd}`,
  };
}

/** One attention box: what it computes, with the family's projections. */
function attentionBox(family, config, d, parts, window) {
  const heads = d.KV < d.H ? `${d.H} query heads sharing ${d.KV} key/value heads` : `${d.H} heads`;
  const kind = family === 'bert' ? 'bidirectional' : window ? `sliding window of ${window}` : 'causal';
  if (family === 'gpt2')
    return box(
      'attention',
      'attn',
      `attention, ${heads} of ${d.hd}`,
      shapeOf(d, 'T', 'D'),
      `causal self-attention: c_attn makes q, k, v (T × 3D = T × ${3 * d.D}), split into ${d.H} heads of hd = ${d.hd}; each head’s weights are softmax(q·kᵀ/${parts.scale}) over the tokens up to its own; the heads’ value mixes, side by side, go through c_proj`,
      `c_attn D × 3D = ${d.D} × ${3 * d.D}, c_proj D × D = ${d.D} × ${d.D}`,
    );
  if (family === 'bert')
    return box(
      'attention',
      'attention',
      `attention, ${heads} of ${d.hd}`,
      shapeOf(d, 'T', 'D'),
      `bidirectional self-attention: query, key, value (D × D each) split into ${d.H} heads of hd = ${d.hd}; every token reads every token, softmax(q·kᵀ/${parts.scale}); attention.output.dense mixes the heads back`,
      `query, key, value, output.dense D × D = ${d.D} × ${d.D} each`,
    );
  const qk = parts.qkNorm ? ', then q_norm and k_norm (RMSNorm over each head’s hd numbers)' : '';
  const bias = parts.qkvBias ? ' (with biases)' : '';
  const base =
    family === 'gemma3' && window
      ? ` with rope_local_base_freq ${config.rope_local_base_freq}`
      : ` with rope_theta ${config.rope_theta}`;
  return box(
    'attention',
    'self_attn',
    `attention, ${heads} of ${d.hd}`,
    shapeOf(d, 'T', 'D'),
    `${kind} self-attention: q_proj makes ${d.H} queries, k_proj and v_proj ${d.KV} keys and values of hd = ${d.hd} per token${bias}${qk}; RoPE turns q and k by their positions${base}; weights softmax(q̃·k̃ᵀ/${parts.scale}) over ${window ? `the last ${window} tokens` : 'the tokens up to its own'}; o_proj mixes the heads back`,
    `q_proj D × H·hd = ${d.D} × ${d.H * d.hd}, k_proj and v_proj D × KV·hd = ${d.D} × ${d.KV * d.hd}, o_proj H·hd × D = ${d.H * d.hd} × ${d.D}${parts.qkNorm ? `, q_norm and k_norm hd = ${d.hd}` : ''}`,
  );
}

function mlpBox(family, name, d, parts) {
  const inner = `T × F = ${d.T} × ${d.F}`;
  if (!parts.gated) {
    const [up, down] = family === 'gpt2' ? ['c_fc', 'c_proj'] : ['intermediate.dense', 'output.dense'];
    return box(
      'mlp',
      name,
      parts.mlpName,
      shapeOf(d, 'T', 'D'),
      `each token on its own: ${up} widens to ${inner}, ${parts.activation}, ${down} narrows back to D`,
      `${up} D × F = ${d.D} × ${d.F}, ${down} F × D = ${d.F} × ${d.D}`,
    );
  }
  return box(
    'mlp',
    name,
    parts.mlpName,
    shapeOf(d, 'T', 'D'),
    `each token on its own: gate_proj and up_proj widen to ${inner}; ${parts.activation}(gate) times up, element by element; down_proj narrows back to D`,
    `gate_proj, up_proj D × F = ${d.D} × ${d.F}, down_proj F × D = ${d.F} × ${d.D}`,
  );
}

const norm = (name, d, parts, where) =>
  box('norm', name, parts.norm, shapeOf(d, 'T', 'D'), `${parts.normAbout}; ${where}`, `${name}.weight D = ${d.D}`);
const add = (d, what) => box('add', '+', 'residual add', shapeOf(d, 'T', 'D'), `${ADD} (${what})`);

/** Layer `l`'s boxes in the order the family computes them. */
function layerBoxes(family, config, d, parts, window) {
  const attention = attentionBox(family, config, d, parts, window);
  if (family === 'gpt2')
    return [
      norm('ln_1', d, parts, 'before attention'),
      attention,
      add(d, 'attention'),
      norm('ln_2', d, parts, 'before the MLP'),
      mlpBox(family, 'mlp', d, parts),
      add(d, 'MLP'),
    ];
  if (family === 'bert')
    // BERT normalises after each add (post-norm).
    return [
      attention,
      add(d, 'attention'),
      norm('attention.output.LayerNorm', d, parts, 'after the add (BERT normalises after each block)'),
      mlpBox(family, 'intermediate + output', d, parts),
      add(d, 'MLP'),
      norm('output.LayerNorm', d, parts, 'after the add'),
    ];
  if (family === 'gemma3')
    return [
      norm('input_layernorm', d, parts, 'before attention'),
      attention,
      norm('post_attention_layernorm', d, parts, 'on attention’s output, before the add'),
      add(d, 'attention'),
      norm('pre_feedforward_layernorm', d, parts, 'before the MLP'),
      mlpBox(family, 'mlp', d, parts),
      norm('post_feedforward_layernorm', d, parts, 'on the MLP’s output, before the add'),
      add(d, 'MLP'),
    ];
  return [
    norm('input_layernorm', d, parts, 'before attention'),
    attention,
    add(d, 'attention'),
    norm('post_attention_layernorm', d, parts, 'before the MLP'),
    mlpBox(family, 'mlp', d, parts),
    add(d, 'MLP'),
  ];
}

function inputBoxes(family, config, d, parts) {
  if (family === 'gpt2')
    return [
      box(
        'embed',
        'wte + wpe',
        'token + position embedding',
        shapeOf(d, 'T', 'D'),
        'each token’s row of wte plus its position’s row of wpe',
        `wte V × D = ${d.V} × ${d.D}, wpe P × D = ${d.P} × ${d.D}`,
      ),
    ];
  if (family === 'bert')
    return [
      box(
        'embed',
        'embeddings',
        'token + position + type embedding',
        shapeOf(d, 'T', 'D'),
        'each token’s row of word_embeddings, plus its position’s row of position_embeddings and its sentence’s row of token_type_embeddings',
        `word_embeddings V × D = ${d.V} × ${d.D}, position_embeddings P × D = ${d.P} × ${d.D}, token_type_embeddings ${config.type_vocab_size ?? 2} × ${d.D}`,
      ),
      norm('embeddings.LayerNorm', d, parts, 'on the sum of the embeddings'),
    ];
  const scaled = family === 'gemma3' ? `, times √D = √${d.D} (Gemma scales its embeddings)` : '';
  return [
    box(
      'embed',
      'embed_tokens',
      family === 'gemma3' ? 'scaled token embedding' : 'token embedding',
      shapeOf(d, 'T', 'D'),
      `each token’s row of embed_tokens${scaled}; no position is added here: positions enter inside attention, by rotating q and k (RoPE)`,
      `embed_tokens V × D = ${d.V} × ${d.D}`,
    ),
  ];
}

function outputBoxes(family, config, d, parts) {
  if (family === 'bert')
    return [
      box(
        'head',
        'cls.predictions',
        'masked-LM head',
        shapeOf(d, 'T', 'V'),
        'no next token: BERT predicts the tokens written as [MASK]. transform.dense (D × D), GELU and a LayerNorm, then the scores of every vocabulary token (the decoder, tied to word_embeddings, plus a bias) and a softmax',
        `transform.dense D × D = ${d.D} × ${d.D}, decoder = word_embeddingsᵀ D × V = ${d.D} × ${d.V}`,
      ),
    ];
  const gpt2 = family === 'gpt2';
  const tied = gpt2 || config.tie_word_embeddings;
  const matrix = gpt2 ? 'wteᵀ' : tied ? 'embed_tokensᵀ' : 'lm_head';
  const cap = config.final_logit_softcapping
    ? `, capped as ${config.final_logit_softcapping}·tanh(z / ${config.final_logit_softcapping}) (final_logit_softcapping)`
    : '';
  return [
    norm(gpt2 ? 'ln_f' : 'norm', d, parts, 'the final norm, after the last layer'),
    box(
      'head',
      'logits',
      'next-token logits',
      shapeOf(d, 'T', 'V'),
      `each token’s vector times ${matrix}${tied ? ' (tied: the embedding matrix again)' : ''}: a score for every token of the vocabulary${cap}; the last row’s softmax is the next token’s probabilities`,
      `${matrix} D × V = ${d.D} × ${d.V}`,
    ),
  ];
}

/**
 * The opened model's architecture on T tokens: { family, dims, input: [box], layers:
 * [{ index, window, attention: 'causal' | 'sliding' | 'global' | 'bidirectional', boxes }],
 * output: [box] }; a box is { kind: 'embed' | 'norm' | 'attention' | 'add' | 'mlp' | 'head',
 * name (the checkpoint's), title, shape: { symbols, values, text }, about, weights }.
 * `windowOf(l)`: layer l's sliding window or null (family.js shapeOf(model).window).
 */
export function architectureOf(model, T, windowOf = () => null) {
  const { family, config } = model;
  const d = dimsOf(model, T);
  const parts = familyParts(family, config, d);
  const L = family === 'gpt2' ? config.n_layer : config.num_hidden_layers;
  const marksLayers = Array.isArray(config.layer_types);
  const layers = Array.from({ length: L }, (_, index) => {
    const window = windowOf(index);
    const attention = family === 'bert' ? 'bidirectional' : window ? 'sliding' : marksLayers ? 'global' : 'causal';
    return { index, window, attention, boxes: layerBoxes(family, config, d, parts, window) };
  });
  return {
    family,
    dims: d,
    input: inputBoxes(family, config, d, parts),
    layers,
    output: outputBoxes(family, config, d, parts),
    perLayer: layerWeights(family, d),
  };
}

/**
 * The numbers in one layer's weight matrices (biases and norms left out): attention's
 * projections and the MLP's. GPT-2: c_attn D × 3D, c_proj D × D; c_fc and c_proj D × F.
 * BERT: query, key, value, output.dense D × D; intermediate and output.dense D × F. The
 * rotary families: q_proj and o_proj D × H·hd, k_proj and v_proj D × KV·hd; gate, up, down D × F.
 */
export function layerWeights(family, d) {
  if (family === 'gpt2') return { attention: 4 * d.D * d.D, mlp: 2 * d.D * d.F };
  if (family === 'bert') return { attention: 4 * d.D * d.D, mlp: 2 * d.D * d.F };
  return { attention: 2 * d.D * d.H * d.hd + 2 * d.D * d.KV * d.hd, mlp: 3 * d.D * d.F };
}

/**
 * The chosen token's attention in one layer, as a strip (heads × keys, row-major
 * Float32Array): row h is head h's weights of query `i` over keys 0 … cols − 1.
 * `rowOf(layer, head, i)` gives that row (length ≤ cols; the rest stays 0).
 */
export function strip(rowOf, layer, heads, i, cols) {
  const data = new Float32Array(heads * cols);
  for (let h = 0; h < heads; h++) {
    const row = rowOf(layer, h, i);
    data.set(row.length > cols ? row.subarray(0, cols) : row, h * cols);
  }
  return { rows: heads, cols, data };
}
