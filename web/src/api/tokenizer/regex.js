// tokenizer.json's Regex patterns are written for Oniguruma (the Rust tokenizers
// crate runs them on it). This turns one into a JavaScript RegExp with the `u`
// flag that matches the same text, or refuses it with a RangeError: a construct
// whose meaning differs and has no faithful spelling here must not give other
// pieces silently.
//
// What differs and how it is spelt:
//   \s \S      Oniguruma: Unicode White_Space      -> \p{White_Space}, \P{White_Space}
//   \d \D      Unicode decimal digits (Nd)          -> \p{Nd}, \P{Nd}
//   \w \W      letters, marks, numbers, connectors  -> [\p{L}\p{M}\p{N}\p{Pc}] and its complement
//   .          any character but '\n'               -> [^\n]
//   ^ $        start/end of a line, always          -> (?<![^\n]) and (?![^\n])
//   (?i:...)   a case-insensitive group (Node 20 has no inline modifiers): each
//              letter becomes the class of its cases (s also matches U+017F 'ſ',
//              k the Kelvin sign, as Unicode simple case folding says)
//   \x{HHHH}   a code point                         -> \u{HHHH}
// Refused: atomic groups (?>...), possessive quantifiers (a++), POSIX classes
// [[:alpha:]], \b \B \h \A \z \G and other escapes whose sets differ.

const WORD = '\\p{L}\\p{M}\\p{N}\\p{Pc}';
const SYNTAX = '^$\\.*+?()[]{}|/-';
// Characters whose case folding reaches an ASCII letter beyond its two cases.
const EXTRA_FOLDS = { s: '\u017f', k: '\u212a' };

/** The characters a letter matches case-insensitively, as the inside of a class. */
function cases(ch) {
  const set = new Set([ch, ch.toLowerCase(), ch.toUpperCase()]);
  const extra = EXTRA_FOLDS[ch.toLowerCase()];
  if (extra) set.add(extra);
  for (const c of [...set]) if ([...c].length !== 1) set.delete(c); // 'ß'.toUpperCase() is 'SS'
  return [...set].map((c) => (SYNTAX.includes(c) ? `\\${c}` : c)).join('');
}

const isLetter = (ch) => ch.toLowerCase() !== ch.toUpperCase();

/**
 * A RegExp (flags 'gu') for an Oniguruma pattern of tokenizer.json.
 * @param {string} pattern
 * @param {string} where what to name in an error, e.g. "tokenizer.json pre_tokenizer.pattern.Regex"
 * @param {string} fn the function to name
 */
export function translateRegex(pattern, where, fn) {
  const refuse = (what) => {
    throw new RangeError(`${fn}: ${where} ${JSON.stringify(pattern)} uses ${what}, which is not supported`);
  };
  const chars = [...pattern];
  let out = '';
  let inClass = false;
  // One entry per open group: whether it is case-insensitive.
  const groups = [];
  let caseless = false;
  let i = 0;
  if (pattern.startsWith('(?i)')) {
    caseless = true;
    i = 4;
  }
  const insensitive = () => caseless || groups.includes(true);
  let quantified = false; // the last thing written was a quantifier
  for (; i < chars.length; i++) {
    const ch = chars[i];
    const wasQuantified = quantified;
    quantified = false;
    if (ch === '\\') {
      const next = chars[++i];
      if (next === undefined) refuse('a trailing backslash');
      if (next === 's') out += '\\p{White_Space}';
      else if (next === 'S') out += '\\P{White_Space}';
      else if (next === 'd') out += '\\p{Nd}';
      else if (next === 'D') out += '\\P{Nd}';
      else if (next === 'w') out += inClass ? WORD : `[${WORD}]`;
      else if (next === 'W') {
        if (inClass) refuse('\\W inside a class');
        out += `[^${WORD}]`;
      } else if (next === 'p' || next === 'P') {
        let name = '';
        let j = i + 1;
        if (chars[j] !== '{') refuse(`\\${next} without braces`);
        for (j++; j < chars.length && chars[j] !== '}'; j++) name += chars[j];
        if (j >= chars.length) refuse(`an unclosed \\${next}{`);
        out += `\\${next}{${propertyName(name, refuse)}}`;
        i = j;
      } else if (next === 'x' && chars[i + 1] === '{') {
        let hex = '';
        let j = i + 2;
        for (; j < chars.length && chars[j] !== '}'; j++) hex += chars[j];
        if (!/^[0-9a-fA-F]{1,6}$/.test(hex)) refuse(`\\x{${hex}}`);
        out += `\\u{${hex}}`;
        i = j;
      } else if ('rntfv'.includes(next)) out += `\\${next}`;
      else if (next === 'x' || next === 'u') out += `\\${next}`;
      else if (/[0-9A-Za-z]/.test(next)) refuse(`\\${next}`);
      else if (next === '-') out += inClass ? '\\-' : '-';
      else out += SYNTAX.includes(next) ? `\\${next}` : next;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      else if (ch === '[') refuse(chars[i + 1] === ':' ? 'a POSIX class' : 'a nested class');
      else if (insensitive() && isLetter(ch)) {
        if (chars[i + 1] === '-' || chars[i - 1] === '-') refuse('a range of letters in a case-insensitive class');
        out += cases(ch);
        continue;
      }
      out += ch;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      out += ch;
      if (chars[i + 1] === '^') out += chars[++i];
      if (chars[i + 1] === ']') out += '\\' + chars[++i]; // a leading ']' is a literal
      continue;
    }
    if (ch === '(') {
      if (chars[i + 1] === '?') {
        const rest = chars.slice(i + 2, i + 4).join('');
        if (rest.startsWith('i:')) {
          groups.push(true);
          out += '(?:';
          i += 3;
          continue;
        }
        if (rest.startsWith('>')) refuse('an atomic group (?>');
        if (!/^(:|=|!|<=|<!|<[A-Za-z])/.test(rest)) refuse(`the group (?${rest.slice(0, 2)}`);
      }
      groups.push(false);
      out += ch;
      continue;
    }
    if (ch === ')') {
      groups.pop();
      out += ch;
      continue;
    }
    if (ch === '+' && wasQuantified) refuse('a possessive quantifier');
    if (ch === '*' || ch === '+' || ch === '?') {
      out += ch;
      quantified = !(ch === '?' && wasQuantified); // a lazy '?' ends the quantifier
      continue;
    }
    if (ch === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(chars.slice(i).join(''));
      if (m) {
        out += m[0];
        i += m[0].length - 1;
        quantified = true;
        continue;
      }
      out += '\\{';
      continue;
    }
    if (ch === '}') out += '\\}';
    else if (ch === '.') out += '[^\\n]';
    else if (ch === '^') out += '(?<![^\\n])';
    else if (ch === '$') out += '(?![^\\n])';
    else if (insensitive() && isLetter(ch)) out += `[${cases(ch)}]`;
    else out += ch === '/' ? '\\/' : ch;
  }
  if (inClass) refuse('an unclosed class');
  try {
    return new RegExp(out, 'gu');
  } catch (error) {
    throw new RangeError(
      `${fn}: ${where} ${JSON.stringify(pattern)} is not a pattern this can read (${error.message})`,
    );
  }
}

// Oniguruma takes a script name alone (\p{Han}); JavaScript needs Script=Han for it.
function propertyName(name, refuse) {
  for (const candidate of [name, `Script=${name}`]) {
    try {
      new RegExp(`\\p{${candidate}}`, 'u');
      return candidate;
    } catch {
      // not this spelling
    }
  }
  return refuse(`the property \\p{${name}}`);
}

/** A RegExp (flags 'gu') matching the literal `text`. */
export function literalRegex(text) {
  return new RegExp(text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), 'gu');
}
