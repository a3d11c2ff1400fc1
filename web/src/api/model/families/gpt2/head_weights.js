// The weights that explain one GPT-2 attention head, read again from the model
// file when a reader asks (base_model.js readWeights): layer l's ln_1 gain and
// bias, and head h's q | k | v columns of c_attn (D x 3 d_k) with their biases.
import { readWeights } from '../../base_model.js';

/** The tensors explainHead reads for layer l, in the order readHeadWeights uses them. */
export const headTensors = (l) =>
  ['ln_1.weight', 'ln_1.bias', 'attn.c_attn.weight', 'attn.c_attn.bias'].map((n) => `h.${l}.${n}`);

/** { gamma, beta } (D) of ln_1 and { weight: D x 3 d_k rows, bias: 3 d_k } of head h in layer l. */
export async function readHeadWeights(model, config, l, h, fn, signal) {
  const { n_embd: D, n_head: H } = config;
  const dk = D / H;
  const [gamma, beta, W, b] = await readWeights(model, headTensors(l), fn, signal);
  // Columns h d_k.. of each of q | k | v (c_attn's 3 D columns).
  const columns = [0, 1, 2].flatMap((part) => Array.from({ length: dk }, (_, j) => part * D + h * dk + j));
  const weight = new Float32Array(D * 3 * dk);
  for (let r = 0; r < D; r++) columns.forEach((c, j) => (weight[r * 3 * dk + j] = W[r * 3 * D + c]));
  return { gamma, beta, weight, bias: Float32Array.from(columns, (c) => b[c]) };
}
