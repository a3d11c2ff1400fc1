// The weights that explain one query head of a rotary family (Llama, Qwen2,
// Qwen3, Gemma 3), read again from the model file when a reader asks
// (base_model.js readWeights, checked against what openModel read): the head's
// rows of q_proj and its kv head's rows of k_proj and v_proj, turned into
// columns (D x head_dim, GPT-2's convention: q = x·wq + bq), their biases where
// the family has them (Qwen2; attention_bias) and the QK-norm weights (Qwen3,
// Gemma 3).
import { readWeights } from './base_model.js';

const attn = (l, name) => `layers.${l}.self_attn.${name}`;

/**
 * The tensors explainHead may read for layer l, optional ones included (open.js records
 * those the checkpoint has).
 */
export const headTensors = (l) =>
  ['q_proj.weight', 'k_proj.weight', 'v_proj.weight', 'q_proj.bias', 'k_proj.bias', 'v_proj.bias']
    .concat(['q_norm.weight', 'k_norm.weight'])
    .map((n) => attn(l, n));

/** Rows r0 .. r0 + hd of a (rows x D) PyTorch weight as columns: a (D x hd) row-major array. */
function columnsOf(W, D, r0, hd) {
  const out = new Float32Array(D * hd);
  for (let j = 0; j < hd; j++) for (let i = 0; i < D; i++) out[i * hd + j] = W[(r0 + j) * D + i];
  return out;
}

/**
 * { wq, wk, wv } (D x hd, Float32Array row-major), with `bias`: { bq, bk, bv } (hd), with
 * `qkNorm`: { qNorm, kNorm } (hd, as stored) of query head h (kv head g) in layer l.
 */
export async function readRotaryHeadWeights(model, config, { l, h, g, bias, qkNorm }, fn, signal) {
  const { hidden_size: D, head_dim: hd } = config;
  const names = ['q_proj.weight', 'k_proj.weight', 'v_proj.weight'];
  if (bias) names.push('q_proj.bias', 'k_proj.bias', 'v_proj.bias');
  if (qkNorm) names.push('q_norm.weight', 'k_norm.weight');
  const read = await readWeights(
    model,
    names.map((n) => attn(l, n)),
    fn,
    signal,
  );
  const byName = Object.fromEntries(names.map((n, i) => [n, read[i]]));
  const out = {
    wq: columnsOf(byName['q_proj.weight'], D, h * hd, hd),
    wk: columnsOf(byName['k_proj.weight'], D, g * hd, hd),
    wv: columnsOf(byName['v_proj.weight'], D, g * hd, hd),
  };
  if (bias)
    Object.assign(out, {
      bq: byName['q_proj.bias'].slice(h * hd, (h + 1) * hd),
      bk: byName['k_proj.bias'].slice(g * hd, (g + 1) * hd),
      bv: byName['v_proj.bias'].slice(g * hd, (g + 1) * hd),
    });
  if (qkNorm) Object.assign(out, { qNorm: byName['q_norm.weight'], kNorm: byName['k_norm.weight'] });
  return out;
}
