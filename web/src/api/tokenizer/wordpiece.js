// BERT's WordPiece tokenizer from a Hugging Face folder: `tokenizer.json` (model
// type "WordPiece", a BertNormalizer, a BertPreTokenizer) or `vocab.txt` (one
// token per line, the line number its id; uncased unless told). Pure JS, no wasm.
//
// encode(text, pair?) gives [CLS] text [SEP] (pair [SEP]) as BERT reads it, with
// the token type of each (0 for the first text, 1 for the pair). Special tokens
// written in the text ("the [MASK] sat") are kept whole, as Hugging Face does.

import { describe, isPlainObject } from '../errors.js';
import { normalizeBert, splitBertWords } from './bert-text.js';
import { LEAST_TOKENS } from './bound.js';
import { checkCount, checkTokenLength, MAX_VOCAB, readJson, readText } from './load.js';
import { runSteps, runStepsAsync, STEP } from './steps.js';

const FN = 'loadWordPieceTokenizer';
const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
// Hugging Face's default max_input_chars_per_word (a longer word is one [UNK]); a file may set
// another, up to MAX_WORD_CHARS: past it a word's work (and a hostile file's) is no longer bounded.
const WORD_CHARS = 100;
const MAX_WORD_CHARS = 10000;

function* vocabFromObject(object, file) {
  if (!isPlainObject(object))
    throw new TypeError(`${FN}: ${file} model.vocab must be an object of token: id, got ${describe(object)}`);
  const tokens = Object.keys(object);
  checkCount(tokens.length, MAX_VOCAB, file, 'model.vocab', FN);
  const vocab = new Map();
  const seen = new Set();
  for (let i = 0; i < tokens.length; i++) {
    if (i % STEP === STEP - 1) yield;
    const token = tokens[i];
    const id = object[token];
    checkTokenLength(token, file, 'model.vocab', FN);
    if (typeof id !== 'number') throw new TypeError(`${FN}: ${file} id of ${JSON.stringify(token)} must be a number`);
    if (!Number.isInteger(id) || id < 0 || id >= 2 ** 24 || seen.has(id))
      throw new RangeError(
        `${FN}: ${file} id of ${JSON.stringify(token)} must be a distinct integer in [0, 2^24), got ${id}`,
      );
    seen.add(id);
    vocab.set(token, id);
  }
  return vocab;
}

function* vocabFromLines(value) {
  const vocab = new Map();
  const lines = readText(value, 'vocab.txt', FN).split('\n');
  checkCount(lines.length - 1, MAX_VOCAB, 'vocab.txt', 'lines', FN); // - 1: the last newline
  for (let id = 0; id < lines.length; id++) {
    if (id % STEP === STEP - 1) yield;
    const raw = lines[id];
    const token = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    checkTokenLength(token, 'vocab.txt', `line ${id + 1}`, FN);
    if (token !== '' && !vocab.has(token)) vocab.set(token, id);
  }
  return vocab;
}

const flag = (value, fallback, file, name) => {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean')
    throw new TypeError(`${FN}: ${file} ${name} must be true or false, got ${describe(value)}`);
  return value;
};

function readMaxChars(value, file) {
  const field = 'model.max_input_chars_per_word';
  if (value === undefined || value === null) return WORD_CHARS;
  if (typeof value !== 'number')
    throw new TypeError(`${FN}: ${file} ${field} must be a number, got ${describe(value)}`);
  if (!Number.isInteger(value) || value < 1 || value > MAX_WORD_CHARS)
    throw new RangeError(`${FN}: ${file} ${field} must be an integer in [1, ${MAX_WORD_CHARS}], got ${value}`);
  return value;
}

function* readTokenizerJson(value) {
  const file = 'tokenizer.json';
  const json = readJson(value, file, FN);
  if (!isPlainObject(json) || !isPlainObject(json.model))
    throw new TypeError(`${FN}: ${file} must hold an object with a model object`);
  if (json.model.type !== 'WordPiece')
    throw new RangeError(`${FN}: ${file} model.type is ${JSON.stringify(json.model.type)}; BERT needs 'WordPiece'`);
  const n = json.normalizer;
  if (n !== null && n !== undefined && n.type !== 'BertNormalizer')
    throw new RangeError(`${FN}: ${file} normalizer is ${JSON.stringify(n.type)}; only BertNormalizer is supported`);
  const lowercase = flag(n?.lowercase, false, file, 'normalizer.lowercase');
  const added = Array.isArray(json.added_tokens)
    ? json.added_tokens
        .filter((t) => isPlainObject(t) && typeof t.content === 'string' && t.content)
        .map((t) => t.content)
    : [];
  return {
    vocab: yield* vocabFromObject(json.model.vocab, file),
    unk: typeof json.model.unk_token === 'string' ? json.model.unk_token : '[UNK]',
    prefix: typeof json.model.continuing_subword_prefix === 'string' ? json.model.continuing_subword_prefix : '##',
    maxChars: readMaxChars(json.model.max_input_chars_per_word, file),
    normalize: n
      ? {
          clean: flag(n.clean_text, true, file, 'normalizer.clean_text'),
          cjk: flag(n.handle_chinese_chars, true, file, 'normalizer.handle_chinese_chars'),
          stripAccents: flag(n.strip_accents, lowercase, file, 'normalizer.strip_accents'),
          lowercase,
        }
      : null,
    special: added,
  };
}

/**
 * A WordPiece tokenizer from `{ 'tokenizer.json': … }` or `{ 'vocab.txt': … }`
 * (text, bytes or parsed JSON). `options.lowercase` applies to vocab.txt alone
 * (default true: bert-base-uncased); tokenizer.json says it itself.
 */
export function loadWordPieceTokenizer(files, { lowercase = true } = {}) {
  return new WordPieceTokenizer(runSteps(describeSteps(files, lowercase)));
}

/**
 * loadWordPieceTokenizer for openModel: the vocabulary read in slices that give the event
 * loop a turn (steps.js), rejecting with `signal`'s reason once it is aborted.
 */
export async function loadWordPieceTokenizerAsync(files, { lowercase = true } = {}, signal = undefined) {
  return new WordPieceTokenizer(await runStepsAsync(describeSteps(files, lowercase), signal));
}

function* describeSteps(files, lowercase) {
  if (!isPlainObject(files)) throw new TypeError(`${FN}: files must be an object, got ${describe(files)}`);
  if (files['tokenizer.json'] !== undefined) return yield* readTokenizerJson(files['tokenizer.json']);
  if (files['vocab.txt'] !== undefined)
    return {
      vocab: yield* vocabFromLines(files['vocab.txt']),
      unk: '[UNK]',
      prefix: '##',
      maxChars: WORD_CHARS,
      normalize: { clean: true, cjk: true, stripAccents: lowercase, lowercase },
      special: SPECIAL,
    };
  throw new TypeError(`${FN}: files needs 'tokenizer.json' or 'vocab.txt'`);
}

export class WordPieceTokenizer {
  /** What loadTokenizer gave (a tokenizer.json may hold either model). */
  get kind() {
    return 'wordpiece';
  }

  #vocab;
  #pieces = [];
  #unk;
  #prefix;
  #maxChars;
  #normalize;
  #special;
  #specialPattern;
  #continuations = new Set(); // the pieces that start with the prefix, without it (no joining per lookup)
  #longest = 0; // at least the most characters of a piece (without the prefix): no longer candidate matches

  constructor({ vocab, unk, prefix, maxChars, normalize, special }) {
    this.#vocab = vocab;
    for (const [piece, id] of vocab) {
      this.#pieces[id] = piece;
      const continues = prefix !== '' && piece.startsWith(prefix);
      const bare = continues ? piece.slice(prefix.length) : piece;
      if (continues) this.#continuations.add(bare);
      // UTF-16 units: never fewer than its characters, so no match is missed.
      if (bare.length > this.#longest) this.#longest = bare.length;
    }
    for (const name of [unk, '[CLS]', '[SEP]'])
      if (!vocab.has(name)) throw new RangeError(`${FN}: the vocabulary has no ${JSON.stringify(name)} token`);
    this.vocabSize = this.#pieces.length;
    this.#unk = unk;
    this.#prefix = prefix;
    this.#maxChars = maxChars;
    this.#normalize = normalize;
    this.#special = new Set(special.filter((s) => vocab.has(s)));
    const escaped = [...this.#special]
      .sort((a, b) => b.length - a.length)
      .map((s) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'));
    this.#specialPattern = escaped.length ? new RegExp(`(${escaped.join('|')})`, 'u') : null;
  }

  /** The text of token `id` as the vocabulary spells it ('##able'), or `<id N>` for an id past it. */
  tokenText(id) {
    return this.#pieces[id] ?? `<id ${id}>`;
  }

  /** The id of a token text (e.g. '[MASK]'), or undefined. */
  idOf(token) {
    return this.#vocab.get(token);
  }

  /**
   * The pieces of one word: greedy longest match first, continuations prefixed; [UNK] if any
   * part has none. The candidates at a position start at the longest piece's length, so a
   * word of n characters tries at most n * longest substrings (n <= max_input_chars_per_word).
   */
  #word(word) {
    // ends[c]: the code-unit offset after character c (characters are code points, as in Rust).
    const ends = [];
    for (let i = 0; i < word.length;) {
      i += word.codePointAt(i) > 0xffff ? 2 : 1;
      ends.push(i);
      if (ends.length > this.#maxChars) return [this.#unk];
    }
    const n = ends.length;
    const pieces = [];
    for (let start = 0; start < n;) {
      const from = start === 0 ? 0 : ends[start - 1];
      const table = start > 0 && this.#prefix !== '' ? this.#continuations : this.#vocab;
      let end = Math.min(n, start + this.#longest);
      let found = null;
      for (; end > start; end--) {
        const piece = word.slice(from, ends[end - 1]);
        if (table.has(piece)) {
          found = start > 0 ? this.#prefix + piece : piece;
          break;
        }
      }
      if (found === null) return [this.#unk];
      pieces.push(found);
      start = end;
    }
    return pieces;
  }

  /**
   * At least this many tokens in tokenize(text), counting no further than past `most`. Length
   * alone bounds nothing here (a word of any length can be one [UNK]), so it counts what
   * normalization can neither drop nor join: each special token written in the text is one;
   * each ASCII punctuation character is a word of its own; and each run between those and
   * ' ', \t, \n, \r (white space that is never removed) that holds an ASCII letter or digit
   * is at least one word. Other characters may vanish (controls, accents) or split more.
   */
  [LEAST_TOKENS](text, most = Infinity) {
    let count = 0;
    let start = 0;
    const pattern = this.#specialPattern && new RegExp(this.#specialPattern.source, 'gu');
    while (count <= most && start <= text.length) {
      const match = pattern ? pattern.exec(text) : null;
      const end = match ? match.index : text.length;
      let inRun = false; // the current run already holds a letter or digit
      for (let i = start; i < end && count <= most; i++) {
        const c = text.charCodeAt(i);
        if (c === 32 || c === 9 || c === 10 || c === 13) inRun = false;
        else if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
          if (!inRun) count++;
          inRun = true;
        } else if (c >= 33 && c <= 126) {
          count++;
          inRun = false;
        }
      }
      if (!match) break;
      count++;
      start = match.index + match[0].length;
    }
    return count;
  }

  /** The WordPiece tokens of text, without [CLS]/[SEP]. */
  tokenize(text) {
    if (typeof text !== 'string')
      throw new TypeError(`WordPieceTokenizer.tokenize: text must be a string, got ${describe(text)}`);
    const parts = this.#specialPattern ? text.split(this.#specialPattern) : [text];
    const tokens = [];
    parts.forEach((part, i) => {
      if (i % 2 === 1)
        tokens.push(part); // a special token written in the text
      else {
        const normalized = this.#normalize ? normalizeBert(part, this.#normalize) : part;
        for (const word of splitBertWords(normalized)) tokens.push(...this.#word(word));
      }
    });
    return tokens;
  }

  /**
   * [CLS] text [SEP] (pair [SEP]): `{ tokens, ids, typeIds }`.
   * @param {string} text
   * @param {string} [pair]
   */
  encode(text, pair) {
    const first = ['[CLS]', ...this.tokenize(text), '[SEP]'];
    const second = pair === undefined ? [] : [...this.tokenize(pair), '[SEP]'];
    const tokens = [...first, ...second];
    return {
      tokens,
      ids: tokens.map((t) => this.#vocab.get(t)),
      typeIds: tokens.map((_, i) => (i < first.length ? 0 : 1)),
    };
  }

  /** Text back from ids: continuation pieces joined to the word before them. */
  decode(ids) {
    let out = '';
    for (const id of ids) {
      const piece = this.#pieces[id];
      if (piece === undefined) throw new RangeError(`WordPieceTokenizer.decode: id ${id} is not in the vocabulary`);
      if (piece.startsWith(this.#prefix)) out += piece.slice(this.#prefix.length);
      else out += (out ? ' ' : '') + piece;
    }
    return out;
  }
}
