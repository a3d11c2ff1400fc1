// GPT-2's pre-tokenizer: the text is cut into words (contractions, letter runs,
// digit runs, other-symbol runs, whitespace) before BPE runs on each word alone,
// so merges never cross a word boundary.
//
// The pattern is the one in OpenAI's encoder.py and in Hugging Face's ByteLevel
// pre-tokenizer. Hugging Face runs it on Oniguruma, whose `\s` is Unicode's
// White_Space property; JavaScript's `\s` is not the same set (it adds U+FEFF and
// leaves out U+0085 NEL), so `\s` is spelt \p{White_Space} here to give Hugging
// Face's words. \p{L} and \p{N} are the Unicode letters and numbers of both.

const WS = '\\p{White_Space}';
export const GPT2_PATTERN = new RegExp(
  `'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^${WS}\\p{L}\\p{N}]+|[${WS}]+(?![^${WS}])|[${WS}]+`,
  'gu',
);

/** The words of `text` in order; they concatenate back to `text`. */
export function preTokenize(text) {
  return text.match(GPT2_PATTERN) ?? [];
}
