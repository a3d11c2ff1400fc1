// Qwen2's tensors for a config, [name, shape] in Hugging Face's names ([out, in] for a
// linear; q, k, v biases; tied embeddings): the memory tests and bench/big-model.mjs
// write checkpoints of them.

/** Qwen2's tensors for `config`: [name, shape]. */
export function qwen2Tensors(config) {
  const { hidden_size: D, intermediate_size: F, num_attention_heads: H, num_key_value_heads: KV } = config;
  const kv = (KV * D) / H;
  const list = [['model.embed_tokens.weight', [config.vocab_size, D]]];
  for (let l = 0; l < config.num_hidden_layers; l++) {
    const p = `model.layers.${l}.`;
    list.push(
      [`${p}input_layernorm.weight`, [D]],
      [`${p}self_attn.q_proj.weight`, [D, D]],
      [`${p}self_attn.q_proj.bias`, [D]],
      [`${p}self_attn.k_proj.weight`, [kv, D]],
      [`${p}self_attn.k_proj.bias`, [kv]],
      [`${p}self_attn.v_proj.weight`, [kv, D]],
      [`${p}self_attn.v_proj.bias`, [kv]],
      [`${p}self_attn.o_proj.weight`, [D, D]],
      [`${p}post_attention_layernorm.weight`, [D]],
      [`${p}mlp.gate_proj.weight`, [F, D]],
      [`${p}mlp.up_proj.weight`, [F, D]],
      [`${p}mlp.down_proj.weight`, [D, F]],
    );
  }
  list.push(['model.norm.weight', [D]]);
  return list;
}
