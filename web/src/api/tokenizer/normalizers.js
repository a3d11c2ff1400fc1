// tokenizer.json's normalizer: a function from text to text, read from its JSON
// description, applied to each stretch of text between added tokens. `shrink` is
// how many UTF-16 units of input one unit of output may stand for at most (the
// text-length bound divides by it); Infinity when it has no bound.

import { describe, isPlainObject } from '../errors.js';
import { normalizeBert } from './bert-text.js';
import { literalRegex, translateRegex } from './regex.js';

// NFC composes at most a canonical decomposition (4 code points, or a Hangul
// syllable's 3 jamo) into one character.
const COMPOSE_SHRINK = 4;

/** Rust's lowercase is per character: 'Σ' is always 'σ' (JavaScript's toLowerCase makes a final one 'ς'). */
function lowercase(text) {
  const lower = text.toLowerCase();
  if (!text.includes('Σ')) return lower;
  return text
    .split('Σ')
    .map((part) => part.toLowerCase())
    .join('σ');
}

const boolean = (value, fallback, fn, where) => {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw new TypeError(`${fn}: ${where} must be true or false, got ${describe(value)}`);
  return value;
};

/** A Replace or Split pattern: { String: text } or { Regex: pattern } as a RegExp ('gu'). */
export function readPattern(pattern, fn, where) {
  if (isPlainObject(pattern) && typeof pattern.String === 'string') return literalRegex(pattern.String);
  if (isPlainObject(pattern) && typeof pattern.Regex === 'string')
    return translateRegex(pattern.Regex, `${where}.Regex`, fn);
  throw new TypeError(`${fn}: ${where} must be { String: text } or { Regex: pattern }, got ${describe(pattern)}`);
}

const string = (value, fn, where) => {
  if (typeof value !== 'string') throw new TypeError(`${fn}: ${where} must be a string, got ${describe(value)}`);
  return value;
};

/**
 * The normalizer of a tokenizer.json, or null for none.
 * @returns {{ apply(text: string): string, shrink: number } | null}
 */
export function readNormalizer(json, fn, where) {
  if (json === null || json === undefined) return null;
  if (!isPlainObject(json)) throw new TypeError(`${fn}: ${where} must be an object, got ${describe(json)}`);
  switch (json.type) {
    case 'NFC':
    case 'NFKC':
      return { apply: (text) => text.normalize(json.type), shrink: COMPOSE_SHRINK };
    case 'NFD':
    case 'NFKD':
      return { apply: (text) => text.normalize(json.type), shrink: 1 };
    case 'Lowercase':
      return { apply: lowercase, shrink: 1 };
    case 'Prepend': {
      const prefix = string(json.prepend, fn, `${where}.prepend`);
      return { apply: (text) => (text === '' ? text : prefix + text), shrink: 1 };
    }
    case 'Replace': {
      const pattern = readPattern(json.pattern, fn, `${where}.pattern`);
      const content = string(json.content, fn, `${where}.content`);
      const from = json.pattern.String;
      const shrink = from === undefined ? Infinity : Math.max(1, from.length / Math.max(1, content.length));
      return { apply: (text) => text.replace(pattern, () => content), shrink };
    }
    case 'Strip': {
      const left = boolean(json.strip_left, true, fn, `${where}.strip_left`);
      const right = boolean(json.strip_right, true, fn, `${where}.strip_right`);
      const apply = (text) => {
        let out = left ? text.replace(/^\p{White_Space}+/u, '') : text;
        if (right) out = out.replace(/\p{White_Space}+$/u, '');
        return out;
      };
      return { apply, shrink: Infinity };
    }
    case 'StripAccents':
      return { apply: (text) => text.replace(/\p{Mn}/gu, ''), shrink: Infinity };
    case 'BertNormalizer': {
      const lower = boolean(json.lowercase, true, fn, `${where}.lowercase`);
      const options = {
        clean: boolean(json.clean_text, true, fn, `${where}.clean_text`),
        cjk: boolean(json.handle_chinese_chars, true, fn, `${where}.handle_chinese_chars`),
        stripAccents: boolean(json.strip_accents, lower, fn, `${where}.strip_accents`),
        lowercase: lower,
      };
      return { apply: (text) => normalizeBert(text, options), shrink: Infinity };
    }
    case 'Sequence': {
      const list = json.normalizers;
      if (!Array.isArray(list))
        throw new TypeError(`${fn}: ${where}.normalizers must be an array, got ${describe(list)}`);
      const steps = list.map((step, i) => readNormalizer(step, fn, `${where}.normalizers[${i}]`)).filter(Boolean);
      return {
        apply: (text) => steps.reduce((t, step) => step.apply(t), text),
        shrink: steps.reduce((s, step) => s * step.shrink, 1),
      };
    }
    default:
      throw new RangeError(`${fn}: ${where} type ${JSON.stringify(json.type)} is not supported`);
  }
}
