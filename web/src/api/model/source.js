// The files of a model folder as sequential byte readers: an ArrayBuffer, a
// typed array, a Blob/File (read in slices, never whole), or a URL string
// fetched relative to the page (its body streamed when the server states
// Content-Length, else taken as a Blob). Every reader knows its size up front,
// so a header can be checked against the file before anything is allocated.
import { describe } from '../errors.js';

export const CHUNK_BYTES = 4 << 20;

function abortError(signal) {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** Throws the signal's reason if it was aborted. */
export function checkAborted(signal) {
  if (signal?.aborted) throw abortError(signal);
}

function bytesOf(value) {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
}

async function* sliceChunks(bytes) {
  for (let i = 0; i < bytes.length; i += CHUNK_BYTES) yield bytes.subarray(i, i + CHUNK_BYTES);
}

async function* blobChunks(blob) {
  for (let i = 0; i < blob.size; i += CHUNK_BYTES)
    yield new Uint8Array(await blob.slice(i, i + CHUNK_BYTES).arrayBuffer());
}

async function* streamChunks(body, size, fn, name) {
  const reader = body.getReader();
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.length;
      if (read > size) break;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  if (read !== size)
    throw new RangeError(
      `${fn}: ${name} delivered ${read > size ? 'more than' : read} bytes but Content-Length said ${size}`,
    );
}

export class ByteReader {
  #chunks;
  #rest = new Uint8Array(0);

  /** @private */
  constructor(size, chunks) {
    /** Bytes in the file. */
    this.size = size;
    this.#chunks = chunks;
  }

  /**
   * @param {unknown} value ArrayBuffer, typed array, Blob/File or URL string
   * @param {string} fn public function name, for messages
   * @param {string} name the file's name ('model.safetensors'), for messages
   * @param {AbortSignal} [signal]
   */
  static async open(value, fn, name, signal) {
    if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
      const bytes = bytesOf(value);
      return new ByteReader(bytes.length, sliceChunks(bytes));
    }
    if (typeof Blob !== 'undefined' && value instanceof Blob) return new ByteReader(value.size, blobChunks(value));
    if (typeof value === 'string') {
      let response;
      try {
        response = await fetch(value, { signal });
      } catch (error) {
        checkAborted(signal);
        throw new TypeError(`${fn}: fetching ${name} from '${value}' failed (${error.message})`);
      }
      if (!response.ok)
        throw new TypeError(
          `${fn}: fetching ${name} from '${value}' failed: ${response.status} ${response.statusText}`,
        );
      const length = response.headers.get('Content-Length');
      const encoded = (response.headers.get('Content-Encoding') ?? 'identity') !== 'identity';
      if (length !== null && !encoded && response.body && /^\d+$/.test(length)) {
        const size = Number(length);
        return new ByteReader(size, streamChunks(response.body, size, fn, name));
      }
      const blob = await response.blob();
      return new ByteReader(blob.size, blobChunks(blob));
    }
    throw new TypeError(
      `${fn}: files['${name}'] must be an ArrayBuffer, a typed array, a Blob/File or a URL string, got ${describe(value)}`,
    );
  }

  /** The next chunk of at most `max` bytes, or null at the end. */
  async next(max = Infinity) {
    if (this.#rest.length === 0) {
      const { done, value } = await this.#chunks.next();
      if (done) return null;
      this.#rest = value;
    }
    const chunk = this.#rest.subarray(0, Math.min(max, this.#rest.length));
    this.#rest = this.#rest.subarray(chunk.length);
    return chunk;
  }

  /** The next `n` bytes (fewer only at the end of the file), as one array. */
  async read(n) {
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const chunk = await this.next(n - filled);
      if (chunk === null) return out.subarray(0, filled);
      out.set(chunk, filled);
      filled += chunk.length;
    }
    return out;
  }

  /** Stops reading (a stream's connection is closed). */
  async close() {
    await this.#chunks.return?.();
  }
}

/** The whole of a small file (config.json, tokenizer.json) as text. */
export async function readText(value, fn, name, signal) {
  const reader = await ByteReader.open(value, fn, name, signal);
  return new TextDecoder().decode(await reader.read(reader.size));
}

/** The JSON in a small file: TypeError naming the file if it is not JSON. */
export async function readJson(value, fn, name, signal) {
  const text = await readText(value, fn, name, signal);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TypeError(`${fn}: ${name} is not JSON (${error.message})`);
  }
}

/**
 * Bytes [begin, end) of a file again, after it was opened (a model explaining a head reads
 * that layer's weights on demand): a slice of an ArrayBuffer, typed array or Blob/File, or a
 * URL fetched with a Range header (the whole file cut when the server ignores it).
 */
export async function readRange(value, begin, end, fn, name, signal) {
  checkAborted(signal);
  let bytes;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) bytes = bytesOf(value).slice(begin, end);
  else if (typeof Blob !== 'undefined' && value instanceof Blob)
    bytes = new Uint8Array(await value.slice(begin, end).arrayBuffer());
  else bytes = await fetchRange(value, begin, end, fn, name, signal);
  if (bytes.length !== end - begin)
    throw new RangeError(`${fn}: ${name} changed since the model was opened (bytes ${begin} to ${end} are gone)`);
  return bytes;
}

async function fetchRange(url, begin, end, fn, name, signal) {
  let response;
  try {
    response = await fetch(url, { signal, headers: { Range: `bytes=${begin}-${end - 1}` } });
  } catch (error) {
    checkAborted(signal);
    throw new TypeError(`${fn}: fetching ${name} from '${url}' again failed (${error.message})`);
  }
  if (!response.ok) throw new TypeError(`${fn}: fetching ${name} from '${url}' again failed: ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return response.status === 206 ? bytes : bytes.slice(begin, end);
}
