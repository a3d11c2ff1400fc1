// Public API of the GloVe chapter: a streaming loader for GloVe text files of
// any release, the shipped vocabulary, the notebook's tokenizer and word
// lookup, plus the chapter's attention functions (glove_attention.js).
//
// The vectors live in the wasm core (cpp/embeddings.h) inside an
// `_EmbeddingTable`; the `Embeddings` class below owns one and frees it in
// delete(). Every result handed out is a JS copy.
import { Matrix } from './matrix.js';
import { gloveAttentionApi } from './glove_attention.js';

/** The shipped vocabulary (built by scripts/build-embeddings.mjs). */
export const DEFAULT_EMBEDDINGS_FILE = 'glove.6B.100d.14k.bin';

const DEFAULT_CHUNK_BYTES = 1 << 20;

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  return typeof value === 'object' ? `a ${value.constructor?.name ?? 'object'}` : `a ${typeof value}`;
}

function abortError(signal) {
  if (signal.reason !== undefined) return signal.reason;
  return new DOMException('The operation was aborted.', 'AbortError');
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Yields Uint8Array chunks of at most `chunkBytes` bytes from any supported source. */
async function* chunksOf(source, chunkBytes, fn) {
  if (typeof source === 'string') {
    const encoder = new TextEncoder();
    // Slice on UTF-16 code units, never between the halves of a surrogate pair.
    const step = Math.max(1, Math.floor(chunkBytes / 3));
    for (let i = 0; i < source.length; ) {
      let end = Math.min(source.length, i + step);
      const last = source.charCodeAt(end - 1);
      if (end < source.length && last >= 0xd800 && last <= 0xdbff) end++;
      yield encoder.encode(source.slice(i, end));
      i = end;
    }
    return;
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    const bytes = source instanceof ArrayBuffer
      ? new Uint8Array(source)
      : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
    for (let i = 0; i < bytes.length; i += chunkBytes) yield bytes.subarray(i, i + chunkBytes);
    return;
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    for (let i = 0; i < source.size; i += chunkBytes) {
      yield new Uint8Array(await source.slice(i, i + chunkBytes).arrayBuffer());
    }
    return;
  }
  const toBytes = (chunk) => {
    if (typeof chunk === 'string') return new TextEncoder().encode(chunk);
    if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
    if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    throw new TypeError(`${fn}: the stream gave ${describe(chunk)}; expected Uint8Array, ArrayBuffer or string chunks`);
  };
  if (typeof ReadableStream !== 'undefined' && source instanceof ReadableStream) {
    const reader = source.getReader();
    let done = false;
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done) {
          done = true;
          return;
        }
        yield toBytes(next.value);
      }
    } finally {
      if (!done) await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
  }
  if (source !== null && typeof source === 'object' && Symbol.asyncIterator in source) {
    for await (const chunk of source) yield toBytes(chunk);
    return;
  }
  throw new TypeError(
    `${fn}: source must be a string of GloVe text, an ArrayBuffer, a typed array, a Blob/File, ` +
      `a ReadableStream or an async iterable of chunks, got ${describe(source)}`,
  );
}

function totalBytesOf(source) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source.byteLength;
  if (typeof Blob !== 'undefined' && source instanceof Blob) return source.size;
  return undefined;
}

/**
 * Word vectors held by the wasm core. Create with `loadEmbeddings`,
 * `loadDefaultEmbeddings` or `embeddingsFromBinary`; call `delete()` when done.
 */
export class Embeddings {
  #core;
  #table;

  /** @internal */
  constructor(core, table) {
    this.#core = core;
    this.#table = table;
  }

  #live(fn) {
    if (this.#table === null) throw new Error(`Embeddings.${fn}: this table was deleted`);
    return this.#table;
  }

  #word(fn, word) {
    if (typeof word !== 'string') throw new TypeError(`Embeddings.${fn}: word must be a string, got ${describe(word)}`);
    return word;
  }

  /** Size of every vector. */
  get dim() {
    return this.#live('dim').dim();
  }

  /** Number of words. */
  get size() {
    return this.#live('size').size();
  }

  /** Where the vectors come from ('' for files parsed with loadEmbeddings). */
  get info() {
    return this.#live('info').info();
  }

  /** True if the word, or its lower-case form, has a vector. */
  has(word) {
    return this.#live('has').indexOf(this.#word('has', word)) >= 0;
  }

  /** The vector of the word itself, else of its lower-case form; undefined if neither is known. */
  vector(word) {
    const table = this.#live('vector');
    const row = table.indexOf(this.#word('vector', word));
    if (row < 0) return undefined;
    return this.#copyRows([row], 'vector').data;
  }

  /**
   * One row per token (tokens × dim). Unknown tokens get a zero row and are
   * listed once each, in order, in `missing`.
   * @param {readonly string[]} tokens
   */
  lookup(tokens) {
    const table = this.#live('lookup');
    if (!Array.isArray(tokens)) throw new TypeError(`Embeddings.lookup: tokens must be a string[], got ${describe(tokens)}`);
    const rows = tokens.map((t, i) => {
      if (typeof t !== 'string') throw new TypeError(`Embeddings.lookup: tokens[${i}] is ${describe(t)}, expected a string`);
      return table.indexOf(t);
    });
    const missing = [];
    rows.forEach((row, i) => {
      if (row < 0 && !missing.includes(tokens[i])) missing.push(tokens[i]);
    });
    return { matrix: this.#copyRows(rows, 'lookup'), missing };
  }

  /**
   * The table in attention-lab's compact binary form ('float32' exact, or
   * 'int16' with one scale per word: |error| <= max|v| / 65534).
   * @param {{encoding?: 'float32' | 'int16', info?: string}} [options]
   */
  toBinary({ encoding = 'float32', info } = {}) {
    const table = this.#live('toBinary');
    const code = { float32: 0, int16: 1 }[encoding];
    if (code === undefined) throw new TypeError(`Embeddings.toBinary: encoding must be 'float32' or 'int16', got ${String(encoding)}`);
    if (info !== undefined) {
      if (typeof info !== 'string') throw new TypeError(`Embeddings.toBinary: info must be a string, got ${describe(info)}`);
      table.setInfo(info);
    }
    const core = this.#core;
    try {
      const status = table.toBinary(code);
      if (status !== 0) throw new RangeError(`Embeddings.toBinary: ${core._lastError()}`);
      const ptr = core._embeddingsBinaryData();
      return new Uint8Array(core.HEAPF64.buffer, ptr, core._embeddingsBinarySize()).slice();
    } finally {
      core._embeddingsBinaryRelease();
    }
  }

  /** Frees the vectors in the wasm memory. The object is unusable afterwards. */
  delete() {
    if (this.#table !== null) {
      this.#table.delete();
      this.#table = null;
    }
  }

  #copyRows(rows, fn) {
    const core = this.#core;
    const dim = this.#table.dim();
    const out = new Float64Array(rows.length * dim);
    const ptr = core._malloc(Math.max(1, dim) * 8);
    if (ptr === 0) throw new RangeError(`Embeddings.${fn}: out of wasm memory`);
    try {
      rows.forEach((row, i) => {
        if (row < 0) return; // a missing word: zero row
        if (this.#table.copyRow(row, ptr) !== 0) throw new RangeError(`Embeddings.${fn}: ${core._lastError()}`);
        out.set(core.HEAPF64.subarray(ptr / 8, ptr / 8 + dim), i * dim);
      });
    } finally {
      core._free(ptr);
    }
    return new Matrix(rows.length, dim, out);
  }
}

/** @type {Map<string, Promise<Uint8Array>>} bytes of default files, by URL */
const defaultFiles = new Map();

async function readAll(response, onProgress, signal) {
  const total = Number(response.headers.get('content-length')) || undefined;
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const parts = [];
  let received = 0;
  for await (const chunk of chunksOf(response.body, DEFAULT_CHUNK_BYTES, 'loadDefaultEmbeddings')) {
    if (signal?.aborted) throw abortError(signal);
    parts.push(chunk.slice());
    received += chunk.length;
    onProgress?.({ bytesRead: received, totalBytes: total, lines: 0, words: 0 });
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/** Loads a classic <script> that stores the file as base64 (pages opened from file://). */
function loadScriptTwin(url, name) {
  const store = () => globalThis.attentionLabData?.[name];
  if (store()) return Promise.resolve(store());
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url.replace(/\.bin$/, '.js');
    script.onload = () => (store() ? resolve(store()) : reject(new Error(`loadDefaultEmbeddings: ${script.src} did not define the data`)));
    script.onerror = () => reject(new Error(`loadDefaultEmbeddings: cannot load ${script.src}`));
    document.head.appendChild(script);
  }).then((base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
}

async function fetchDefault(url, onProgress, signal) {
  const parsed = new URL(url);
  const name = parsed.pathname.split('/').pop() ?? DEFAULT_EMBEDDINGS_FILE;
  if (parsed.protocol === 'file:' && typeof process !== 'undefined' && process.versions?.node) {
    // Node: read the file next to the module. (The specifier is a variable so
    // that browser bundlers leave it alone.)
    const fsModule = 'node:fs/promises';
    const urlModule = 'node:url';
    const { readFile } = await import(/* @vite-ignore */ fsModule);
    const { fileURLToPath } = await import(/* @vite-ignore */ urlModule);
    const bytes = new Uint8Array(await readFile(fileURLToPath(parsed)));
    onProgress?.({ bytesRead: bytes.length, totalBytes: bytes.length, lines: 0, words: 0 });
    return bytes;
  }
  if (parsed.protocol === 'file:' && typeof document !== 'undefined') {
    return loadScriptTwin(parsed.href, name); // browsers do not fetch file:// URLs
  }
  const response = await fetch(parsed.href, { signal });
  if (!response.ok) throw new Error(`loadDefaultEmbeddings: ${parsed.href} answered ${response.status} ${response.statusText}`);
  return readAll(response, onProgress, signal);
}

function defaultUrl() {
  const base = import.meta.url || (typeof document !== 'undefined' ? document.baseURI : undefined);
  if (!base) throw new Error('loadDefaultEmbeddings: cannot tell where the module is; pass { url }');
  return new URL(`./embeddings/${DEFAULT_EMBEDDINGS_FILE}`, base).href;
}

/** @param {any} core the instantiated Emscripten module */
export function embeddingsApi(core) {
  function fromBinary(bytes, fn) {
    const table = new core._EmbeddingTable();
    const ptr = core._malloc(Math.max(1, bytes.length));
    try {
      if (ptr === 0) throw new RangeError(`${fn}: out of wasm memory for ${bytes.length} bytes`);
      new Uint8Array(core.HEAPF64.buffer, ptr, bytes.length).set(bytes);
      if (table.loadBinary(ptr, bytes.length) !== 0) throw new RangeError(`${fn}: ${core._lastError()}`);
    } catch (error) {
      table.delete();
      throw error;
    } finally {
      if (ptr !== 0) core._free(ptr);
    }
    return new Embeddings(core, table);
  }

  return {
    /** Splits on white space exactly like Python's str.split(). */
    tokenize(sentence) {
      if (typeof sentence !== 'string') throw new TypeError(`tokenize: sentence must be a string, got ${describe(sentence)}`);
      return core._tokenize(sentence);
    },

    async loadEmbeddings(source, options = {}) {
      const fn = 'loadEmbeddings';
      if (options === null || typeof options !== 'object') throw new TypeError(`${fn}: options must be an object, got ${describe(options)}`);
      const { vocabulary, limit, onProgress, signal, chunkBytes = DEFAULT_CHUNK_BYTES } = options;
      if (vocabulary !== undefined && (vocabulary === null || typeof vocabulary[Symbol.iterator] !== 'function' || typeof vocabulary === 'string')) {
        throw new TypeError(`${fn}: options.vocabulary must be an iterable of strings (string[] or Set), got ${describe(vocabulary)}`);
      }
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
        throw new RangeError(`${fn}: options.limit must be a non-negative integer, got ${String(limit)}`);
      }
      if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError(`${fn}: options.onProgress must be a function`);
      if (signal !== undefined && (signal === null || typeof signal.aborted !== 'boolean')) throw new TypeError(`${fn}: options.signal must be an AbortSignal`);
      if (!Number.isInteger(chunkBytes) || chunkBytes < 1) throw new RangeError(`${fn}: options.chunkBytes must be a positive integer, got ${String(chunkBytes)}`);
      if (signal?.aborted) throw abortError(signal);

      const parser = new core._GloveParser();
      let buffer = 0;
      try {
        if (vocabulary !== undefined) {
          let i = 0;
          for (const word of vocabulary) {
            if (typeof word !== 'string') throw new TypeError(`${fn}: options.vocabulary[${i}] is ${describe(word)}, expected a string`);
            parser.keepWord(word);
            i++;
          }
        }
        if (limit !== undefined) parser.setLimit(limit);
        const totalBytes = totalBytesOf(source);
        const report = () => onProgress?.({
          bytesRead: parser.bytesRead(), totalBytes, lines: parser.linesRead(), words: parser.size(),
        });
        buffer = core._malloc(chunkBytes);
        if (buffer === 0) throw new RangeError(`${fn}: out of wasm memory for a ${chunkBytes}-byte buffer`);
        const synchronous = typeof source === 'string' || source instanceof ArrayBuffer || ArrayBuffer.isView(source);
        for await (const chunk of chunksOf(source, chunkBytes, fn)) {
          if (signal?.aborted) throw abortError(signal);
          for (let at = 0; at < chunk.length; at += chunkBytes) {
            const piece = chunk.subarray(at, at + chunkBytes);
            new Uint8Array(core.HEAPF64.buffer, buffer, piece.length).set(piece);
            if (parser.feed(buffer, piece.length) !== 0) throw new SyntaxError(`${fn}: ${core._lastError()}`);
          }
          report();
          if (synchronous) await nextTask(); // let the page breathe and abort signals arrive
        }
        if (signal?.aborted) throw abortError(signal);
        if (parser.finish() !== 0) throw new SyntaxError(`${fn}: ${core._lastError()}`);
        report();
        return new Embeddings(core, parser.takeTable());
      } finally {
        if (buffer !== 0) core._free(buffer);
        parser.delete();
      }
    },

    async loadDefaultEmbeddings(options = {}) {
      const fn = 'loadDefaultEmbeddings';
      if (options === null || typeof options !== 'object') throw new TypeError(`${fn}: options must be an object, got ${describe(options)}`);
      const { url, onProgress, signal } = options;
      if (url !== undefined && typeof url !== 'string' && !(url instanceof URL)) throw new TypeError(`${fn}: options.url must be a string or URL, got ${describe(url)}`);
      if (signal?.aborted) throw abortError(signal);
      const href = url === undefined
        ? defaultUrl()
        : new URL(String(url), typeof document !== 'undefined' ? document.baseURI : import.meta.url).href;
      let bytes = defaultFiles.get(href);
      if (!bytes) {
        bytes = fetchDefault(href, onProgress, signal);
        defaultFiles.set(href, bytes);
        bytes.catch(() => defaultFiles.delete(href));
      }
      return fromBinary(await bytes, fn);
    },

    embeddingsFromBinary(bytes) {
      const fn = 'embeddingsFromBinary';
      if (!(bytes instanceof ArrayBuffer) && !(bytes instanceof Uint8Array)) {
        throw new TypeError(`${fn}: bytes must be an ArrayBuffer or Uint8Array, got ${describe(bytes)}`);
      }
      return fromBinary(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes, fn);
    },

    ...gloveAttentionApi(core),
  };
}
