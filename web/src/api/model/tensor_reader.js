// One tensor of a model's file read again on demand (a model keeps no copy of
// its weights outside the core): explainHead's weights.
import { readRange } from './source.js';
import { TensorWriter } from './tensor_writer.js';

/**
 * A tensor of the file as float32 (F32, F16 and BF16 widened as when the model was opened).
 * @param {{ source: unknown, dataStart: number, tensors: Map<string, {dtype: string, begin: number, end: number}> }} weights
 */
export async function readTensor(weights, name, fn, signal) {
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
