// The working tokenizer: the tables built from a description (load.js) and
// encode/decode, following tokenizer.json's pipeline: added tokens cut out, then
// per stretch of text the normalizer, the pre-tokenizer and BPE per word, then the
// post-processor's special tokens. Pure JS, no wasm: nothing to delete.

import { describe } from '../errors.js';
import { AddedMatcher } from './added.js';
import { BYTE_TO_CHAR, pieceBytes, toByteChars } from './bytes.js';
import { bpe, MergeTable } from './bpe.js';
import { LEAST_TOKENS } from './bound.js';
import { idOf, mergeAt } from './load.js';
import { applyTemplate } from './postprocess.js';
import { runSteps, runStepsAsync, STEP } from './steps.js';

const FN = 'loadTokenizer';
// The word cache holds short words only (long ones are rare and would pin memory),
// and starts over when full, so a long text of distinct words cannot grow it without bound.
const CACHE_WORD_CHARS = 64;
const CACHE_WORDS = 50000;
const HEX = '0123456789ABCDEF';

// Not fatal: bytes that are not whole UTF-8 become U+FFFD. ignoreBOM keeps a leading U+FEFF,
// which a default TextDecoder would drop from the text.
const display = new TextDecoder('utf-8', { ignoreBOM: true });
const utf8 = new TextEncoder();

/**
 * The working tables of a description, as steps (steps.js): id -> piece with the added
 * tokens, the byte_fallback tokens, the merges and the added tokens' matchers.
 */
export function* buildTables({ file, vocab, pieces, merges, added, byteLevel, byteFallback, normalizer }) {
  // id -> piece: the vocabulary's (load.js), then added tokens not in it.
  const addedOnly = new Set(); // ids of added tokens the vocabulary lacks
  for (const { id, content } of added) {
    const owner = pieces[id];
    if (owner !== undefined && owner !== content) {
      throw new RangeError(
        `${FN}: ${file} added token ${JSON.stringify(content)} has id ${id}, which the vocabulary gives to ${JSON.stringify(owner)}`,
      );
    }
    const own = idOf(vocab, content);
    if (own !== undefined && own !== id) {
      throw new RangeError(
        `${FN}: ${file} added token ${JSON.stringify(content)} has id ${id} but the vocabulary gives it id ${own}`,
      );
    }
    if (own === undefined) addedOnly.add(id);
    pieces[id] = content;
  }
  const vocabSize = pieces.length;

  // Byte-level: every byte must have a token, or some text could not be encoded at all.
  if (byteLevel) {
    BYTE_TO_CHAR.forEach((ch, b) => {
      if (idOf(vocab, ch) === undefined) {
        throw new RangeError(
          `${FN}: ${file} has no token for byte 0x${b.toString(16).padStart(2, '0')} (${JSON.stringify(ch)}); a byte-level vocabulary needs all 256`,
        );
      }
    });
  }
  // byte_fallback: '<0x00>' … '<0xFF>'; a character outside the vocabulary becomes its bytes' tokens
  // only when all of them exist (as in Rust's BPE), so keep them only when all 256 do.
  let byteTokens = null;
  if (byteFallback) {
    byteTokens = new Int32Array(256);
    for (let b = 0; b < 256 && byteTokens !== null; b++) {
      const id = idOf(vocab, `<0x${HEX[b >> 4]}${HEX[b & 15]}>`);
      if (id === undefined) byteTokens = null;
      else byteTokens[b] = id;
    }
  }

  const table = new MergeTable(merges.length);
  for (let from = 0; from < merges.length; from += STEP) {
    if (from > 0) yield;
    addMerges(table, merges, from, Math.min(from + STEP, merges.length), vocab, pieces, addedOnly, file);
  }

  // Added tokens marked `normalized` are matched in the normalized text (their content normalized too).
  const raw = added.filter((t) => !t.normalized || normalizer === null);
  const normalized = added
    .filter((t) => t.normalized && normalizer !== null)
    .map((t) => ({ ...t, content: normalizer.apply(t.content) }))
    .filter((t) => t.content !== '');
  return {
    pieces,
    vocabSize,
    byteTokens,
    merges: table,
    rawAdded: raw.length === 0 ? null : new AddedMatcher(raw),
    normalizedAdded: normalized.length === 0 ? null : new AddedMatcher(normalized),
  };
}

/** Whether `piece` (a vocabulary entry, or undefined) is a followed by b. */
function joins(piece, a, b) {
  return piece !== undefined && piece.length === a.length + b.length && piece.startsWith(a) && piece.endsWith(b);
}

/**
 * Merges [from, to) into the table, as vocabulary ids. A plain function (the hot loop of a
 * load, kept out of the generator so that it is optimized as one).
 */
function addMerges(table, merges, from, to, vocab, pieces, addedOnly, file) {
  const anyAddedOnly = addedOnly.size > 0;
  for (let rank = from; rank < to; rank++) {
    // "a b" read in place and ["a", "b"] taken as they are (no array, no destructuring per
    // merge); anything else, and every error, through mergeAt.
    const merge = merges[rank];
    let a;
    let b;
    if (typeof merge === 'string') {
      const space = merge.indexOf(' ');
      if (space > 0 && space < merge.length - 1 && merge.indexOf(' ', space + 1) === -1) {
        a = merge.slice(0, space);
        b = merge.slice(space + 1);
      } else [a, b] = mergeAt(merges, rank, file);
    } else if (
      Array.isArray(merge) &&
      merge.length === 2 &&
      typeof merge[0] === 'string' &&
      typeof merge[1] === 'string'
    ) {
      a = merge[0];
      b = merge[1];
    } else [a, b] = mergeAt(merges, rank, file);
    const left = vocab[a];
    const right = vocab[b];
    // Trained files mostly give each merge's result the id after the last one's (Qwen: all;
    // Llama 3, Gemma: half), or the last one's again (Gemma, converted from SentencePiece:
    // "a bc" then "ab c"; 277,262 of its 278,659 other merges): compared in place, that costs
    // no joined string and no hashing.
    const guess = table.lastMerged + 1;
    const merged =
      joins(pieces[guess], a, b) && !(anyAddedOnly && addedOnly.has(guess))
        ? guess
        : joins(pieces[guess - 1], a, b) && !(anyAddedOnly && addedOnly.has(guess - 1))
          ? guess - 1
          : vocab[a + b];
    // Own numbers only (an inherited name like 'constructor' is not a token).
    if (typeof left !== 'number' || typeof right !== 'number' || typeof merged !== 'number') {
      const missing = idOf(vocab, a) === undefined ? a : idOf(vocab, b) === undefined ? b : a + b;
      throw new RangeError(
        `${FN}: ${file} merge ${rank + 1} (${JSON.stringify(a)} ${JSON.stringify(b)}) uses ${JSON.stringify(missing)}, which is not in the vocabulary`,
      );
    }
    table.add(left, right, merged);
    table.lastMerged = merged;
  }
}

// A description that carries its tables already built (buildTokenizer's async path).
const TABLES = Symbol('tables');

/** A Tokenizer whose tables were built in slices (steps.js's runStepsAsync). */
export async function buildTokenizer(description, signal) {
  return new Tokenizer({ ...description, [TABLES]: await runStepsAsync(buildTables(description), signal) });
}

export class Tokenizer {
  /** @param {ReturnType<import('./load.js').readTokenizerFiles>} description */
  constructor(description) {
    const tables = description[TABLES] ?? runSteps(buildTables(description));
    this.#d = description;
    this.#vocab = description.vocab;
    this.#pieces = tables.pieces;
    this.vocabSize = tables.vocabSize;
    this.#byteTokens = tables.byteTokens;
    this.#merges = tables.merges;
    this.#rawAdded = tables.rawAdded;
    this.#normalizedAdded = tables.normalizedAdded;
    // GPT-2's decoding: the pieces' bytes joined and read as UTF-8 at once.
    this.#byteDecode = description.byteDecode;
    this.#bytesLater = description.preTokenizer?.bytesLater === true;
  }

  /** What loadTokenizer gave (a tokenizer.json may hold either model). */
  get kind() {
    return 'bpe';
  }

  #d;
  #vocab;
  #pieces;
  #byteTokens;
  #merges;
  #rawAdded;
  #normalizedAdded;
  #byteDecode;
  #bytesLater;
  #cache = new Map();
  #texts = new Map();
  #most = 0; // the most text one token stands for (0: not computed yet)

  /**
   * At least this many tokens. Byte-level: every token stands for at most #most bytes and
   * UTF-8 has at least one byte per UTF-16 unit (a pair: 4, a lone surrogate: U+FFFD's 3);
   * otherwise a token stands for at most its own length of normalized text. The normalizer
   * may shrink the text (NFC composes), so that factor divides too; steps that drop text
   * (a Removed split, fused unknown characters, stripping added tokens) give no bound: 0.
   */
  [LEAST_TOKENS](text) {
    const d = this.#d;
    // With every byte's token (byte_fallback), the unknown token is never used.
    if (d.unbounded || (d.fusesUnknown && this.#byteTokens === null)) return 0;
    if (this.#most === 0) {
      // pieceBytes(p) is p.length bytes (alphabet) or p's UTF-8 (<= 3 per unit): skip the short.
      for (const piece of this.#pieces)
        if (piece !== undefined && 3 * piece.length > this.#most)
          this.#most = Math.max(this.#most, pieceBytes(piece).length);
    }
    return Math.ceil(text.length / (this.#most * d.shrink));
  }

  /**
   * The tokens of `text` as Hugging Face's `tokenizer(text)` gives them: ids (with the
   * post-processor's special tokens unless `addSpecialTokens` is false), display texts
   * and the raw vocabulary pieces.
   * @param {string} text
   * @param {{ addSpecialTokens?: boolean }} [options]
   */
  encode(text, { addSpecialTokens = true } = {}) {
    if (typeof text !== 'string') throw new TypeError(`encode: text must be a string, got ${describe(text)}`);
    if (typeof addSpecialTokens !== 'boolean')
      throw new TypeError(`encode: options.addSpecialTokens must be true or false, got ${describe(addSpecialTokens)}`);
    // A lone surrogate cannot be UTF-8: it is U+FFFD, as a TextEncoder makes it.
    const whole = text.toWellFormed ? text.toWellFormed() : text;
    let ids = [];
    const stretches = this.#rawAdded === null ? [[whole, 0]] : this.#rawAdded.split(whole);
    for (const [part, start] of stretches) {
      if (typeof part === 'number') ids.push(part);
      else this.#encodeStretch(part, start === 0, ids);
    }
    const template = this.#d.post.single;
    if (addSpecialTokens && !(template.length === 1 && template[0] === 'A')) ids = applyTemplate(template, ids);
    return { ids, tokens: ids.map((id) => this.tokenText(id)), pieces: ids.map((id) => this.#pieces[id]) };
  }

  /** Text between added tokens: normalize, cut out the normalized added tokens, pre-tokenize, BPE each word. */
  #encodeStretch(stretch, atStart, ids) {
    const { normalizer, preTokenizer } = this.#d;
    const text = normalizer === null ? stretch : normalizer.apply(stretch);
    const parts = this.#normalizedAdded === null ? [[text, 0]] : this.#normalizedAdded.split(text);
    for (const [part, start] of parts) {
      if (typeof part === 'number') {
        ids.push(part);
        continue;
      }
      const words = preTokenizer === null ? [part] : preTokenizer.apply([part], atStart && start === 0);
      for (const word of words) for (const id of this.#encodeWord(word)) ids.push(id);
    }
  }

  #encodeWord(word) {
    const cached = this.#cache.get(word);
    if (cached !== undefined) return cached;
    const chars = this.#bytesLater ? toByteChars(word) : word;
    const whole = this.#d.ignoreMerges ? idOf(this.#vocab, chars) : undefined;
    const result = whole !== undefined ? [whole] : bpe(this.#symbols(chars), this.#merges);
    if (word.length <= CACHE_WORD_CHARS) {
      if (this.#cache.size >= CACHE_WORDS) this.#cache.clear();
      this.#cache.set(word, result);
    }
    return result;
  }

  /** One id per character; one the vocabulary lacks becomes its bytes' tokens (byte_fallback) or the unknown token. */
  #symbols(word) {
    const { unk, fuseUnk } = this.#d;
    const out = [];
    let lastUnk = false;
    for (const ch of word) {
      const id = idOf(this.#vocab, ch);
      if (id !== undefined) {
        out.push(id);
        lastUnk = false;
      } else if (this.#byteTokens !== null) {
        for (const b of utf8.encode(ch)) out.push(this.#byteTokens[b]);
        lastUnk = false;
      } else if (unk !== undefined) {
        if (!(fuseUnk && lastUnk)) out.push(unk);
        lastUnk = true;
      }
      // No unknown token: the character gives no id, as in Rust's BPE.
    }
    return out;
  }

  /**
   * The text of `ids` (the decoder's; byte-level: their bytes joined, read as UTF-8,
   * bytes that are not valid UTF-8 becoming U+FFFD).
   * @param {number[]} ids
   */
  decode(ids) {
    const typed = ArrayBuffer.isView(ids) && !(ids instanceof DataView);
    if (!Array.isArray(ids) && !typed) {
      throw new TypeError(`decode: ids must be an array of token ids, got ${describe(ids)}`);
    }
    if (!this.#byteDecode) {
      const pieces = Array.from(ids, (id, i) => this.#piece(id, 'decode', `ids[${i}]`));
      return this.#decodePieces(pieces, false);
    }
    const parts = [];
    let total = 0;
    for (let i = 0; i < ids.length; i++) {
      const bytes = pieceBytes(this.#piece(ids[i], 'decode', `ids[${i}]`));
      parts.push(bytes);
      total += bytes.length;
    }
    const all = new Uint8Array(total);
    let at = 0;
    for (const bytes of parts) {
      all.set(bytes, at);
      at += bytes.length;
    }
    return display.decode(all);
  }

  #decodePieces(pieces, middle) {
    const decoder = this.#d.decoder;
    return (typeof decoder === 'function' ? decoder(pieces, middle) : pieces).join('');
  }

  /** The display text of one token, as it reads inside a text (a partial character shown as U+FFFD). */
  tokenText(id) {
    let text = this.#texts.get(id);
    if (text === undefined) {
      const piece = this.#piece(id, 'tokenText', 'id');
      text = this.#byteDecode ? display.decode(pieceBytes(piece)) : this.#decodePieces([piece], true);
      this.#texts.set(id, text);
    }
    return text;
  }

  #piece(id, fn, name) {
    if (typeof id !== 'number') throw new TypeError(`${fn}: ${name} must be a number, got ${describe(id)}`);
    const piece = Number.isInteger(id) ? this.#pieces[id] : undefined;
    if (piece === undefined)
      throw new RangeError(`${fn}: ${name} is ${id}, which is not a token id (vocabSize ${this.vocabSize})`);
    return piece;
  }
}
