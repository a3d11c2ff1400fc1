// The weights that explain one BERT attention head, read again from the model
// file when a reader asks (base_model.js readWeights, checked against what
// openModel read): the head's rows of layer l's query, key and value (PyTorch's
// out x in) turned into columns side by side, D x 3 d_k (q | k | v, GPT-2's
// c_attn layout), and their biases.
import { readWeights } from '../../base_model.js';

const PARTS = ['query', 'key', 'value'];

/** The tensors explainHead reads for layer l, in the order readHeadWeights uses them. */
export const headTensors = (l) =>
  PARTS.flatMap((p) => ['weight', 'bias'].map((n) => `encoder.layer.${l}.attention.self.${p}.${n}`));

/** { weight: D x 3 d_k (row-major), bias: 3 d_k } of head h in layer l. */
export async function readHeadWeights(model, config, l, h, fn, signal) {
  const { hidden_size: D, num_attention_heads: H } = config;
  const dk = D / H;
  const read = await readWeights(model, headTensors(l), fn, signal);
  const weight = new Float32Array(D * 3 * dk);
  const bias = new Float32Array(3 * dk);
  PARTS.forEach((_, p) => {
    const [W, b] = [read[2 * p], read[2 * p + 1]];
    for (let j = 0; j < dk; j++) {
      const r = h * dk + j; // the head's row of the out x in weight
      for (let i = 0; i < D; i++) weight[i * 3 * dk + p * dk + j] = W[r * D + i];
      bias[p * dk + j] = b[r];
    }
  });
  return { weight, bias };
}
