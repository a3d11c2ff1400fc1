// Tensors of a model's file read again on demand (a model keeps no copy of
// its weights outside the core): explainHead's weights, checked against the
// fingerprint openModel recorded of the same bytes (a file edited, replaced on
// its server, or a server answering the Range request with other bytes).
import { checksumOf } from './checksum.js';
import { readRange } from './source.js';
import { TensorWriter } from './tensor_writer.js';

/**
 * Each tensor carries its file (a sharded checkpoint has several): its name, source and data start.
 * @typedef {{ name: string, dtype: string, begin: number, end: number, file: string, source: unknown, dataStart: number }} StoredTensor
 * @typedef {{ tensors: Map<string, StoredTensor>, checksums: Map<string, string> }} Weights
 */

/** Tensor `name` as float32 from its bytes `bytes` (checked against openModel's fingerprint). */
function decode(weights, name, bytes, fn) {
  const t = weights.tensors.get(name);
  if (checksumOf(bytes) !== weights.checksums.get(name))
    throw new RangeError(
      `${fn}: ${t.file} changed since openModel: tensor ${t.name} (data bytes ${t.begin} to ${t.end}) reads differently now`,
    );
  const out = new Float32Array((t.end - t.begin) / (t.dtype === 'F32' ? 4 : 2));
  new TensorWriter({ dtype: t.dtype, begin: 0, end: bytes.length }, 0).write(out.buffer, bytes, 0);
  return out;
}

/** Data bytes [begin, end) of the file tensor `t` lies in. */
const range = (t, begin, end, fn, signal) =>
  readRange(t.source, t.dataStart + begin, t.dataStart + end, fn, t.file, signal);

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
  const oneFile = ts.every((t) => t.source === ts[0].source);
  if (oneFile && end - begin <= 2 * ts.reduce((sum, t) => sum + t.end - t.begin, 0)) {
    const bytes = await range(ts[0], begin, end, fn, signal);
    return names.map((name, i) => decode(weights, name, bytes.subarray(ts[i].begin - begin, ts[i].end - begin), fn));
  }
  return Promise.all(
    names.map(async (name, i) => decode(weights, name, await range(ts[i], ts[i].begin, ts[i].end, fn, signal), fn)),
  );
}
