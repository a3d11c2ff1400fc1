// Reads the tokenizer files of a Hugging Face GPT-2 folder into one plain
// description: { vocab, merges, added, addPrefixSpace, useRegex, ignoreMerges }.
// Nothing here tokenizes; tokenizer.js builds the working tables.
//
// Errors name loadTokenizer, the file and what is wrong: a TypeError when the
// file cannot be read as its format (not JSON, a field of the wrong JSON type),
// a RangeError when it reads but a value cannot be used (a negative id, a merge
// of unknown tokens, a model or pre-tokenizer other than GPT-2's byte-level BPE).

import { describe, isPlainObject } from '../errors.js';

const FN = 'loadTokenizer';
const utf8 = new TextDecoder();

/** The file's text: a string, or bytes read as UTF-8. */
export function readText(value, file, fn = FN) {
  if (typeof value === 'string') return value;
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

/** token -> id from a JSON object; ids must be distinct. */
function readVocab(object, file) {
  if (!isPlainObject(object))
    throw new TypeError(`${FN}: ${file} vocab must be an object of token: id, got ${describe(object)}`);
  const vocab = new Map();
  const tokenOf = new Map();
  for (const [token, id] of Object.entries(object)) {
    checkId(id, file, `id of token ${JSON.stringify(token)}`);
    if (tokenOf.has(id)) {
      throw new RangeError(
        `${FN}: ${file} gives id ${id} to two tokens, ${JSON.stringify(tokenOf.get(id))} and ${JSON.stringify(token)}`,
      );
    }
    tokenOf.set(id, token);
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
function readMergesText(value) {
  const file = 'merges.txt';
  const lines = readText(value, file).split('\n');
  const merges = [];
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '' || (i === 0 && line.startsWith('#version'))) return;
    merges.push(splitMerge(line, file, `line ${i + 1}`));
  });
  return merges;
}

/** tokenizer.json model.merges: strings "a b" or pairs ["a", "b"]. */
function readMergesJson(list, file) {
  if (!Array.isArray(list)) throw new TypeError(`${FN}: ${file} model.merges must be an array, got ${describe(list)}`);
  return list.map((merge, i) => {
    if (typeof merge === 'string') return splitMerge(merge, file, `model.merges[${i}]`);
    if (Array.isArray(merge) && merge.length === 2 && typeof merge[0] === 'string' && typeof merge[1] === 'string') {
      return merge;
    }
    throw new TypeError(`${FN}: ${file} model.merges[${i}] must be "a b" or ["a", "b"], got ${describe(merge)}`);
  });
}

/** Settings of a BPE model that GPT-2 leaves off; any other value would change the ids. */
const OFF = {
  dropout: [null, 0],
  unk_token: [null],
  continuing_subword_prefix: [null, ''],
  end_of_word_suffix: [null, ''],
  byte_fallback: [false],
};

function readModel(model, file) {
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
    vocab: readVocab(model.vocab, file),
    merges: readMergesJson(model.merges, file),
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
    return { id: checkId(token.id, file, `${where}.id`), content: token.content };
  });
}

function readTokenizerJson(value) {
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
    ...readModel(json.model, file),
    added: readAdded(json.added_tokens, file),
    ...readPreTokenizer(json.pre_tokenizer, file),
  };
}

/**
 * The tokenizer description from a folder's files.
 * @param {Record<string, unknown>} files
 */
export function readTokenizerFiles(files) {
  if (!isPlainObject(files)) {
    throw new TypeError(
      `${FN}: files must be an object like { 'tokenizer.json': text } or { 'vocab.json': text, 'merges.txt': text }, got ${describe(files)}`,
    );
  }
  if (files['tokenizer.json'] !== undefined) return readTokenizerJson(files['tokenizer.json']);
  if (files['vocab.json'] !== undefined && files['merges.txt'] !== undefined) {
    // The pair of files is GPT-2's original format: byte-level, the regex on, no prefix space.
    // '<|endoftext|>' is a special token there too (Hugging Face's GPT2Tokenizer adds it).
    const vocab = readVocab(readJson(files['vocab.json'], 'vocab.json'), 'vocab.json');
    const end = '<|endoftext|>';
    const added = vocab.has(end) ? [{ id: vocab.get(end), content: end }] : [];
    return {
      file: 'vocab.json + merges.txt',
      vocab,
      merges: readMergesText(files['merges.txt']),
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
