// Word embeddings: a streaming loader for GloVe text files of any release, the
// shipped vocabulary, the notebook's tokenizer and word lookup.
//
// The vectors live in the wasm core (cpp/models/embeddings.h) inside an
// `_EmbeddingTable`; the `Embeddings` class below owns one (OwnedHandle) and
// frees it in delete() or when dropped. Every result handed out is a JS copy.
import {
  coreCall,
  describe,
  readOptions,
  requireInteger,
  requireOneOf,
  requireString,
  throwForStatus,
} from './errors.js';
import { OwnedHandle, rawOf } from './handle.js';
import { MAX_CALL_BYTES, readBytes, withHeap } from './heap.js';
import { Matrix } from './matrix.js';
import { bytesView } from './views.js';
import { coreString } from './text.js';

/** The shipped vocabulary (built by scripts/build-embeddings.mjs). */
export const DEFAULT_EMBEDDINGS_FILE = 'glove.6B.100d.14k.bin';

const DEFAULT_CHUNK_BYTES = 1 << 20;

function requireSignal(signal, fn) {
  if (signal === undefined) return;
  if (signal === null || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function')
    throw new TypeError(`${fn}: options.signal must be an AbortSignal, got ${describe(signal)}`);
}

function abortError(signal) {
  if (signal.reason !== undefined) return signal.reason;
  return new DOMException('The operation was aborted.', 'AbortError');
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Settles like `promise`, or rejects as soon as `signal` aborts (a stalled source cannot hold an abort back). */
function unlessAborted(promise, signal) {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = (done) => (value) => {
      signal.removeEventListener('abort', onAbort);
      done(value);
    };
    promise.then(settle(resolve), settle(reject));
  });
}

/** How long the loader may run between two turns of the event loop. */
const SLICE_MS = 12;

/** Yields Uint8Array chunks of at most `chunkBytes` bytes from any supported source. */
async function* chunksOf(source, chunkBytes, fn) {
  if (typeof source === 'string') {
    const encoder = new TextEncoder();
    // Slice on UTF-16 code units, never between the halves of a surrogate pair.
    const step = Math.max(1, Math.floor(chunkBytes / 3));
    for (let i = 0; i < source.length;) {
      let end = Math.min(source.length, i + step);
      const last = source.charCodeAt(end - 1);
      if (end < source.length && last >= 0xd800 && last <= 0xdbff) end++;
      yield encoder.encode(source.slice(i, end));
      i = end;
    }
    return;
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    const bytes =
      source instanceof ArrayBuffer
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
export class Embeddings extends OwnedHandle {
  #core;

  /** @internal */
  constructor(core, table) {
    super(table, 'Embeddings');
    this.#core = core;
  }

  #word(fn, word) {
    if (typeof word !== 'string') throw new TypeError(`Embeddings.${fn}: word must be a string, got ${describe(word)}`);
    return coreString(this.#core, word, `Embeddings.${fn}`, 'word');
  }

  /** Size of every vector. */
  get dim() {
    return rawOf(this, 'dim').dim();
  }

  /** Number of words. */
  get size() {
    return rawOf(this, 'size').size();
  }

  /** Where the vectors come from ('' for files parsed with loadEmbeddings). */
  get info() {
    return rawOf(this, 'info').info();
  }

  /** True if the word, or its lower-case form, has a vector. */
  has(word) {
    const text = this.#word('has', word);
    return rawOf(this, 'has').indexOf(text) >= 0;
  }

  /** The vector of the word itself, else of its lower-case form; undefined if neither is known. */
  vector(word) {
    const text = this.#word('vector', word);
    const row = rawOf(this, 'vector').indexOf(text);
    if (row < 0) return undefined;
    return this.#copyRows([row], 'vector').data;
  }

  /**
   * One row per token (tokens × dim). Unknown tokens get a zero row and are
   * listed once each, in order, in `missing`.
   * @param {readonly string[]} tokens
   */
  lookup(tokens) {
    rawOf(this, 'lookup'); // a deleted table is reported before the tokens are checked
    if (!Array.isArray(tokens))
      throw new TypeError(`Embeddings.lookup: tokens must be a string[], got ${describe(tokens)}`);
    // Every token is read (getters run) before the table is touched: one may have deleted it.
    const words = Array.from({ length: tokens.length }, (_, i) => {
      const t = tokens[i];
      if (typeof t !== 'string')
        throw new TypeError(
          `Embeddings.lookup: tokens[${i}] is ${i in tokens ? describe(t) : 'a hole'}, expected a string`,
        );
      return t;
    });
    const table = rawOf(this, 'lookup');
    const core = this.#core;
    const rows = words.map((t, i) => table.indexOf(coreString(core, t, 'Embeddings.lookup', `tokens[${i}]`)));
    const missing = [];
    rows.forEach((row, i) => {
      if (row < 0 && !missing.includes(words[i])) missing.push(words[i]);
    });
    return { matrix: this.#copyRows(rows, 'lookup'), missing };
  }

  /**
   * The table in attention-lab's compact binary form: 'float32' exact (4 bytes
   * per value), or one scale per word with 'int16' (2 bytes, |error| <= max|v| / 65534)
   * or 'int12' (1.5 bytes, |error| <= max|v| / 4094).
   * @param {{encoding?: 'float32' | 'int16' | 'int12', info?: string}} [options]
   */
  toBinary(options) {
    const fn = 'Embeddings.toBinary';
    rawOf(this, 'toBinary'); // a deleted table is reported before the options are checked
    const { encoding = 'float32', info } = readOptions(options, ['encoding', 'info'], fn);
    // The index is the C++ BinaryEncoding code (cpp/models/embeddings.h).
    const code = BINARY_ENCODINGS.indexOf(requireOneOf(encoding, BINARY_ENCODINGS, fn, 'options.encoding'));
    if (info !== undefined) requireString(info, fn, 'options.info');
    const table = rawOf(this, 'toBinary'); // after the options: a getter among them may have deleted it
    if (info !== undefined) table.setInfo(coreString(this.#core, info, fn, 'options.info'));
    const core = this.#core;
    try {
      throwForStatus(core, table.toBinary(code), fn);
      return readBytes(core, core._binaryData(), core._binarySize());
    } finally {
      core._binaryRelease();
    }
  }

  #copyRows(rows, fn) {
    const core = this.#core;
    const table = rawOf(this, fn);
    const dim = table.dim();
    const out = new Float64Array(rows.length * dim);
    withHeap(core, `Embeddings.${fn}`, (heap) => {
      const row = heap.output(1, dim, 'row');
      rows.forEach((r, i) => {
        if (r < 0) return; // a missing word: zero row
        throwForStatus(core, table.copyRow(r, row), `Embeddings.${fn}`);
        out.set(heap.read(row), i * dim);
      });
    });
    return new Matrix(rows.length, dim, out);
  }
}

/**
 * One download per URL, shared by every concurrent caller. Each caller waits
 * with its own signal and progress callback; the download itself is cancelled
 * only when every caller waiting for it has aborted. Finished bytes are kept
 * for later calls.
 */
class SharedDownload {
  #controller = new AbortController();
  #listeners = new Set();
  #waiting = 0;
  #settled = false;

  constructor(href, forget) {
    this.bytes = fetchDefault(
      href,
      (progress) => this.#listeners.forEach((listen) => listen(progress)),
      this.#controller.signal,
    );
    /** @type {number | undefined} bytes held once the download finished */
    this.size = undefined;
    this.bytes.then(
      (bytes) => {
        this.#settled = true;
        this.size = bytes.length;
      },
      () => {
        this.#settled = true;
        forget();
      },
    );
  }

  async wait(onProgress, signal) {
    this.#waiting++;
    const listener = onProgress && ((progress) => onProgress(progress));
    if (listener) this.#listeners.add(listener);
    try {
      return await unlessAborted(this.bytes, signal);
    } finally {
      this.#waiting--;
      if (listener) this.#listeners.delete(listener);
      if (this.#waiting === 0 && !this.#settled) this.#controller.abort();
    }
  }
}

/** @type {Map<string, SharedDownload>} downloads of default files, by URL, least recently used first */
const defaultFiles = new Map();
/** Finished downloads kept for later calls: at most this many files... */
export const MAX_CACHED_FILES = 4;
/** ...holding at most this many bytes together (the shipped table is 2.2 MB). */
export const MAX_CACHED_BYTES = 2 ** 26;

/** The download of `href`, shared while it runs and cached (least recently used evicted) once done. */
function sharedDownload(href) {
  let download = defaultFiles.get(href);
  if (download) {
    defaultFiles.delete(href); // re-inserted below: most recently used
  } else {
    download = new SharedDownload(href, () => defaultFiles.get(href) === download && defaultFiles.delete(href));
    download.bytes.then(evictOldDownloads, () => {});
  }
  defaultFiles.set(href, download);
  return download;
}

/** Drops the least recently used finished downloads until the cache is within its bounds. */
function evictOldDownloads() {
  let { files, bytes } = cachedDefaultFiles();
  for (const [href, download] of defaultFiles) {
    if (files <= MAX_CACHED_FILES && bytes <= MAX_CACHED_BYTES) break;
    if (download.size === undefined) continue; // still running: callers are waiting on it
    defaultFiles.delete(href);
    files--;
    bytes -= download.size;
  }
}

/** What the download cache holds now (for tests): finished files and their bytes. */
export function cachedDefaultFiles() {
  let files = 0;
  let bytes = 0;
  for (const download of defaultFiles.values()) {
    if (download.size === undefined) continue;
    files++;
    bytes += download.size;
  }
  return { files, bytes };
}

/** Node's file errors, said in words that name the function and the file. */
function fileError(fn, path, error) {
  const reasons = {
    ENOENT: 'no such file',
    EISDIR: 'it is a directory, not a file',
    EACCES: 'permission denied',
    ENOTDIR: 'a part of the path is not a directory',
  };
  const reason = reasons[error?.code] ?? String(error?.message ?? error);
  return new Error(`${fn}: cannot read ${path}: ${reason}`, { cause: error });
}

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
    script.onload = () =>
      store() ? resolve(store()) : reject(new Error(`loadDefaultEmbeddings: ${script.src} did not define the data`));
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
    const path = fileURLToPath(parsed);
    let bytes;
    try {
      bytes = new Uint8Array(await readFile(path, { signal }));
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      throw fileError('loadDefaultEmbeddings', path, error);
    }
    onProgress?.({ bytesRead: bytes.length, totalBytes: bytes.length, lines: 0, words: 0 });
    return bytes;
  }
  if (parsed.protocol === 'file:' && typeof document !== 'undefined') {
    return loadScriptTwin(parsed.href, name); // browsers do not fetch file:// URLs
  }
  let response;
  try {
    response = await fetch(parsed.href, { signal });
  } catch (error) {
    if (signal?.aborted) throw abortError(signal);
    throw new Error(`loadDefaultEmbeddings: cannot fetch ${parsed.href}: ${error?.message ?? error}`, { cause: error });
  }
  if (!response.ok)
    throw new Error(`loadDefaultEmbeddings: ${parsed.href} answered ${response.status} ${response.statusText}`);
  const type = response.headers.get('content-type') ?? '';
  // A dev server answers a missing file with its HTML page: say so, not "no ATLEMB01 header".
  if (/^text\/html/i.test(type)) throw notTheFile(parsed.href, `an HTML page (${type})`);
  const bytes = await readAll(response, onProgress, signal);
  if (String.fromCharCode(...bytes.subarray(0, 8)) !== 'ATLEMB01')
    throw notTheFile(parsed.href, `${bytes.length} bytes of ${type || 'unknown type'} that do not start with ATLEMB01`);
  return bytes;
}

function notTheFile(href, what) {
  return new Error(
    `loadDefaultEmbeddings: ${href} returned ${what}, not the vectors file: it is not served there ` +
      `(serve attention-lab's dist/lib/embeddings/${DEFAULT_EMBEDDINGS_FILE} at that address, or pass { url })`,
  );
}

function defaultUrl() {
  try {
    // A literal that bundlers (Vite, webpack, Parcel, Rollup's import.meta assets
    // plugin) follow: they copy the file and write its public address here. Some
    // (Next.js) give a path without origin: resolved against the page.
    const href = new URL('./embeddings/glove.6B.100d.14k.bin', import.meta.url).href;
    return typeof document === 'undefined' ? href : new URL(href, document.baseURI).href;
  } catch {
    // no module address (a classic script): next to the page
    if (typeof document !== 'undefined') return new URL(`embeddings/${DEFAULT_EMBEDDINGS_FILE}`, document.baseURI).href;
    throw new Error('loadDefaultEmbeddings: cannot tell where the module is; pass { url }');
  }
}

/**
 * What a relative options.url is resolved against: the page, a worker's script,
 * or in Node the working directory (as a file path would be). Not import.meta.url,
 * which webpack would replace with the build machine's file:// address.
 */
function relativeBase() {
  if (typeof document !== 'undefined') return document.baseURI;
  if (typeof location !== 'undefined') return location.href;
  // globalThis.process, not a bare `process`: Parcel would try to polyfill that for the browser
  // (and fail where auto-install is off, as in CI).
  return new URL(globalThis.process.cwd().replace(/\\/g, '/').replace(/\/?$/, '/'), 'file:///').href;
}

/** toBinary() encodings, in the order of their codes in the file header. */
const BINARY_ENCODINGS = ['float32', 'int16', 'int12'];
/** Longest sentence tokenize() takes, in UTF-16 code units (a few books' worth). */
export const MAX_SENTENCE_LENGTH = 2 ** 24;
/** Largest loader buffer, options.chunkBytes. */
export const MAX_CHUNK_BYTES = 2 ** 26;

/**
 * Refuses, before the bytes are copied into the wasm memory, a file whose header
 * announces a float32 table that would break the one-call size policy (heap.js):
 * an int12 file decodes to 2.7 times its size. Whether the header matches the
 * file's length is checked by the C++ reader, also before it allocates.
 */
function refuseHugeTable(bytes, fn) {
  // Not a file of ours (too short, an HTML page...): the reader says so.
  if (bytes.length < 28 || String.fromCharCode(...bytes.subarray(0, 8)) !== 'ATLEMB01') return;
  const header = new DataView(bytes.buffer, bytes.byteOffset, 28);
  const count = header.getUint32(12, true);
  const dim = header.getUint32(16, true);
  const tableBytes = count * dim * 4; // doubles: no wrap-around
  if (bytes.length + tableBytes > MAX_CALL_BYTES)
    throw new RangeError(
      `${fn}: the header announces ${count} words of size ${dim}, a table of ${(tableBytes / 2 ** 20).toFixed(1)} MiB; ` +
        `with the ${bytes.length} bytes read that is more than the ${MAX_CALL_BYTES / 2 ** 20} MiB one call may use`,
    );
}

/** Most words options.vocabulary may give (GloVe's largest release, 840B, has 2.2 million). */
export const MAX_VOCABULARY_WORDS = 2 ** 22;
/** Most UTF-16 code units its words may have together. */
export const MAX_VOCABULARY_CHARS = 2 ** 26;

/** @param {any} core the instantiated Emscripten module */
export function embeddingsApi(core) {
  /**
   * Passes options.vocabulary's words to the parser. An iterable may never end: it is refused
   * past MAX_VOCABULARY_WORDS words or MAX_VOCABULARY_CHARS characters, before the wasm memory
   * runs out, and the loop yields every SLICE_MS so that an abort lands.
   */
  async function keepVocabulary(parser, vocabulary, signal, fn) {
    let words = 0;
    let chars = 0;
    let sliceStart = Date.now();
    for (const word of vocabulary) {
      if (typeof word !== 'string')
        throw new TypeError(`${fn}: options.vocabulary[${words}] is ${describe(word)}, expected a string`);
      words++;
      chars += word.length;
      if (words > MAX_VOCABULARY_WORDS || chars > MAX_VOCABULARY_CHARS)
        throw new RangeError(
          `${fn}: options.vocabulary gives more than ${MAX_VOCABULARY_WORDS} words or ${MAX_VOCABULARY_CHARS} characters`,
        );
      const text = coreString(core, word, fn, `options.vocabulary[${words - 1}]`);
      throwForStatus(
        core,
        coreCall(fn, () => parser.keepWord(text)),
        fn,
      );
      if (Date.now() - sliceStart >= SLICE_MS) {
        await nextTask();
        if (signal?.aborted) throw abortError(signal);
        sliceStart = Date.now();
      }
    }
  }

  const ok = core.StatusCode.Ok;

  function fromBinary(bytes, fn) {
    refuseHugeTable(bytes, fn);
    const table = coreCall(fn, () => new core._EmbeddingTable());
    try {
      withHeap(core, fn, (heap) =>
        throwForStatus(core, table.loadBinary(heap.bytes(bytes, 'bytes'), bytes.length), fn),
      );
    } catch (error) {
      table.delete();
      throw error;
    }
    return new Embeddings(core, table);
  }

  return {
    /** Splits on white space exactly like Python's str.split(). */
    tokenize(sentence) {
      const fn = 'tokenize';
      requireString(sentence, fn, 'sentence');
      if (sentence.length > MAX_SENTENCE_LENGTH) {
        throw new RangeError(
          `${fn}: sentence has ${sentence.length} characters, more than the ${MAX_SENTENCE_LENGTH} allowed`,
        );
      }
      throwForStatus(core, core._tokenize(coreString(core, sentence, fn, 'sentence')), fn);
      return core._tokens();
    },

    async loadEmbeddings(source, options) {
      const fn = 'loadEmbeddings';
      const o = readOptions(options, ['vocabulary', 'limit', 'onProgress', 'signal', 'chunkBytes'], fn);
      const { vocabulary, limit, onProgress, signal, chunkBytes = DEFAULT_CHUNK_BYTES } = o;
      if (
        vocabulary !== undefined &&
        (vocabulary === null || typeof vocabulary[Symbol.iterator] !== 'function' || typeof vocabulary === 'string')
      ) {
        throw new TypeError(
          `${fn}: options.vocabulary must be an iterable of strings (string[] or Set), got ${describe(vocabulary)}`,
        );
      }
      if (limit !== undefined) requireInteger(limit, fn, 'options.limit', 0, Number.MAX_SAFE_INTEGER);
      if (onProgress !== undefined && typeof onProgress !== 'function')
        throw new TypeError(`${fn}: options.onProgress must be a function, got ${describe(onProgress)}`);
      requireSignal(signal, fn);
      requireInteger(chunkBytes, fn, 'options.chunkBytes', 1, MAX_CHUNK_BYTES);
      if (signal?.aborted) throw abortError(signal);

      const parser = coreCall(fn, () => new core._GloveParser());
      let buffer = 0;
      let chunks;
      try {
        if (vocabulary !== undefined) await keepVocabulary(parser, vocabulary, signal, fn);
        if (limit !== undefined) parser.setLimit(limit);
        const totalBytes = totalBytesOf(source);
        const report = () =>
          onProgress?.({
            bytesRead: parser.bytesRead(),
            totalBytes,
            lines: parser.linesRead(),
            words: parser.size(),
          });
        buffer = core._malloc(chunkBytes) >>> 0;
        if (buffer === 0)
          throw new RangeError(
            `${fn}: a ${chunkBytes}-byte buffer (options.chunkBytes) does not fit in the wasm memory`,
          );
        // Sources held in memory (strings, buffers, generators, streams already
        // filled) never give the event loop a turn by themselves: the loop
        // yields every SLICE_MS so the page stays responsive and aborts land.
        chunks = chunksOf(source, chunkBytes, fn);
        let sliceStart = Date.now();
        for (;;) {
          const next = await unlessAborted(chunks.next(), signal);
          if (next.done) break;
          const chunk = next.value;
          if (signal?.aborted) throw abortError(signal);
          for (let at = 0; at < chunk.length; at += chunkBytes) {
            const piece = chunk.subarray(at, at + chunkBytes);
            new Uint8Array(core.HEAPF64.buffer, buffer, piece.length).set(piece);
            const status = parser.feed(buffer, piece.length);
            if (status !== ok)
              throw new (status === core.StatusCode.OutOfMemory ? RangeError : SyntaxError)(
                `${fn}: ${core._lastError()}`,
              );
          }
          report();
          if (Date.now() - sliceStart >= SLICE_MS) {
            await nextTask();
            sliceStart = Date.now();
          }
        }
        if (signal?.aborted) throw abortError(signal);
        if (parser.finish() !== ok) throw new SyntaxError(`${fn}: ${core._lastError()}`);
        report();
        const table = coreCall(fn, () => new core._EmbeddingTable());
        try {
          throwForStatus(core, parser.takeTable(table), fn);
        } catch (error) {
          table.delete();
          throw error;
        }
        return new Embeddings(core, table);
      } finally {
        if (buffer !== 0) core._free(buffer);
        parser.delete();
        chunks?.return().catch(() => {}); // releases a stream's reader; not awaited: it may be stalled
      }
    },

    async loadDefaultEmbeddings(options) {
      const fn = 'loadDefaultEmbeddings';
      const { url, onProgress, signal } = readOptions(options, ['url', 'onProgress', 'signal'], fn);
      if (url !== undefined && typeof url !== 'string' && !(url instanceof URL))
        throw new TypeError(`${fn}: options.url must be a string or URL, got ${describe(url)}`);
      if (onProgress !== undefined && typeof onProgress !== 'function')
        throw new TypeError(`${fn}: options.onProgress must be a function, got ${describe(onProgress)}`);
      requireSignal(signal, fn);
      if (signal?.aborted) throw abortError(signal);
      const href = url === undefined ? defaultUrl() : new URL(String(url), relativeBase()).href;
      return fromBinary(await sharedDownload(href).wait(onProgress, signal), fn);
    },

    embeddingsFromBinary(bytes) {
      const fn = 'embeddingsFromBinary';
      if (!(bytes instanceof ArrayBuffer) && !(bytes instanceof Uint8Array)) {
        throw new TypeError(`${fn}: bytes must be an ArrayBuffer or Uint8Array, got ${describe(bytes)}`);
      }
      return fromBinary(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytesView(bytes), fn);
    },
  };
}
