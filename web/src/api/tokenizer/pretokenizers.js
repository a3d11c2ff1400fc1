// tokenizer.json's pre_tokenizer: cuts each stretch of (normalized) text into the
// words the model encodes one by one. Each step maps a list of pieces to a list of
// pieces, as the Rust tokenizers crate does; the split behaviours follow its
// SplitDelimiterBehavior (Isolated, Removed, MergedWithPrevious, MergedWithNext,
// Contiguous), `invert` swapping what counts as the match.
//
// `removes`: some text may give no piece at all (the text-length bound cannot
// count on it); `byteLevel`: the pieces end as GPT-2's byte characters.

import { describe, isPlainObject } from '../errors.js';
import { splitBertWords } from './bert-text.js';
import { toByteChars } from './bytes.js';
import { readPattern } from './normalizers.js';
import { GPT2_PATTERN } from './pretokenize.js';
import { literalRegex, translateRegex } from './regex.js';

const BEHAVIORS = ['Isolated', 'Removed', 'MergedWithPrevious', 'MergedWithNext', 'Contiguous'];

/** [start, end, isMatch] segments covering `text`: the matches of `regex` and the text between. */
function segments(text, regex, invert) {
  if (text === '') return [[0, 0, invert]];
  const out = [];
  let prev = 0;
  for (const match of text.matchAll(regex)) {
    const start = match.index;
    const end = start + match[0].length;
    if (prev !== start) out.push([prev, start, invert]);
    out.push([start, end, !invert]);
    prev = end;
  }
  if (prev !== text.length) out.push([prev, text.length, invert]);
  return out;
}

/** The pieces of `text` split on `regex` with one of the five behaviours (Rust's NormalizedString::split). */
export function splitText(text, regex, behavior, invert = false) {
  const parts = segments(text, regex, invert);
  let kept = [];
  if (behavior === 'Isolated') kept = parts;
  else if (behavior === 'Removed') kept = parts.filter((p) => !p[2]);
  else if (behavior === 'Contiguous') {
    let previous = false;
    for (const p of parts) {
      if (p[2] === previous && kept.length > 0) kept[kept.length - 1] = [kept[kept.length - 1][0], p[1]];
      else kept.push([p[0], p[1]]);
      previous = p[2];
    }
  } else if (behavior === 'MergedWithPrevious') {
    let previous = false;
    for (const p of parts) {
      if (p[2] && !previous && kept.length > 0) kept[kept.length - 1] = [kept[kept.length - 1][0], p[1]];
      else kept.push([p[0], p[1]]);
      previous = p[2];
    }
  } else {
    // MergedWithNext: the same from the end.
    let previous = false;
    for (let i = parts.length - 1; i >= 0; i--) {
      const p = parts[i];
      if (p[2] && !previous && kept.length > 0) kept[kept.length - 1] = [p[0], kept[kept.length - 1][1]];
      else kept.push([p[0], p[1]]);
      previous = p[2];
    }
    kept.reverse();
  }
  const pieces = [];
  for (const [start, end] of kept) if (end > start) pieces.push(text.slice(start, end));
  return pieces;
}

const flatMap = (split) => (pieces) => {
  const out = [];
  for (const piece of pieces) for (const p of split(piece)) out.push(p);
  return out;
};

const boolean = (value, fallback, fn, where) => {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw new TypeError(`${fn}: ${where} must be true or false, got ${describe(value)}`);
  return value;
};

function readBehavior(value, fn, where) {
  if (!BEHAVIORS.includes(value))
    throw new RangeError(`${fn}: ${where} ${JSON.stringify(value)} is not one of ${BEHAVIORS.join(', ')}`);
  return value;
}

/** The single character that Metaspace puts for a space. */
function readReplacement(value, fn, where) {
  if (typeof value !== 'string' || [...value].length !== 1)
    throw new TypeError(`${fn}: ${where} must be one character, got ${describe(value)}`);
  return value;
}

/** Metaspace's prepend_scheme, or its older add_prefix_space flag. */
export function readPrependScheme(json, fn, where) {
  if (json.prepend_scheme !== undefined && json.prepend_scheme !== null) {
    if (!['first', 'always', 'never'].includes(json.prepend_scheme))
      throw new RangeError(
        `${fn}: ${where}.prepend_scheme ${JSON.stringify(json.prepend_scheme)} is not one of first, always, never`,
      );
    return json.prepend_scheme;
  }
  return boolean(json.add_prefix_space, true, fn, `${where}.add_prefix_space`) ? 'always' : 'never';
}

/**
 * The pre-tokenizer of a tokenizer.json, or null for none.
 * apply(pieces, atStart): atStart says pieces[0] begins the whole text (Metaspace's 'first').
 * bytesLater: the pieces are text still, to be turned into byte characters word by word.
 * @returns {{ apply(pieces: string[], atStart: boolean): string[], removes: boolean, byteLevel: boolean, bytesLater?: boolean } | null}
 */
export function readPreTokenizer(json, fn, where) {
  const read = readStep(json, fn, where);
  return read?.last ?? read;
}

function readStep(json, fn, where) {
  if (json === null || json === undefined) return null;
  if (!isPlainObject(json)) throw new TypeError(`${fn}: ${where} must be an object, got ${describe(json)}`);
  const step = (apply, removes = false, byteLevel = false) => ({ apply, removes, byteLevel });
  switch (json.type) {
    case 'ByteLevel': {
      const prefix = boolean(json.add_prefix_space, true, fn, `${where} add_prefix_space`);
      const regex = boolean(json.use_regex, true, fn, `${where} use_regex`);
      const split = (piece) => {
        const text = prefix && !piece.startsWith(' ') ? ' ' + piece : piece;
        return regex ? (text.match(GPT2_PATTERN) ?? []) : [text];
      };
      // As the last step, the pieces stay text: the tokenizer turns a word into byte
      // characters only when its cache does not hold it (most words repeat).
      return {
        ...step(
          flatMap((piece) => split(piece).map(toByteChars)),
          false,
          true,
        ),
        last: { ...step(flatMap(split), false, true), bytesLater: true },
      };
    }
    case 'Split': {
      const regex = readPattern(json.pattern, fn, `${where}.pattern`);
      const behavior = readBehavior(json.behavior, fn, `${where}.behavior`);
      const invert = boolean(json.invert, false, fn, `${where}.invert`);
      return step(
        flatMap((piece) => splitText(piece, regex, behavior, invert)),
        behavior === 'Removed',
      );
    }
    case 'Digits': {
      const single = boolean(json.individual_digits, false, fn, `${where}.individual_digits`);
      const regex = single ? /\p{N}/gu : /\p{N}+/gu;
      return step(flatMap((piece) => splitText(piece, regex, 'Isolated')));
    }
    case 'Punctuation': {
      const behavior = readBehavior(json.behavior ?? 'Isolated', fn, `${where}.behavior`);
      return step(
        flatMap((piece) => splitText(piece, /\p{P}/gu, behavior)),
        behavior === 'Removed',
      );
    }
    case 'Whitespace': {
      const regex = translateRegex('\\w+|[^\\w\\s]+', where, fn);
      return step(
        flatMap((piece) => splitText(piece, regex, 'Removed', true)),
        true,
      );
    }
    case 'WhitespaceSplit':
      return step(
        flatMap((piece) => splitText(piece, /\p{White_Space}+/gu, 'Removed')),
        true,
      );
    case 'BertPreTokenizer':
      return step(flatMap(splitBertWords), true);
    case 'Metaspace': {
      const replacement = readReplacement(json.replacement, fn, `${where}.replacement`);
      const scheme = readPrependScheme(json, fn, where);
      const split = boolean(json.split, true, fn, `${where}.split`);
      const spaces = literalRegex(' ');
      const marks = literalRegex(replacement);
      return {
        apply(pieces, atStart) {
          const out = [];
          pieces.forEach((piece, i) => {
            let text = piece.replace(spaces, replacement);
            const prepend = scheme === 'always' || (scheme === 'first' && atStart && i === 0);
            if (prepend && !text.startsWith(replacement)) text = replacement + text;
            for (const p of split ? splitText(text, marks, 'MergedWithNext') : [text]) out.push(p);
          });
          return out;
        },
        removes: false,
        byteLevel: false,
      };
    }
    case 'Sequence': {
      const list = json.pretokenizers;
      if (!Array.isArray(list))
        throw new TypeError(`${fn}: ${where}.pretokenizers must be an array, got ${describe(list)}`);
      const steps = list.map((s, i) => readStep(s, fn, `${where}.pretokenizers[${i}]`)).filter(Boolean);
      if (steps.length > 0 && steps[steps.length - 1].last) steps.push(steps.pop().last);
      return {
        apply: (pieces, atStart) => steps.reduce((p, s) => s.apply(p, atStart), pieces),
        removes: steps.some((s) => s.removes),
        byteLevel: steps.some((s) => s.byteLevel),
        bytesLater: steps.length > 0 && steps[steps.length - 1].bytesLater === true,
      };
    }
    default:
      throw new RangeError(`${fn}: ${where} type ${JSON.stringify(json.type)} is not supported`);
  }
}
