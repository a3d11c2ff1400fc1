// The weights that explain one attention head, read again from the model file
// when a reader asks (a model keeps no copy of them): layer l's ln_1 gain and
// bias, and head h's q | k | v columns of c_attn (D x 3 d_k) with their biases.
import { readRange } from './source.js';
import { TensorWriter } from './tensor_writer.js';

/** A tensor of the file as float32 (F32, F16 and BF16 widened as when the model was opened). */
async function readTensor(weights, name, fn, signal) {
  const t = weights.tensors.get(name);
  const bytes = await readRange(
    weights.source,
    weights.dataStart + t.begin,
    weights.dataStart + t.end,
    fn,
    'model.safetensors',
    signal,
  );
  const out = new Float32Array((t.end - t.begin) / (t.dtype === 'F32' ? 4 : 2));
  new TensorWriter({ dtype: t.dtype, begin: 0, end: bytes.length }, 0).write(out.buffer, bytes, 0);
  return out;
}

/**
 * { gamma, beta } (D) of ln_1 and { weight: D x 3 d_k rows, bias: 3 d_k } of head h in layer l.
 * @param {{ source: unknown, dataStart: number, tensors: Map<string, {dtype: string, begin: number, end: number}> }} weights
 */
export async function readHeadWeights(weights, config, l, h, fn, signal) {
  const { n_embd: D, n_head: H } = config;
  const dk = D / H;
  const p = `h.${l}.`;
  const [gamma, beta, W, b] = await Promise.all(
    ['ln_1.weight', 'ln_1.bias', 'attn.c_attn.weight', 'attn.c_attn.bias'].map((n) =>
      readTensor(weights, p + n, fn, signal),
    ),
  );
  // Columns h d_k.. of each of q | k | v (c_attn's 3 D columns).
  const columns = [0, 1, 2].flatMap((part) => Array.from({ length: dk }, (_, j) => part * D + h * dk + j));
  const weight = new Float32Array(D * 3 * dk);
  for (let r = 0; r < D; r++) columns.forEach((c, j) => (weight[r * 3 * dk + j] = W[r * 3 * D + c]));
  return { gamma, beta, weight, bias: Float32Array.from(columns, (c) => b[c]) };
}
