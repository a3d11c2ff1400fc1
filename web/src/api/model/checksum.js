// A 64-bit fingerprint of a byte stream fed in pieces cut anywhere (two 32-bit
// multiply-xor lanes, FNV-1a and a Murmur-style one, plus the length). openModel
// records one per tensor explainHead may read again, while the bytes stream
// past; the re-read must match it. It detects a changed file, not a forger.
export class Checksum {
  #a = 0x811c9dc5;
  #b = 0x9747b28c;
  #length = 0;

  /** @param {Uint8Array} bytes the next bytes of the stream */
  update(bytes) {
    let a = this.#a;
    let b = this.#b;
    for (let i = 0; i < bytes.length; i++) {
      a = Math.imul(a ^ bytes[i], 0x01000193);
      b = Math.imul(b ^ bytes[i], 0x5bd1e995);
      b ^= b >>> 13;
    }
    this.#a = a;
    this.#b = b;
    this.#length += bytes.length;
    return this;
  }

  /** The fingerprint so far, as text. */
  digest() {
    const hex = (x) => (x >>> 0).toString(16).padStart(8, '0');
    return `${hex(this.#a)}${hex(this.#b)}:${this.#length}`;
  }
}

/** The fingerprint of one array of bytes. */
export const checksumOf = (bytes) => new Checksum().update(bytes).digest();
