// Moves arrays in and out of the wasm heap for one call, in the binding
// convention of cpp/bindings.cpp: every array crosses as a Tensor
// { data: byte address, rows, cols }. Every allocation made through a scope is
// freed when the call ends, even if it throws. Results are copied out, never
// returned as views: memory growth would invalidate them.
//
// Element type: a scope is float64 (the default) or float32 (the float32
// path, precision.js); its matrices, vectors and outputs all use that type,
// and byte sizes count bytesPerElement (8 or 4) per entry.
//
// Size policy: the wasm memory can grow to 2 GiB (the model module's to 4 GiB:
// cpp: -sMAXIMUM_MEMORY). Addresses may pass 2^31, where wasm's i32 reads as
// negative in JS: every address is made unsigned (>>> 0) before it indexes. One
// call may allocate at most MAX_CALL_BYTES; a request above that is refused
// with a RangeError naming the function, the argument and its shape BEFORE
// anything is allocated, and sizes are computed in doubles, so nothing wraps.
//
// Copy-in: every array enters through matrix()/vector()/bytes(), which copy
// exactly the entries the allocation counted (rows x cols) with one set() of
// our own view into a destination view of exactly that size. Nothing is read
// through a property the caller controls (views.js), and no view of the heap
// is ever handed to caller code (a subclass's set() would receive it).
import { asError } from './errors.js';
import { Matrix } from './matrix.js';
import { entryCount, isFloatTypedArray, typedArrayName } from './views.js';

/** Most bytes one call may allocate in the wasm heap (inputs and outputs together). */
export const MAX_CALL_BYTES = 2 ** 30;

/** An absent optional argument (no mask, no bias, no output). */
export const ABSENT = Object.freeze({ data: 0, rows: 0, cols: 0 });

function formatBytes(bytes) {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  if (bytes >= 2 ** 20) return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  return `${bytes} bytes`;
}

/**
 * Runs `body` with a scope for `fn`'s heap buffers and frees them afterwards.
 * @template T
 * @param {any} core the Emscripten module
 * @param {string} fn public function name, for messages
 * @param {(scope: HeapScope) => T} body
 * @param {'float64' | 'float32'} [precision] the scope's element type
 * @returns {T}
 */
export function withHeap(core, fn, body, precision = 'float64') {
  const scope = new HeapScope(core, fn, precision);
  try {
    return body(scope);
  } catch (error) {
    throw asError(error, fn);
  } finally {
    scope.freeAll();
  }
}

export class HeapScope {
  /** @type {number[]} */
  #pointers = [];
  #bytes = 0;

  constructor(core, fn, precision = 'float64') {
    this.core = core;
    this.fn = fn;
    this.float32 = precision === 'float32';
    /** Bytes per matrix entry: 8 (float64) or 4 (float32). */
    this.bytesPerElement = this.float32 ? 4 : 8;
  }

  /** The wasm memory as the scope's element type (a fresh view: memory growth replaces the buffer). */
  #heap() {
    return this.float32 ? new Float32Array(this.core.HEAPF64.buffer) : this.core.HEAPF64;
  }

  /**
   * Allocates `bytes` (at least 1) and returns the address.
   * @param {number} bytes
   * @param {string} what the argument and its shape, e.g. "weights (4x4)"
   */
  allocBytes(bytes, what) {
    if (!(bytes <= MAX_CALL_BYTES - this.#bytes)) {
      throw new RangeError(
        `${this.fn}: ${what} needs ${formatBytes(bytes)}, more than the ${formatBytes(MAX_CALL_BYTES)} one call may use`,
      );
    }
    const ptr = this.core._malloc(Math.max(1, bytes)) >>> 0;
    if (ptr === 0) throw new RangeError(`${this.fn}: ${what} (${formatBytes(bytes)}) does not fit in the wasm memory`);
    this.#pointers.push(ptr);
    this.#bytes += bytes;
    return ptr;
  }

  /** An output Tensor of rows x cols entries of the scope's type. */
  output(rows, cols, name) {
    return { data: this.allocBytes(rows * cols * this.bytesPerElement, `${name} (${rows}x${cols})`), rows, cols };
  }

  /**
   * A matrix {rows, cols, data} copied in as a Tensor (rounded to float32 in a float32 scope).
   * `data` is convert.js's exact view; its true length is checked again here, just before the
   * copy, because caller code may have run since (a getter that detached or shrank its buffer).
   */
  matrix(m, name) {
    const { rows, cols, data } = m;
    const count = rows * cols;
    if (!isFloatTypedArray(data) || entryCount(data) !== count) {
      throw new RangeError(
        `${this.fn}: ${name} (${rows}x${cols}) no longer holds ${count} entries: its buffer was detached or resized during the call`,
      );
    }
    const t = this.output(rows, cols, name);
    const start = (t.data >>> 0) / this.bytesPerElement;
    this.#heap()
      .subarray(start, start + count)
      .set(data); // both views are ours: the built-in set
    return t;
  }

  /** A Float64Array copied in as a 1 x n Tensor. */
  vector(v, name) {
    return this.matrix({ rows: 1, cols: entryCount(v), data: v }, name);
  }

  /** Bytes (a Uint8Array, measured by its true length) copied in; returns the address. */
  bytes(u8, name) {
    if (typedArrayName(u8) !== 'Uint8Array') throw new TypeError(`${this.fn}: ${name} must be a Uint8Array`);
    const size = entryCount(u8);
    const ptr = this.allocBytes(size, `${name} (${size} bytes)`);
    new Uint8Array(this.core.HEAPF64.buffer, ptr, size).set(u8); // reads u8's true length, as counted
    return ptr;
  }

  /** An output Tensor's entries as a view of the heap: copy it at once (memory growth detaches it). */
  #entries(t) {
    const start = (t.data >>> 0) / this.bytesPerElement;
    return this.#heap().subarray(start, start + t.rows * t.cols);
  }

  /** A copy of an output Tensor's entries: a Float64Array, or a Float32Array in a float32 scope. */
  read(t) {
    const entries = this.#entries(t);
    // set() from a subarray, not slice(): V8 copies wasm memory 2.5-3x faster this way
    // (128x128 float64: 36-48 us against 97-125 us, measured in Node 20).
    const copy = this.float32 ? new Float32Array(entries.length) : new Float64Array(entries.length);
    copy.set(entries);
    return copy;
  }

  /**
   * A copy of an output Tensor as a Matrix, or copied into `into` (options.out, an OutTarget of
   * out.js readOut: same shape and element type) and the caller's Matrix returned.
   */
  readMatrix(t, into = null) {
    if (!into) return new Matrix(t.rows, t.cols, this.read(t));
    // into.data is out.js's own view of the caller's memory: the built-in set, never a subclass's
    // (which would be handed the heap view).
    into.data.set(this.#entries(t));
    return into.matrix;
  }

  freeAll() {
    for (const ptr of this.#pointers) this.core._free(ptr);
    this.#pointers.length = 0;
    this.#bytes = 0;
  }
}

/** A copy of `size` bytes at `ptr` (outside any scope: buffers the core owns). */
export function readBytes(core, ptr, size) {
  const copy = new Uint8Array(size);
  copy.set(new Uint8Array(core.HEAPF64.buffer, ptr >>> 0, size)); // not slice(): a species constructor could see the heap
  return copy;
}
