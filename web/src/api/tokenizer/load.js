// Reads the tokenizer files of a Hugging Face GPT-2 folder into one plain
// description: { vocab, merges, added, addPrefixSpace, useRegex, ignoreMerges }.
// Nothing here tokenizes; tokenizer.js builds the working tables.
//
// Errors name loadTokenizer, the file and what is wrong: a TypeError when the
// file cannot be read as its format (not JSON, a field of the wrong JSON type),
// a RangeError when it reads but a value cannot be used (a negative id, a merge
// of unknown tokens, a model or pre-tokenizer other than GPT-2's byte-level BPE).

import { isDetachedBytes } from '../detached.js';
import { describe, isPlainObject } from '../errors.js';
import { runSteps, STEP } from './steps.js';

const FN = 'loadTokenizer';
const utf8 = new TextDecoder();

/** The file's text: a string, or bytes read as UTF-8. */
export function readText(value, file, fn = FN) {
  if (typeof value === 'string') return value;
  if (isDetachedBytes(value))
    throw new TypeError(`${fn}: ${file} is bytes whose ArrayBuffer was detached (transferred): nothing left to read`);
  if (value instanceof ArrayBuffer) return utf8.decode(value);
  if (ArrayBuffer.isView(value)) return utf8.decode(value);
  throw new TypeError(`${fn}: ${file} must be a string or bytes, got ${describe(value)}`);
}

/** The parsed JSON of a file given as text, bytes or an already parsed object. */
export function readJson(value, file, fn = FN) {
  if (isPlainObject(value)) return value;
  const text = readText(value, file, fn);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TypeError(`${fn}: ${file} is not JSON (${error.message})`);
  }
}

// Real vocabularies stop near 260,000; the bound keeps a pair of ids (left * size + right) a safe integer.
const MAX_ID = 2 ** 24 - 1;

/** A token id: an integer in [0, MAX_ID]. */
function checkId(id, file, what) {
  if (typeof id !== 'number') throw new TypeError(`${FN}: ${file} ${what} must be a number, got ${describe(id)}`);
  if (!Number.isInteger(id) || id < 0 || id > MAX_ID) {
    throw new RangeError(`${FN}: ${file} ${what} must be an integer in [0, ${MAX_ID}], got ${id}`);
  }
  return id;
}

// What a file may declare (past these, building the tables would take seconds and
// hundreds of MB): real vocabularies stop near 260,000 tokens and 2^18 merges.
export const MAX_VOCAB = 2 ** 20;
export const MAX_MERGES = 2 ** 21;
export const MAX_TOKEN_CHARS = 2048;

/** A RangeError when a list a file declares is longer than `most`. */
export function checkCount(count, most, file, field, fn = FN) {
  if (count > most)
    throw new RangeError(`${fn}: ${file} ${field} has ${count} entries, more than the ${most} supported`);
}

/** A RangeError when a token is longer than MAX_TOKEN_CHARS UTF-16 units. */
export function checkTokenLength(token, file, field, fn = FN) {
  if (token.length > MAX_TOKEN_CHARS)
    throw new RangeError(
      `${fn}: ${file} ${field} has a token of ${token.length} characters (${JSON.stringify(token.slice(0, 16))}…), more than the ${MAX_TOKEN_CHARS} supported`,
    );
}

/**
 * token -> id from a JSON object; ids must be distinct. One pass over the keys,
 * the ids seen marked in a bit set (ids < 2^24: 2 MB), no per-entry objects.
 */
function* readVocab(object, file, field = 'vocab') {
  if (!isPlainObject(object))
    throw new TypeError(`${FN}: ${file} vocab must be an object of token: id, got ${describe(object)}`);
  const tokens = Object.keys(object);
  checkCount(tokens.length, MAX_VOCAB, file, field);
  const vocab = new Map();
  const seen = new Int32Array((MAX_ID + 1) >>> 5);
  for (let i = 0; i < tokens.length; i++) {
    if (i % STEP === STEP - 1) yield;
    const token = tokens[i];
    const id = object[token];
    checkId(id, file, `id of token ${JSON.stringify(token)}`);
    checkTokenLength(token, file, field);
    if (seen[id >>> 5] & (1 << (id & 31))) {
      const first = tokens.find((t) => object[t] === id);
      throw new RangeError(
        `${FN}: ${file} gives id ${id} to two tokens, ${JSON.stringify(first)} and ${JSON.stringify(token)}`,
      );
    }
    seen[id >>> 5] |= 1 << (id & 31);
    vocab.set(token, id);
  }
  if (vocab.size === 0) throw new RangeError(`${FN}: ${file} vocab is empty`);
  return vocab;
}

/** One merge "a b" (a line of merges.txt or a string of tokenizer.json) as [a, b]. */
function splitMerge(line, file, where) {
  const parts = line.split(' ');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') {
    throw new RangeError(
      `${FN}: ${file} ${where} must be two tokens separated by one space, got ${JSON.stringify(line)}`,
    );
  }
  return parts;
}

/** merges.txt: an optional '#version' first line, then one "a b" per line. */
function* readMergesText(value) {
  const file = 'merges.txt';
  const lines = readText(value, file).split('\n');
  checkCount(lines.length - 2, MAX_MERGES, file, 'lines'); // a '#version' line, a last newline
  const merges = [];
  for (let i = 0; i < lines.length; i++) {
    if (i % STEP === STEP - 1) yield;
    const raw = lines[i];
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '' || (i === 0 && line.startsWith('#version'))) continue;
    merges.push(splitMerge(line, file, `line ${i + 1}`));
  }
  return merges;
}

/** tokenizer.json model.merges: strings "a b" or pairs ["a", "b"]. */
function* readMergesJson(list, file) {
  if (!Array.isArray(list)) throw new TypeError(`${FN}: ${file} model.merges must be an array, got ${describe(list)}`);
  checkCount(list.length, MAX_MERGES, file, 'model.merges');
  const merges = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    if (i % STEP === STEP - 1) yield;
    const merge = list[i];
    if (typeof merge === 'string') merges[i] = splitMerge(merge, file, `model.merges[${i}]`);
    else if (Array.isArray(merge) && merge.length === 2 && typeof merge[0] === 'string' && typeof merge[1] === 'string')
      merges[i] = merge;
    else throw new TypeError(`${FN}: ${file} model.merges[${i}] must be "a b" or ["a", "b"], got ${describe(merge)}`);
  }
  return merges;
}

/** Settings of a BPE model that GPT-2 leaves off; any other value would change the ids. */
const OFF = {
  dropout: [null, 0],
  unk_token: [null],
  continuing_subword_prefix: [null, ''],
  end_of_word_suffix: [null, ''],
  byte_fallback: [false],
};

function* readModel(model, file) {
  if (!isPlainObject(model)) throw new TypeError(`${FN}: ${file} model must be an object, got ${describe(model)}`);
  if (model.type !== undefined && model.type !== 'BPE') {
    throw new RangeError(
      `${FN}: ${file} model.type is ${JSON.stringify(model.type)}; only byte-level 'BPE' (GPT-2) is supported`,
    );
  }
  for (const [key, allowed] of Object.entries(OFF)) {
    if (model[key] !== undefined && !allowed.includes(model[key])) {
      throw new RangeError(
        `${FN}: ${file} model.${key} is ${JSON.stringify(model[key])}; GPT-2's byte-level BPE has it off and other values are not supported`,
      );
    }
  }
  if (model.ignore_merges !== undefined && typeof model.ignore_merges !== 'boolean') {
    throw new TypeError(
      `${FN}: ${file} model.ignore_merges must be true or false, got ${describe(model.ignore_merges)}`,
    );
  }
  return {
    vocab: yield* readVocab(model.vocab, file, 'model.vocab'),
    merges: yield* readMergesJson(model.merges, file),
    ignoreMerges: model.ignore_merges === true,
  };
}

/** The ByteLevel pre-tokenizer's settings, alone or as the only step of a Sequence. */
function readPreTokenizer(pre, file) {
  if (pre === null || pre === undefined) {
    throw new RangeError(`${FN}: ${file} has no pre_tokenizer; GPT-2's ByteLevel pre-tokenizer is needed`);
  }
  if (!isPlainObject(pre)) throw new TypeError(`${FN}: ${file} pre_tokenizer must be an object, got ${describe(pre)}`);
  let step = pre;
  if (pre.type === 'Sequence') {
    const steps = pre.pretokenizers;
    if (!Array.isArray(steps) || steps.length !== 1 || !isPlainObject(steps[0])) {
      throw new RangeError(
        `${FN}: ${file} pre_tokenizer is a Sequence of ${Array.isArray(steps) ? steps.length : describe(steps)} steps; only one ByteLevel step is supported`,
      );
    }
    step = steps[0];
  }
  if (step.type !== 'ByteLevel') {
    throw new RangeError(
      `${FN}: ${file} pre_tokenizer type is ${JSON.stringify(step.type)}; only GPT-2's ByteLevel is supported`,
    );
  }
  for (const key of ['add_prefix_space', 'use_regex']) {
    if (step[key] !== undefined && typeof step[key] !== 'boolean') {
      throw new TypeError(`${FN}: ${file} pre_tokenizer ${key} must be true or false, got ${describe(step[key])}`);
    }
  }
  return { addPrefixSpace: step.add_prefix_space === true, useRegex: step.use_regex !== false };
}

/** added_tokens: [{ id, content, ... }], matched verbatim in the text. */
function readAdded(list, file) {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new TypeError(`${FN}: ${file} added_tokens must be an array, got ${describe(list)}`);
  checkCount(list.length, MAX_VOCAB, file, 'added_tokens');
  return list.map((token, i) => {
    const where = `added_tokens[${i}]`;
    if (!isPlainObject(token)) throw new TypeError(`${FN}: ${file} ${where} must be an object, got ${describe(token)}`);
    if (typeof token.content !== 'string' || token.content === '') {
      throw new TypeError(`${FN}: ${file} ${where}.content must be a non-empty string, got ${describe(token.content)}`);
    }
    for (const key of ['lstrip', 'rstrip', 'single_word']) {
      if (token[key] === true) {
        throw new RangeError(
          `${FN}: ${file} ${where} (${JSON.stringify(token.content)}) has ${key}: true, which is not supported (GPT-2's added tokens match verbatim)`,
        );
      }
    }
    checkTokenLength(token.content, file, `${where}.content`);
    return { id: checkId(token.id, file, `${where}.id`), content: token.content };
  });
}

function* readTokenizerJson(value) {
  const file = 'tokenizer.json';
  const json = readJson(value, file);
  if (!isPlainObject(json)) throw new TypeError(`${FN}: ${file} must hold a JSON object, got ${describe(json)}`);
  if (json.normalizer !== undefined && json.normalizer !== null) {
    throw new RangeError(
      `${FN}: ${file} has a normalizer (${JSON.stringify(json.normalizer?.type)}); GPT-2 has none and normalizers are not supported`,
    );
  }
  return {
    file,
    ...(yield* readModel(json.model, file)),
    added: readAdded(json.added_tokens, file),
    ...readPreTokenizer(json.pre_tokenizer, file),
  };
}

/**
 * The tokenizer description from a folder's files.
 * @param {Record<string, unknown>} files
 */
export function readTokenizerFiles(files) {
  return runSteps(readTokenizerSteps(files));
}

/** readTokenizerFiles as steps (steps.js): yields between slices of a large file. */
export function* readTokenizerSteps(files) {
  if (!isPlainObject(files)) {
    throw new TypeError(
      `${FN}: files must be an object like { 'tokenizer.json': text } or { 'vocab.json': text, 'merges.txt': text }, got ${describe(files)}`,
    );
  }
  if (files['tokenizer.json'] !== undefined) return yield* readTokenizerJson(files['tokenizer.json']);
  if (files['vocab.json'] !== undefined && files['merges.txt'] !== undefined) {
    // The pair of files is GPT-2's original format: byte-level, the regex on, no prefix space.
    // '<|endoftext|>' is a special token there too (Hugging Face's GPT2Tokenizer adds it).
    const vocab = yield* readVocab(readJson(files['vocab.json'], 'vocab.json'), 'vocab.json');
    const end = '<|endoftext|>';
    const added = vocab.has(end) ? [{ id: vocab.get(end), content: end }] : [];
    return {
      file: 'vocab.json + merges.txt',
      vocab,
      merges: yield* readMergesText(files['merges.txt']),
      added,
      ignoreMerges: false,
      addPrefixSpace: false,
      useRegex: true,
    };
  }
  const given =
    Object.keys(files)
      .map((k) => `'${k}'`)
      .join(', ') || 'none';
  throw new TypeError(`${FN}: files needs 'tokenizer.json', or both 'vocab.json' and 'merges.txt' (got ${given})`);
}
