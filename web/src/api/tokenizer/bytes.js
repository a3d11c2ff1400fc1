// GPT-2's byte-level alphabet: every byte 0..255 stands for one printable
// Unicode character, so a vocabulary of strings can hold any byte sequence.
// Printable Latin-1 bytes stand for themselves; the other 68 (controls, space,
// 0x7F-0xA0, 0xAD) become U+0100 onwards, in byte order (so ' ' is 'Ġ', '\n' 'Ċ').
// This is `bytes_to_unicode()` of OpenAI's encoder.py and of Hugging Face's ByteLevel.

function printable(b) {
  return (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
}

/** BYTE_TO_CHAR[b] is the character that stands for byte b. */
export const BYTE_TO_CHAR = (() => {
  const table = new Array(256);
  let next = 0x100;
  for (let b = 0; b < 256; b++) table[b] = String.fromCharCode(printable(b) ? b : next++);
  return Object.freeze(table);
})();

/** The byte a character stands for, or undefined for a character outside the alphabet. */
export const CHAR_TO_BYTE = new Map(BYTE_TO_CHAR.map((ch, b) => [ch, b]));

const utf8 = new TextEncoder();

/** The byte-level string of `text`'s UTF-8 bytes (one character per byte). */
export function toByteChars(text) {
  let out = '';
  for (const b of utf8.encode(text)) out += BYTE_TO_CHAR[b];
  return out;
}

/**
 * The bytes a vocabulary string stands for. A string with a character outside the
 * alphabet (an added token like '<｜end｜>') stands for its own UTF-8 bytes, as in
 * Hugging Face's ByteLevel decoder.
 */
export function pieceBytes(piece) {
  const bytes = new Uint8Array(piece.length);
  for (let i = 0; i < piece.length; i++) {
    const b = CHAR_TO_BYTE.get(piece[i]);
    if (b === undefined) return utf8.encode(piece);
    bytes[i] = b;
  }
  return bytes;
}
