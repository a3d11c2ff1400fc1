// Reads a Hugging Face tokenizer.json of a BPE model (GPT-2, Llama, Qwen, Mistral,
// Gemma, SmolLM …), or GPT-2's vocab.json + merges.txt, into one plain
// description: the vocabulary, the merges, the added tokens and the pipeline's
// steps as functions (normalizers.js, pretokenizers.js, postprocess.js,
// decoders.js). Nothing here tokenizes; tokenizer.js builds the working tables.
//
// Errors name loadTokenizer, the file and what is wrong: a TypeError when the
// file cannot be read as its format (not JSON, a field of the wrong JSON type),
// a RangeError when it reads but a value cannot be used (a negative id, a merge
// of unknown tokens, a step type or setting that is not supported).

import { isDetachedBytes } from '../detached.js';
import { describe, isPlainObject } from '../errors.js';
import { readDecoder } from './decoders.js';
import { readNormalizer } from './normalizers.js';
import { readPostProcessor } from './postprocess.js';
import { readPreTokenizer } from './pretokenizers.js';
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

/** The id of `token` in a vocabulary object (an own number: inherited names like 'constructor' are not). */
export function idOf(vocab, token) {
  const id = vocab[token];
  return typeof id === 'number' ? id : undefined;
}

/**
 * The vocabulary as read: the JSON object itself (token -> id; lookups go to it, no
 * copy into a Map, which cost as much again as JSON.parse on a 262,144-token file)
 * and id -> token, built in the same pass that checks the ids are distinct.
 */
function* readVocab(object, file, field = 'vocab') {
  if (!isPlainObject(object))
    throw new TypeError(`${FN}: ${file} vocab must be an object of token: id, got ${describe(object)}`);
  const tokens = Object.keys(object);
  checkCount(tokens.length, MAX_VOCAB, file, field);
  if (tokens.length === 0) throw new RangeError(`${FN}: ${file} vocab is empty`);
  // Filled in id order first: set out of order (JSON puts "12" before "a"), a large array
  // turns sparse (a dictionary) and costs several times more. An id far past the count
  // makes it sparse instead of a 2^24-entry array.
  const pieces = [];
  for (let i = 0; i < tokens.length; i++) pieces.push(undefined);
  for (let i = 0; i < tokens.length; i++) {
    if (i % STEP === STEP - 1) yield;
    const token = tokens[i];
    const id = object[token];
    // The message is only written for a bad entry (formatting it for each of 262,144 cost as much as the rest).
    if (!(id >= 0 && id <= MAX_ID && Number.isInteger(id))) checkId(id, file, `id of token ${JSON.stringify(token)}`);
    if (token.length > MAX_TOKEN_CHARS) checkTokenLength(token, file, field);
    if (pieces[id] !== undefined) {
      throw new RangeError(
        `${FN}: ${file} gives id ${id} to two tokens, ${JSON.stringify(pieces[id])} and ${JSON.stringify(token)}`,
      );
    }
    pieces[id] = token;
  }
  return { vocab: object, pieces };
}

/** One merge "a b" (a line of merges.txt or a string of tokenizer.json) as [a, b]. */
function splitMerge(line, file, where) {
  const space = line.indexOf(' ');
  const parts = [line.slice(0, space), line.slice(space + 1)];
  if (space <= 0 || space === line.length - 1 || parts[1].includes(' ')) {
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

/** tokenizer.json model.merges: strings "a b" or pairs ["a", "b"], kept as given (mergeAt reads one). */
function readMergesJson(list, file) {
  if (!Array.isArray(list)) throw new TypeError(`${FN}: ${file} model.merges must be an array, got ${describe(list)}`);
  checkCount(list.length, MAX_MERGES, file, 'model.merges');
  return list;
}

/** Merge `i` of a list as [a, b]: the table building reads each once (no copy of the list first). */
export function mergeAt(list, i, file) {
  const merge = list[i];
  if (typeof merge === 'string') return splitMerge(merge, file, `model.merges[${i}]`);
  if (Array.isArray(merge) && merge.length === 2 && typeof merge[0] === 'string' && typeof merge[1] === 'string')
    return merge;
  throw new TypeError(`${FN}: ${file} model.merges[${i}] must be "a b" or ["a", "b"], got ${describe(merge)}`);
}

/** Settings of a BPE model that are not supported past these values; any other would change the ids. */
const OFF = {
  dropout: [null, 0],
  continuing_subword_prefix: [null, ''],
  end_of_word_suffix: [null, ''],
};

function flag(model, key, file) {
  const value = model[key];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean')
    throw new TypeError(`${FN}: ${file} model.${key} must be true or false, got ${describe(value)}`);
  return value;
}

function* readModel(model, file) {
  if (!isPlainObject(model)) throw new TypeError(`${FN}: ${file} model must be an object, got ${describe(model)}`);
  if (model.type !== undefined && model.type !== 'BPE') {
    throw new RangeError(
      `${FN}: ${file} model.type is ${JSON.stringify(model.type)}; only 'BPE' and 'WordPiece' are supported`,
    );
  }
  for (const [key, allowed] of Object.entries(OFF)) {
    if (model[key] !== undefined && !allowed.includes(model[key])) {
      throw new RangeError(
        `${FN}: ${file} model.${key} is ${JSON.stringify(model[key])}; only ${allowed.map((v) => JSON.stringify(v)).join(' or ')} is supported`,
      );
    }
  }
  if (model.unk_token !== undefined && model.unk_token !== null && typeof model.unk_token !== 'string')
    throw new TypeError(`${FN}: ${file} model.unk_token must be a string or null, got ${describe(model.unk_token)}`);
  return {
    ...(yield* readVocab(model.vocab, file, 'model.vocab')),
    merges: readMergesJson(model.merges, file),
    ignoreMerges: flag(model, 'ignore_merges', file),
    byteFallback: flag(model, 'byte_fallback', file),
    fuseUnk: flag(model, 'fuse_unk', file),
    unkToken: model.unk_token ?? null,
  };
}

/** added_tokens: [{ id, content, lstrip, rstrip, normalized, special }], cut out of the text first. */
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
    for (const key of ['lstrip', 'rstrip', 'single_word', 'normalized', 'special']) {
      if (token[key] !== undefined && typeof token[key] !== 'boolean')
        throw new TypeError(`${FN}: ${file} ${where}.${key} must be true or false, got ${describe(token[key])}`);
    }
    if (token.single_word === true) {
      throw new RangeError(
        `${FN}: ${file} ${where} (${JSON.stringify(token.content)}) has single_word: true, which is not supported`,
      );
    }
    checkTokenLength(token.content, file, `${where}.content`);
    const special = token.special === true;
    return {
      id: checkId(token.id, file, `${where}.id`),
      content: token.content,
      lstrip: token.lstrip === true,
      rstrip: token.rstrip === true,
      // Hugging Face's default: special tokens match the raw text, others the normalized.
      normalized: token.normalized ?? !special,
      special,
    };
  });
}

/** The pipeline's steps, and what the text-length bound needs to know of them. */
function readPipeline(json, file, added, model) {
  const normalizer = readNormalizer(json.normalizer, FN, `${file} normalizer`);
  const preTokenizer = readPreTokenizer(json.pre_tokenizer, FN, `${file} pre_tokenizer`);
  const byteLevel = preTokenizer?.byteLevel === true;
  const decoderJson = json.decoder ?? null;
  const unk = model.unkToken === null ? undefined : idOf(model.vocab, model.unkToken);
  return {
    normalizer,
    preTokenizer,
    byteLevel,
    unk,
    // Unknown characters fused into one token: a run of any length may be one token.
    fusesUnknown: unk !== undefined && model.fuseUnk,
    post: readPostProcessor(json.post_processor, FN, `${file} post_processor`),
    decoder: readDecoder(decoderJson, FN, `${file} decoder`),
    byteDecode: byteLevel && (decoderJson === null || decoderJson.type === 'ByteLevel'),
    shrink: normalizer?.shrink ?? 1,
    unbounded:
      normalizer?.shrink === Infinity || preTokenizer?.removes === true || added.some((t) => t.lstrip || t.rstrip),
  };
}

function* readTokenizerJson(value) {
  const file = 'tokenizer.json';
  const json = readJson(value, file);
  if (!isPlainObject(json)) throw new TypeError(`${FN}: ${file} must hold a JSON object, got ${describe(json)}`);
  const model = yield* readModel(json.model, file);
  const added = readAdded(json.added_tokens, file);
  return { file, ...model, added, ...readPipeline(json, file, added, model) };
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
    const { vocab, pieces } = yield* readVocab(readJson(files['vocab.json'], 'vocab.json'), 'vocab.json');
    const end = '<|endoftext|>';
    const endId = idOf(vocab, end);
    const added = endId === undefined ? [] : [{ id: endId, content: end, normalized: false, special: true }];
    const model = { vocab, pieces, merges: yield* readMergesText(files['merges.txt']), unkToken: null };
    const pipeline = { pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, use_regex: true }, decoder: null };
    return {
      file: 'vocab.json + merges.txt',
      ...model,
      added,
      ignoreMerges: false,
      byteFallback: false,
      fuseUnk: false,
      ...readPipeline(pipeline, 'vocab.json', added, model),
    };
  }
  const given =
    Object.keys(files)
      .map((k) => `'${k}'`)
      .join(', ') || 'none';
  throw new TypeError(`${FN}: files needs 'tokenizer.json', or both 'vocab.json' and 'merges.txt' (got ${given})`);
}
