// Writes one tensor's bytes, as they stream in (in chunks of any size, cut
// anywhere), into float32 entries of the wasm heap: F32 is copied byte for byte
// (both little-endian), F16 and BF16 are widened exactly (every F16 and BF16
// value is a float32), or copied as they are where the core keeps them 16-bit.

/** float16 bits -> float32 value, built on first use. */
let halfTable;
function halfToFloat() {
  if (halfTable) return halfTable;
  halfTable = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const fraction = h & 0x3ff;
    if (exponent === 0) halfTable[h] = sign * fraction * 2 ** -24;
    else if (exponent === 31) halfTable[h] = fraction ? NaN : sign * Infinity;
    else halfTable[h] = sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
  }
  return halfTable;
}

export class TensorWriter {
  #pending = -1; // the first byte of a 2-byte element cut by a chunk boundary

  /**
   * @param {{ dtype: string, begin: number, end: number }} tensor offsets in the data section
   * @param {number} address byte address of its destination in the heap
   * @param {boolean} [asStored] the destination keeps the file's 16-bit values (else float32)
   */
  constructor(tensor, address, asStored = false) {
    this.dtype = tensor.dtype;
    this.asStored = asStored;
    this.begin = tensor.begin;
    this.end = tensor.end;
    this.address = address;
  }

  /**
   * Takes the part of `chunk` (which starts at data offset `at`) inside this tensor.
   * @param {ArrayBuffer} heap the wasm memory's current buffer
   */
  write(heap, chunk, at) {
    const from = Math.max(this.begin, at);
    const to = Math.min(this.end, at + chunk.length);
    if (from >= to) return;
    const bytes = chunk.subarray(from - at, to - at);
    const offset = from - this.begin; // bytes of this tensor already written
    if (this.dtype === 'F32' || this.asStored) {
      new Uint8Array(heap, this.address + offset, bytes.length).set(bytes);
      return;
    }
    // 2-byte elements: element e of the tensor is float32 e of the destination.
    let i = 0;
    let e = Math.floor(offset / 2);
    const store = this.dtype === 'BF16' ? new Uint32Array(heap) : new Float32Array(heap);
    const table = this.dtype === 'F16' ? halfToFloat() : null;
    const base = this.address >>> 2; // unsigned: addresses above 2 GiB
    const put = (bits) => {
      store[base + e] = table ? table[bits] : bits << 16;
      e++;
    };
    if (offset % 2 === 1) {
      put(this.#pending | (bytes[0] << 8));
      i = 1;
    }
    for (; i + 1 < bytes.length; i += 2) put(bytes[i] | (bytes[i + 1] << 8));
    if (i < bytes.length) this.#pending = bytes[i];
  }
}
