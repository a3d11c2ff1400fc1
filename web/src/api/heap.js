// Moves arrays in and out of the wasm heap for one call. Every allocation made
// through the scope is freed when the call ends, even if it throws. Results are
// copied out, never returned as views: memory growth would invalidate them.

/**
 * @template T
 * @param {any} core the Emscripten module
 * @param {(scope: HeapScope) => T} body
 * @returns {T}
 */
export function withHeap(core, body) {
  const scope = new HeapScope(core);
  try {
    return body(scope);
  } finally {
    scope.freeAll();
  }
}

export class HeapScope {
  constructor(core) {
    this.core = core;
    /** @type {number[]} */
    this.pointers = [];
  }

  /** Allocates room for `count` doubles (at least one) and returns the byte address. */
  alloc(count) {
    const ptr = this.core._malloc(Math.max(1, count) * 8);
    if (ptr === 0) throw new RangeError(`out of wasm memory allocating ${count} doubles`);
    this.pointers.push(ptr);
    return ptr;
  }

  /** Copies a Float64Array into the heap and returns its address. */
  input(values) {
    const ptr = this.alloc(values.length);
    this.core.HEAPF64.set(values, ptr / 8);
    return ptr;
  }

  /** Copies `count` doubles at `ptr` out of the heap. */
  read(ptr, count) {
    return this.core.HEAPF64.slice(ptr / 8, ptr / 8 + count);
  }

  freeAll() {
    for (const ptr of this.pointers) this.core._free(ptr);
    this.pointers.length = 0;
  }
}
