// Tensors of a model's file read again on demand (a model keeps no copy of
// its weights outside the core): explainHead's weights, checked against the
// fingerprint openModel recorded of the same bytes (a file edited, replaced on
// its server, or a server answering the Range request with other bytes).
import { checksumOf } from './checksum.js';
import { readRange } from './source.js';
import { TensorWriter } from './tensor_writer.js';

/**
 * @typedef {{ source: unknown, dataStart: number, tensors: Map<string, {name: string, dtype: string, begin: number, end: number}>,
 *             checksums: Map<string, string> }} Weights
 */

/** Tensor `name` as float32 from its bytes `bytes` (checked against openModel's fingerprint). */
function decode(weights, name, bytes, fn) {
  const t = weights.tensors.get(name);
  if (checksumOf(bytes) !== weights.checksums.get(name))
    throw new RangeError(
      `${fn}: model.safetensors changed since openModel: tensor ${t.name} (data bytes ${t.begin} to ${t.end}) reads differently now`,
    );
  const out = new Float32Array((t.end - t.begin) / (t.dtype === 'F32' ? 4 : 2));
  new TensorWriter({ dtype: t.dtype, begin: 0, end: bytes.length }, 0).write(out.buffer, bytes, 0);
  return out;
}

const range = (weights, begin, end, fn, signal) =>
  readRange(weights.source, weights.dataStart + begin, weights.dataStart + end, fn, 'model.safetensors', signal);

/**
 * Tensors `names` of the file as float32 (F32, F16 and BF16 widened as when the model was
 * opened): one read of the span they cover when it is at most twice their bytes (a layer's
 * tensors lie together: one Range request, one pass over a server that ignores Range), else
 * one read each.
 * @param {Weights} weights
 */
export async function readTensors(weights, names, fn, signal) {
  const ts = names.map((name) => weights.tensors.get(name));
  const begin = Math.min(...ts.map((t) => t.begin));
  const end = Math.max(...ts.map((t) => t.end));
  if (end - begin <= 2 * ts.reduce((sum, t) => sum + t.end - t.begin, 0)) {
    const bytes = await range(weights, begin, end, fn, signal);
    return names.map((name, i) => decode(weights, name, bytes.subarray(ts[i].begin - begin, ts[i].end - begin), fn));
  }
  return Promise.all(
    names.map(async (name, i) => decode(weights, name, await range(weights, ts[i].begin, ts[i].end, fn, signal), fn)),
  );
}
