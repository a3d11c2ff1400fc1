// PLACEHOLDER, to be REPLACED at merge by the real byte-level BPE tokenizer of
// the `bpe-tokenizer` branch (same export, same interface). It only serves the
// tiny fixture model of tests/fixtures/gpt2/: text is mapped to GPT-2's byte
// characters (space -> 'Ġ', ...) and cut greedily into the longest pieces in
// the vocabulary. It does not apply the merges and is NOT GPT-2's tokenizer.
import { describe, isPlainObject } from '../errors.js';

const FN = 'loadTokenizer';

/** GPT-2's printable character for each byte (openai/gpt-2 encoder.py bytes_to_unicode). */
function byteCharacters() {
  const printable = (b) => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
  let extra = 0;
  return Array.from({ length: 256 }, (_, b) => String.fromCharCode(printable(b) ? b : 256 + extra++));
}

function parse(value, name) {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch (error) {
    throw new TypeError(`${FN}: ${name} is not JSON (${error.message})`);
  }
}

/**
 * @param {{ 'tokenizer.json'?: string | object, 'vocab.json'?: string | object, 'merges.txt'?: string }} files
 */
export function loadTokenizer(files) {
  if (!isPlainObject(files)) throw new TypeError(`${FN}: files must be an object, got ${describe(files)}`);
  let vocab;
  if (files['tokenizer.json'] !== undefined) {
    const json = parse(files['tokenizer.json'], 'tokenizer.json');
    vocab = json?.model?.vocab;
    for (const added of json?.added_tokens ?? []) if (vocab) vocab[added.content] = added.id;
  } else vocab = parse(files['vocab.json'], 'vocab.json');
  if (!isPlainObject(vocab)) throw new TypeError(`${FN}: the tokenizer has no vocabulary object`);
  const ids = new Map(Object.entries(vocab));
  const texts = new Map([...ids].map(([text, id]) => [id, text]));
  const chars = byteCharacters();
  const bytesOfChar = new Map(chars.map((c, b) => [c, b]));
  const longest = Math.max(...[...ids.keys()].map((k) => k.length));
  return {
    vocabSize: ids.size,
    encode(text) {
      const mapped = Array.from(new TextEncoder().encode(text), (b) => chars[b]).join('');
      const result = { ids: [], tokens: [], pieces: [] };
      for (let i = 0; i < mapped.length;) {
        let n = Math.min(longest, mapped.length - i);
        while (n > 1 && !ids.has(mapped.slice(i, i + n))) n--;
        const piece = mapped.slice(i, i + n);
        result.ids.push(ids.get(piece));
        result.tokens.push(piece);
        result.pieces.push(this.decode([ids.get(piece)]));
        i += n;
      }
      return result;
    },
    decode(list) {
      const bytes = list.flatMap((id) => Array.from(texts.get(id) ?? '', (c) => bytesOfChar.get(c) ?? 63));
      return new TextDecoder().decode(new Uint8Array(bytes));
    },
    tokenText(id) {
      return this.decode([id]);
    },
  };
}
