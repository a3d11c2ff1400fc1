// The files of a model folder as sequential byte readers: an ArrayBuffer, a
// typed array, a Blob/File (read in slices, never whole), or a URL string
// fetched relative to the page (its body streamed). Every reader knows its size
// up front, so a header can be checked against the file before anything is
// allocated. Nothing from the network is trusted: a declared Content-Length is
// bounded before anything is read and compared with the bytes that arrived,
// no allocation is sized from it, a connection closed early names the file and
// the bytes it gave, and a caller may name the origins a response must come
// from after redirects (openModel's options.origins).
import { isDetached } from '../detached.js';
import { describe } from '../errors.js';

export const CHUNK_BYTES = 4 << 20;

/** Most bytes a text file of a model folder (config.json, tokenizer.json, ...) may have: it is decoded whole. */
export const MAX_TEXT_BYTES = 256 * 2 ** 20;

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

/** Null, or why `value` (bytes) cannot be read: its ArrayBuffer was detached (transferred away). */
function detachedWhy(value) {
  if (value instanceof ArrayBuffer) return isDetached(value) ? 'is a detached ArrayBuffer' : null;
  if (ArrayBuffer.isView(value) && isDetached(value.buffer))
    return `is a ${value.constructor?.name || 'typed array'} on a detached ArrayBuffer`;
  return null;
}

const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** A URL file with the origins its responses may come from (null: any the browser allows). */
export class UrlFile {
  /** @param {string} url @param {string[] | null} origins */
  constructor(url, origins) {
    this.url = url;
    this.origins = origins;
  }
}

/** `files` with each URL string as a UrlFile bound to `origins` (openModel's options.origins). */
export function withOrigins(files, origins) {
  return Object.fromEntries(
    Object.entries(files).map(([name, value]) => [
      name,
      typeof value === 'string' ? new UrlFile(value, origins) : value,
    ]),
  );
}

async function* sliceChunks(bytes) {
  for (let i = 0; i < bytes.length; i += CHUNK_BYTES) yield bytes.subarray(i, i + CHUNK_BYTES);
}

async function* blobChunks(blob) {
  for (let i = 0; i < blob.size; i += CHUNK_BYTES)
    yield new Uint8Array(await blob.slice(i, i + CHUNK_BYTES).arrayBuffer());
}

async function* listChunks(chunks) {
  yield* chunks;
}

/**
 * A fetch of `file` whose response was checked: not opaque, from an allowed origin
 * after redirects, a success status. `again`: a Range request of a file opened before.
 */
async function request(file, fn, name, signal, headers) {
  const again = headers ? ' again' : '';
  const url = file.url;
  let response;
  try {
    response = await fetch(url, { signal, headers });
  } catch (error) {
    checkAborted(signal);
    throw new TypeError(`${fn}: fetching ${name} from '${url}'${again} failed (${error.message})`);
  }
  if (response.type === 'opaque' || response.type === 'opaqueredirect')
    throw new TypeError(
      `${fn}: fetching ${name} from '${url}'${again} gave an opaque response (${response.type}): its bytes and origin cannot be checked`,
    );
  if (file.origins) {
    const final = response.url || url;
    const origin = new URL(final).origin;
    if (!file.origins.includes(origin)) {
      await response.body?.cancel().catch(() => {});
      throw new TypeError(
        `${fn}: ${name} from '${url}' was answered from ${origin} (${final}${response.redirected ? ', after a redirect' : ''}); only ${file.origins.join(', ')} may answer`,
      );
    }
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    if (headers && response.status === 416)
      throw new RangeError(`${fn}: ${name} changed since openModel: '${url}' has no ${headers.Range} any more (416)`);
    throw new TypeError(
      `${fn}: fetching ${name} from '${url}'${again} failed: ${response.status} ${response.statusText}`,
    );
  }
  return response;
}

/**
 * A response body in the chunks the network gives: at most `max` bytes, exactly
 * `declared` if a length was declared; the connection closed early is a TypeError
 * naming the file and the bytes that arrived.
 */
async function* bodyChunks(response, { declared, max, fn, name, url, signal }) {
  const reader = response.body.getReader();
  const of = declared === null ? '' : ` of the ${declared} its Content-Length declared`;
  let read = 0;
  try {
    for (;;) {
      let step;
      try {
        step = await reader.read();
      } catch (error) {
        checkAborted(signal);
        throw new TypeError(
          `${fn}: reading ${name} from '${url}' failed after ${read} bytes${of}: the connection closed early (${error.message})`,
        );
      }
      if (step.done) break;
      read += step.value.length;
      if (declared !== null && read > declared)
        throw new RangeError(
          `${fn}: ${name} from '${url}' sent more than the ${declared} bytes its Content-Length declared`,
        );
      if (read > max)
        throw new RangeError(
          `${fn}: ${name} from '${url}' sent more than ${max} bytes (${mib(max)}), the most it may have here`,
        );
      yield step.value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  if (declared !== null && read !== declared)
    throw new RangeError(`${fn}: ${name} from '${url}' ended after ${read} bytes${of}`);
}

function checkSize(size, max, fn, name, how) {
  if (size > max)
    throw new RangeError(`${fn}: ${name} ${how} ${size} bytes, more than the ${max} (${mib(max)}) it may have here`);
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
   * @param {unknown} value ArrayBuffer, typed array, Blob/File, URL string or UrlFile
   * @param {string} fn public function name, for messages
   * @param {string} name the file's name ('model.safetensors'), for messages
   * @param {AbortSignal} [signal]
   * @param {number} [max] most bytes the file may have (checked before anything is read)
   */
  static async open(value, fn, name, signal, max = Infinity) {
    if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
      const why = detachedWhy(value);
      if (why) throw new TypeError(`${fn}: files['${name}'] ${why} (transferred away): nothing left to read`);
      const bytes = bytesOf(value);
      checkSize(bytes.length, max, fn, name, 'has');
      return new ByteReader(bytes.length, sliceChunks(bytes));
    }
    if (typeof Blob !== 'undefined' && value instanceof Blob) {
      checkSize(value.size, max, fn, name, 'has');
      return new ByteReader(value.size, blobChunks(value));
    }
    if (typeof value === 'string') value = new UrlFile(value, null);
    if (value instanceof UrlFile) {
      const response = await request(value, fn, name, signal);
      const length = response.headers.get('Content-Length');
      const encoded = (response.headers.get('Content-Encoding') ?? 'identity') !== 'identity';
      const body = { declared: null, max, fn, name, url: value.url, signal };
      if (length !== null && !encoded && /^\d+$/.test(length)) {
        const size = Number(length);
        try {
          checkSize(size, max, fn, name, `from '${value.url}' declares (Content-Length)`);
        } catch (error) {
          await response.body?.cancel().catch(() => {});
          throw error;
        }
        if (response.body) return new ByteReader(size, bodyChunks(response, { ...body, declared: size }));
      }
      // No length to trust (none, or of the compressed bytes): the body, read whole within the bound.
      const chunks = [];
      let size = 0;
      if (response.body)
        for await (const chunk of bodyChunks(response, body)) (chunks.push(chunk), (size += chunk.length));
      return new ByteReader(size, listChunks(chunks));
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

  /** The next `n` bytes (fewer only at the end of the file), as one array sized by what arrived. */
  async read(n) {
    const pieces = [];
    let filled = 0;
    while (filled < n) {
      const chunk = await this.next(n - filled);
      if (chunk === null) break;
      pieces.push(chunk);
      filled += chunk.length;
    }
    return concat(pieces, filled);
  }

  /** Stops reading (a stream's connection is closed). */
  async close() {
    await this.#chunks.return?.();
  }
}

function concat(pieces, length) {
  if (pieces.length === 1) return pieces[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) (out.set(piece, at), (at += piece.length));
  return out;
}

/** The whole of a small file (config.json, tokenizer.json) as text. */
export async function readText(value, fn, name, signal) {
  const reader = await ByteReader.open(value, fn, name, signal, MAX_TEXT_BYTES);
  const bytes = await reader.read(reader.size);
  await reader.next(); // to the end: a body longer or shorter than it declared is an error
  await reader.close();
  return new TextDecoder().decode(bytes);
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
 * URL fetched with a Range header (the file's start skipped when the server ignores it).
 * Bytes that are gone are a RangeError; the caller checks those that came (tensor_reader.js).
 */
export async function readRange(value, begin, end, fn, name, signal) {
  checkAborted(signal);
  const changed = `${fn}: ${name} changed since openModel`;
  let bytes;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    const why = detachedWhy(value);
    if (why) throw new RangeError(`${changed}: files['${name}'] ${why} (transferred away)`);
    try {
      bytes = bytesOf(value).slice(begin, end);
    } catch (error) {
      throw new RangeError(`${changed}: its buffer cannot be read (${error.message}); was it transferred?`);
    }
  } else if (typeof Blob !== 'undefined' && value instanceof Blob) {
    try {
      bytes = new Uint8Array(await value.slice(begin, end).arrayBuffer());
    } catch (error) {
      checkAborted(signal);
      throw new RangeError(`${changed}: it cannot be read again (${error.name}: ${error.message})`);
    }
  } else {
    bytes = await fetchRange(value instanceof UrlFile ? value : new UrlFile(value, null), begin, end, fn, name, signal);
  }
  if (bytes.length !== end - begin)
    throw new RangeError(`${changed}: bytes ${begin} to ${end} are gone (${bytes.length} of ${end - begin} read)`);
  return bytes;
}

async function fetchRange(file, begin, end, fn, name, signal) {
  const response = await request(file, fn, name, signal, { Range: `bytes=${begin}-${end - 1}` });
  let skip = begin; // a server ignoring Range sends the whole file (200)
  if (response.status === 206) {
    const range = /^bytes (\d+)-(\d+)\//.exec(response.headers.get('Content-Range') ?? '');
    if (!range || Number(range[1]) !== begin) {
      await response.body?.cancel().catch(() => {});
      throw new RangeError(
        `${fn}: ${name} from '${file.url}' answered bytes ${begin} to ${end} with ${range ? `bytes ${range[1]} to ${Number(range[2]) + 1}` : 'no Content-Range'}`,
      );
    }
    skip = 0;
  }
  // Only the bytes wanted are kept; the connection is closed once they are in.
  const out = new Uint8Array(end - begin);
  let filled = 0;
  let at = 0; // offset in the body of the next chunk
  const body = { declared: null, max: Infinity, fn, name, url: file.url, signal };
  if (response.body)
    for await (const chunk of bodyChunks(response, body)) {
      const from = Math.max(skip, at);
      const to = Math.min(skip + out.length, at + chunk.length);
      if (from < to) (out.set(chunk.subarray(from - at, to - at), from - skip), (filled = to - skip));
      at += chunk.length;
      // A 206 is the range: read to its end (unless longer). A whole file is left once the range is in.
      if (filled === out.length && (skip > 0 || at > out.length)) break;
    }
  return out.subarray(0, filled);
}
