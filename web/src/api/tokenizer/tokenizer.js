// The working tokenizer: the tables built from a description (load.js) and
// encode/decode. Pure JS, no wasm: nothing to delete.

import { describe } from '../errors.js';
import { BYTE_TO_CHAR, pieceBytes, toByteChars } from './bytes.js';
import { bpe, MergeTable } from './bpe.js';
import { LEAST_TOKENS } from './bound.js';
import { preTokenize } from './pretokenize.js';
import { runSteps, runStepsAsync, STEP } from './steps.js';

const FN = 'loadTokenizer';
// The word cache holds short words only (long ones are rare and would pin memory),
// and starts over when full, so a long text of distinct words cannot grow it without bound.
const CACHE_WORD_CHARS = 64;
const CACHE_WORDS = 50000;
const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

// Not fatal: bytes that are not whole UTF-8 become U+FFFD. ignoreBOM keeps a leading U+FEFF,
// which a default TextDecoder would drop from the text.
const display = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The working tables of a description, as steps (steps.js): id -> piece, added tokens,
 * the byte tokens, the merges and the added tokens' pattern.
 */
export function* buildTables({ file, vocab, merges, added }) {
  // id -> piece, the vocabulary first, then added tokens not in it.
  // Filled in id order first: set out of order (JSON puts "12" before "a"), a large array
  // turns sparse (a dictionary) and costs several times more. Not when the ids are sparse
  // themselves (one id near 2^24 would make a 128 MB array).
  let most = -1;
  for (const id of vocab.values()) if (id > most) most = id;
  const pieces = [];
  if (most < 2 * vocab.size + 1024) for (let id = 0; id <= most; id++) pieces.push(undefined);
  let i = 0;
  for (const [piece, id] of vocab) {
    if (++i % STEP === 0) yield;
    pieces[id] = piece;
  }
  const addedIds = new Map();
  for (const { id, content } of added) {
    const owner = pieces[id];
    if (owner !== undefined && owner !== content) {
      throw new RangeError(
        `${FN}: ${file} added token ${JSON.stringify(content)} has id ${id}, which the vocabulary gives to ${JSON.stringify(owner)}`,
      );
    }
    if (vocab.has(content) && vocab.get(content) !== id) {
      throw new RangeError(
        `${FN}: ${file} added token ${JSON.stringify(content)} has id ${id} but the vocabulary gives it id ${vocab.get(content)}`,
      );
    }
    pieces[id] = content;
    addedIds.set(content, id);
  }
  const vocabSize = pieces.length;

  // Every byte must have a token, or some text could not be encoded at all.
  const byteId = BYTE_TO_CHAR.map((ch, b) => {
    const id = vocab.get(ch);
    if (id === undefined) {
      throw new RangeError(
        `${FN}: ${file} has no token for byte 0x${b.toString(16).padStart(2, '0')} (${JSON.stringify(ch)}); a byte-level vocabulary needs all 256`,
      );
    }
    return id;
  });
  const charId = new Map(BYTE_TO_CHAR.map((ch, b) => [ch, byteId[b]]));

  const table = new MergeTable(merges.length);
  for (let rank = 0; rank < merges.length; rank++) {
    if (rank % STEP === STEP - 1) yield;
    const [a, b] = merges[rank];
    const left = vocab.get(a);
    const right = vocab.get(b);
    const merged = vocab.get(a + b);
    const missing = left === undefined ? a : right === undefined ? b : merged === undefined ? a + b : null;
    if (missing !== null) {
      throw new RangeError(
        `${FN}: ${file} merge ${rank + 1} (${JSON.stringify(a)} ${JSON.stringify(b)}) uses ${JSON.stringify(missing)}, which is not in the vocabulary`,
      );
    }
    table.add(left, right, merged);
  }

  const contents = [...addedIds.keys()].sort((x, y) => y.length - x.length); // longest first wins
  const addedPattern =
    contents.length === 0 ? null : new RegExp(contents.map((c) => c.replace(SYNTAX, '\\$&')).join('|'), 'gu');
  return { pieces, addedIds, vocabSize, charId, merges: table, addedPattern };
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
    const { vocab, addPrefixSpace, useRegex, ignoreMerges } = description;
    const tables = description[TABLES] ?? runSteps(buildTables(description));
    this.#vocab = vocab;
    this.#addPrefixSpace = addPrefixSpace;
    this.#useRegex = useRegex;
    this.#ignoreMerges = ignoreMerges;
    this.#pieces = tables.pieces;
    this.#added = tables.addedIds;
    this.vocabSize = tables.vocabSize;
    this.#charId = tables.charId;
    this.#merges = tables.merges;
    this.#addedPattern = tables.addedPattern;
  }

  #vocab;
  #pieces;
  #added;
  #addedPattern;
  #addPrefixSpace;
  #useRegex;
  #ignoreMerges;
  #charId;
  #merges;
  #cache = new Map();
  #texts = new Map();
  #mostBytes = 0; // the most bytes one token stands for (0: not computed yet)

  /**
   * At least this many tokens: every token stands for at most #mostBytes bytes, the tokens'
   * bytes are the text's UTF-8 (plus a prefix space), and UTF-8 has at least one byte per
   * UTF-16 code unit (a pair: 4, a lone surrogate: U+FFFD's 3). So ceil(length / most bytes).
   */
  [LEAST_TOKENS](text) {
    if (this.#mostBytes === 0) {
      // pieceBytes(p) is p.length bytes (alphabet) or p's UTF-8 (<= 3 per unit): skip the short.
      for (const pieces of [this.#vocab.keys(), this.#added.keys()])
        for (const piece of pieces)
          if (3 * piece.length > this.#mostBytes) this.#mostBytes = Math.max(this.#mostBytes, pieceBytes(piece).length);
    }
    return Math.ceil(text.length / this.#mostBytes);
  }

  /**
   * The tokens of `text`: ids, display texts and the raw vocabulary pieces.
   * @param {string} text
   */
  encode(text) {
    if (typeof text !== 'string') throw new TypeError(`encode: text must be a string, got ${describe(text)}`);
    const ids = [];
    let start = 0;
    if (this.#addedPattern !== null) {
      for (const match of text.matchAll(this.#addedPattern)) {
        this.#encodeSpan(text.slice(start, match.index), ids);
        ids.push(this.#added.get(match[0]));
        start = match.index + match[0].length;
      }
    }
    this.#encodeSpan(text.slice(start), ids);
    return { ids, tokens: ids.map((id) => this.tokenText(id)), pieces: ids.map((id) => this.#pieces[id]) };
  }

  /** Text between added tokens: pre-tokenize, then BPE each word. */
  #encodeSpan(span, ids) {
    if (span === '') return;
    if (this.#addPrefixSpace && !span.startsWith(' ')) span = ' ' + span;
    for (const word of this.#useRegex ? preTokenize(span) : [span]) {
      for (const id of this.#encodeWord(word)) ids.push(id);
    }
  }

  #encodeWord(word) {
    const cached = this.#cache.get(word);
    if (cached !== undefined) return cached;
    const chars = toByteChars(word);
    const whole = this.#ignoreMerges ? this.#vocab.get(chars) : undefined;
    const result =
      whole !== undefined
        ? [whole]
        : bpe(
            Array.from(chars, (ch) => this.#charId.get(ch)),
            this.#merges,
          );
    if (word.length <= CACHE_WORD_CHARS) {
      if (this.#cache.size >= CACHE_WORDS) this.#cache.clear();
      this.#cache.set(word, result);
    }
    return result;
  }

  /**
   * The text of `ids`: their bytes joined, read as UTF-8 (bytes that are not valid UTF-8 become U+FFFD).
   * @param {number[]} ids
   */
  decode(ids) {
    const typed = ArrayBuffer.isView(ids) && !(ids instanceof DataView);
    if (!Array.isArray(ids) && !typed) {
      throw new TypeError(`decode: ids must be an array of token ids, got ${describe(ids)}`);
    }
    const parts = [];
    let total = 0;
    for (let i = 0; i < ids.length; i++) {
      const bytes = this.#bytes(ids[i], 'decode', `ids[${i}]`);
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

  /** The display text of one token: its bytes read as UTF-8, a partial character shown as U+FFFD. */
  tokenText(id) {
    let text = this.#texts.get(id);
    if (text === undefined) {
      text = display.decode(this.#bytes(id, 'tokenText', 'id'));
      this.#texts.set(id, text);
    }
    return text;
  }

  #bytes(id, fn, name) {
    if (typeof id !== 'number') throw new TypeError(`${fn}: ${name} must be a number, got ${describe(id)}`);
    const piece = Number.isInteger(id) ? this.#pieces[id] : undefined;
    if (piece === undefined)
      throw new RangeError(`${fn}: ${name} is ${id}, which is not a token id (vocabSize ${this.vocabSize})`);
    return pieceBytes(piece);
  }
}
