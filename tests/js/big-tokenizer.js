// Synthetic byte-level BPE tokenizer.json files of any size, for the loader's
// bounds tests and the tokenizer bench: the 256 byte tokens, then `n - 256`
// merges of two seeded random earlier tokens (each merge's result a new token).
import { BYTE_TO_CHAR } from '../../web/src/api/tokenizer/bytes.js';
import { generator } from './seeded.js';

/** The model object of a tokenizer.json with `n` vocabulary entries (n >= 256). */
export function syntheticBpe(n, seed = 1) {
  const random = generator(seed).next;
  const tokens = [...BYTE_TO_CHAR];
  const vocab = Object.create(null);
  tokens.forEach((t, id) => (vocab[t] = id));
  const merges = [];
  while (tokens.length < n) {
    // Pieces stay short (at most 24 characters), like a real vocabulary's.
    const a = tokens[Math.floor(random() * tokens.length)];
    const b = tokens[Math.floor(random() * Math.min(tokens.length, 4096))];
    const merged = a + b;
    if (merged.length > 24 || vocab[merged] !== undefined) continue;
    vocab[merged] = tokens.length;
    tokens.push(merged);
    merges.push(`${a} ${b}`);
  }
  return { type: 'BPE', vocab: { ...vocab }, merges };
}

/** A whole tokenizer.json text with `n` vocabulary entries. */
export function syntheticTokenizerJson(n, seed = 1) {
  return JSON.stringify({
    version: '1.0',
    added_tokens: [],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    model: syntheticBpe(n, seed),
  });
}
