// The safetensors format (huggingface/safetensors): an unsigned 64-bit
// little-endian header length n, n bytes of JSON, then the data section.
// The header maps each tensor name to { dtype, shape, data_offsets: [begin, end] }
// (byte offsets into the data section) and may hold "__metadata__" (strings).
//
// Everything is checked against the file's size before the caller allocates:
// the header length, the JSON, every dtype, shape and offset pair, sizes equal
// to product(shape) x the dtype's size, and no two tensors overlapping.
import { describe, isPlainObject } from '../errors.js';

/** Bytes per element of each safetensors dtype. */
export const DTYPE_BYTES = Object.freeze({
  BOOL: 1,
  U8: 1,
  I8: 1,
  F8_E4M3: 1,
  F8_E5M2: 1,
  I16: 2,
  U16: 2,
  F16: 2,
  BF16: 2,
  I32: 4,
  U32: 4,
  F32: 4,
  I64: 8,
  U64: 8,
  F64: 8,
});

/** The dtypes the loader converts to float32. */
export const FLOAT_DTYPES = Object.freeze(['F32', 'F16', 'BF16']);

/** Largest header accepted (the format's own limit is 100 MB). */
export const MAX_HEADER_BYTES = 100_000_000;

/**
 * The header length from the file's first 8 bytes, checked against its size.
 * @param {Uint8Array} first the first 8 bytes (fewer if the file is shorter)
 * @param {number} fileSize
 * @param {string} fn public function name, for messages
 * @param {string} [file] the file's name, for messages (a shard's)
 * @returns {number}
 */
export function readHeaderLength(first, fileSize, fn, file = 'model.safetensors') {
  if (first.length < 8 || fileSize < 8)
    throw new RangeError(`${fn}: ${file} has ${fileSize} bytes; a safetensors file starts with 8`);
  const view = new DataView(first.buffer, first.byteOffset, 8);
  const length = view.getUint32(0, true) + view.getUint32(4, true) * 2 ** 32;
  if (length > fileSize - 8)
    throw new RangeError(
      `${fn}: ${file}'s header length ${length} runs past the end of the file (${fileSize} bytes): truncated or not a safetensors file`,
    );
  if (length > MAX_HEADER_BYTES)
    throw new RangeError(`${fn}: ${file}'s header length ${length} is more than ${MAX_HEADER_BYTES} bytes`);
  if (length < 2) throw new RangeError(`${fn}: ${file}'s header length is ${length}: no JSON object fits`);
  return length;
}

function checkShape(name, shape, fn, file) {
  if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d >= 0))
    throw new RangeError(
      `${fn}: ${file}: tensor ${name} has shape ${JSON.stringify(shape)}; expected an array of non-negative integers`,
    );
  return shape.reduce((a, b) => a * b, 1);
}

/**
 * The tensors a header describes, sorted by their offsets.
 * @param {Uint8Array} bytes the header's JSON bytes
 * @param {number} dataSize bytes of the data section (file size - 8 - header length)
 * @param {string} fn public function name, for messages
 * @param {string} [file] the file's name, for messages (a shard's)
 * @returns {{ metadata: Record<string, string>, tensors: { name: string, dtype: string, shape: number[], begin: number, end: number }[] }}
 */
export function parseHeader(bytes, dataSize, fn, file = 'model.safetensors') {
  let header;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    throw new TypeError(`${fn}: ${file}'s header is not JSON (${error.message})`);
  }
  if (!isPlainObject(header))
    throw new TypeError(`${fn}: ${file}'s header must be a JSON object, got ${describe(header)}`);
  const { __metadata__: metadata = {}, ...entries } = header;
  if (!isPlainObject(metadata))
    throw new TypeError(`${fn}: ${file}'s __metadata__ must be an object, got ${describe(metadata)}`);
  const tensors = Object.entries(entries).map(([name, entry]) => {
    if (!isPlainObject(entry))
      throw new TypeError(`${fn}: ${file}: tensor ${name} must be an object, got ${describe(entry)}`);
    const { dtype, shape, data_offsets: offsets } = entry;
    if (!Object.hasOwn(DTYPE_BYTES, dtype))
      throw new RangeError(`${fn}: ${file}: tensor ${name} has unknown dtype ${JSON.stringify(dtype)}`);
    const count = checkShape(name, shape, fn, file);
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isSafeInteger(o) && o >= 0))
      throw new RangeError(
        `${fn}: ${file}: tensor ${name} has data_offsets ${JSON.stringify(offsets)}; expected [begin, end]`,
      );
    const [begin, end] = offsets;
    if (begin > end || end > dataSize)
      throw new RangeError(
        `${fn}: ${file}: tensor ${name}'s data_offsets [${begin}, ${end}] are outside the data section (${dataSize} bytes): truncated file?`,
      );
    if (end - begin !== count * DTYPE_BYTES[dtype])
      throw new RangeError(
        `${fn}: ${file}: tensor ${name} (${dtype} [${shape.join(', ')}]) needs ${count * DTYPE_BYTES[dtype]} bytes but its data_offsets [${begin}, ${end}] hold ${end - begin}`,
      );
    return { name, dtype, shape: shape.slice(), begin, end };
  });
  tensors.sort((a, b) => a.begin - b.begin || a.end - b.end);
  for (let i = 1; i < tensors.length; i++) {
    const [a, b] = [tensors[i - 1], tensors[i]];
    if (b.begin < a.end)
      throw new RangeError(
        `${fn}: ${file}: tensors ${a.name} [${a.begin}, ${a.end}] and ${b.name} [${b.begin}, ${b.end}] overlap`,
      );
  }
  return { metadata, tensors };
}
