// BERT's text clean-up and word split, before WordPiece (Devlin et al. 2018; the
// rules of Hugging Face's BertNormalizer and BertPreTokenizer):
//   clean: drop NUL, U+FFFD and control characters (tab, newline and carriage
//          return are kept as white space), every white space becomes ' ';
//   CJK:   put spaces around each CJK ideograph, so each becomes a word;
//   accents (uncased models): NFD, then drop the combining marks (category Mn);
//   lower: each character lower-cased on its own (no context, as in Rust's char::to_lowercase);
//   split: on white space (dropped), and every punctuation character is a word of its own.

const CONTROL = /\p{C}/u;
const WHITE = /\p{White_Space}/u;
const MARK = /\p{Mn}/u;
const PUNCTUATION = /\p{P}/u;

/** BERT's CJK blocks (its _is_chinese_char): ideographs, not Japanese kana or Korean hangul. */
function isCjk(code) {
  return (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x20000 && code <= 0x2a6df) ||
    (code >= 0x2a700 && code <= 0x2b73f) ||
    (code >= 0x2b740 && code <= 0x2b81f) ||
    (code >= 0x2b820 && code <= 0x2ceaf) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0x2f800 && code <= 0x2fa1f)
  );
}

/** ASCII symbols count as punctuation too ($, +, <, ^, `, |, ~ are not Unicode P). */
function isPunctuation(ch) {
  const code = ch.codePointAt(0);
  if (
    (code >= 33 && code <= 47) ||
    (code >= 58 && code <= 64) ||
    (code >= 91 && code <= 96) ||
    (code >= 123 && code <= 126)
  )
    return true;
  return PUNCTUATION.test(ch);
}

const isKeptSpace = (ch) => ch === '\t' || ch === '\n' || ch === '\r';

/**
 * @param {string} text
 * @param {{ clean: boolean, cjk: boolean, stripAccents: boolean, lowercase: boolean }} options
 */
export function normalizeBert(text, { clean, cjk, stripAccents, lowercase }) {
  let out = '';
  for (const ch of text) {
    if (clean) {
      if (ch === '\0' || ch === '\ufffd' || (CONTROL.test(ch) && !isKeptSpace(ch))) continue;
      if (WHITE.test(ch)) {
        out += ' ';
        continue;
      }
    }
    out += cjk && isCjk(ch.codePointAt(0)) ? ` ${ch} ` : ch;
  }
  if (stripAccents) {
    let kept = '';
    for (const ch of out.normalize('NFD')) if (!MARK.test(ch)) kept += ch;
    out = kept;
  }
  if (lowercase) {
    let lower = '';
    for (const ch of out) lower += ch.toLowerCase();
    out = lower;
  }
  return out;
}

/** The words of normalized text: runs between white space, each punctuation character alone. */
export function splitBertWords(text) {
  const words = [];
  let word = '';
  for (const ch of text) {
    if (WHITE.test(ch)) {
      if (word) words.push(word);
      word = '';
    } else if (isPunctuation(ch)) {
      if (word) words.push(word);
      words.push(ch);
      word = '';
    } else word += ch;
  }
  if (word) words.push(word);
  return words;
}
