// tokenizer.json's decoder: from a list of vocabulary pieces back to text. Each
// step maps a list of strings to a list of strings (Rust's decode_chain); the
// text is their concatenation. `middle` decodes pieces as if they stood inside a
// longer text: the steps that only trim the start of a text (Strip, Metaspace's
// first space) leave them alone, so one token's display text keeps its space.

import { describe, isPlainObject } from '../errors.js';
import { CHAR_TO_BYTE } from './bytes.js';
import { readPattern } from './normalizers.js';
import { readPrependScheme } from './pretokenizers.js';

const utf8 = new TextEncoder();
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/** GPT-2's byte characters back to text; a character outside the alphabet stands for its own UTF-8. */
function byteLevel(pieces) {
  const bytes = [];
  for (const piece of pieces) {
    for (const ch of piece) {
      const b = CHAR_TO_BYTE.get(ch);
      if (b !== undefined) bytes.push(b);
      else for (const x of utf8.encode(ch)) bytes.push(x);
    }
  }
  return [lenient.decode(new Uint8Array(bytes))];
}

const BYTE_TOKEN = /^<0x([0-9A-F]{2})>$/;

/** Runs of '<0xHH>' pieces become their UTF-8 text, or one U+FFFD per byte when not valid UTF-8 (as Rust's ByteFallback). */
function byteFallback(pieces) {
  const out = [];
  let run = [];
  const flush = () => {
    if (run.length === 0) return;
    try {
      out.push(strict.decode(new Uint8Array(run)));
    } catch {
      for (let i = 0; i < run.length; i++) out.push('\ufffd');
    }
    run = [];
  };
  for (const piece of pieces) {
    const m = BYTE_TOKEN.exec(piece);
    if (m) run.push(parseInt(m[1], 16));
    else {
      flush();
      out.push(piece);
    }
  }
  flush();
  return out;
}

const count = (value, fn, where) => {
  if (!Number.isInteger(value) || value < 0)
    throw new TypeError(`${fn}: ${where} must be a non-negative integer, got ${describe(value)}`);
  return value;
};

/**
 * The decoder of a tokenizer.json, or null for none (pieces joined as they are).
 * @returns {((pieces: string[], middle: boolean) => string[]) | null}
 */
export function readDecoder(json, fn, where) {
  if (json === null || json === undefined) return null;
  if (!isPlainObject(json)) throw new TypeError(`${fn}: ${where} must be an object, got ${describe(json)}`);
  switch (json.type) {
    case 'ByteLevel':
      return byteLevel;
    case 'ByteFallback':
      return byteFallback;
    case 'Fuse':
      return (pieces) => [pieces.join('')];
    case 'Replace': {
      const pattern = readPattern(json.pattern, fn, `${where}.pattern`);
      if (typeof json.content !== 'string')
        throw new TypeError(`${fn}: ${where}.content must be a string, got ${describe(json.content)}`);
      return (pieces) => pieces.map((p) => p.replace(pattern, () => json.content));
    }
    case 'Strip': {
      if (typeof json.content !== 'string' || [...json.content].length !== 1)
        throw new TypeError(`${fn}: ${where}.content must be one character, got ${describe(json.content)}`);
      const start = count(json.start, fn, `${where}.start`);
      const stop = count(json.stop, fn, `${where}.stop`);
      return (pieces, middle) =>
        middle
          ? pieces
          : pieces.map((piece) => {
              const chars = [...piece];
              let from = 0;
              while (from < start && chars[from] === json.content) from++;
              let to = chars.length;
              while (to > from && chars.length - to < stop && chars[to - 1] === json.content) to--;
              return chars.slice(from, to).join('');
            });
    }
    case 'Metaspace': {
      if (typeof json.replacement !== 'string')
        throw new TypeError(`${fn}: ${where}.replacement must be a string, got ${describe(json.replacement)}`);
      const scheme = readPrependScheme(json, fn, where);
      return (pieces, middle) =>
        pieces.map((piece, i) => {
          const text = piece.split(json.replacement).join(' ');
          return i === 0 && !middle && scheme !== 'never' && text.startsWith(' ') ? text.slice(1) : text;
        });
    }
    case 'Sequence': {
      const list = json.decoders;
      if (!Array.isArray(list)) throw new TypeError(`${fn}: ${where}.decoders must be an array, got ${describe(list)}`);
      const steps = list.map((s, i) => readDecoder(s, fn, `${where}.decoders[${i}]`)).filter(Boolean);
      return (pieces, middle) => steps.reduce((p, step) => step(p, middle), pieces);
    }
    default:
      throw new RangeError(`${fn}: ${where} type ${JSON.stringify(json.type)} is not supported`);
  }
}
