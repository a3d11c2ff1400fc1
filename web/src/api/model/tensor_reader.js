// One tensor of a model's file read again on demand (a model keeps no copy of
// its weights outside the core): explainHead's weights, checked against the
// fingerprint openModel recorded of the same bytes (a file edited, replaced on
// its server, or a server answering the Range request with other bytes).
import { checksumOf } from './checksum.js';
import { readRange } from './source.js';
import { TensorWriter } from './tensor_writer.js';

/**
 * A tensor of the file as float32 (F32, F16 and BF16 widened as when the model was opened).
 * @param {{ source: unknown, dataStart: number, tensors: Map<string, {name: string, dtype: string, begin: number, end: number}>,
 *           checksums: Map<string, string> }} weights
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
  if (checksumOf(bytes) !== weights.checksums.get(name))
    throw new RangeError(
      `${fn}: model.safetensors changed since openModel: tensor ${t.name} (data bytes ${t.begin} to ${t.end}) reads differently now`,
    );
  const out = new Float32Array((t.end - t.begin) / (t.dtype === 'F32' ? 4 : 2));
  new TensorWriter({ dtype: t.dtype, begin: 0, end: bytes.length }, 0).write(out.buffer, bytes, 0);
  return out;
}
