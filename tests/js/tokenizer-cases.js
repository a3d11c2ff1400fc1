// Test strings for the GPT-2 tokenizer: fixed hard cases and a seeded generator
// that mixes English words, contractions, digits, whitespace runs, punctuation
// and text in several scripts (accented Latin, Greek, Cyrillic, CJK, emoji).

/** mulberry32: a small seeded generator, so every run tests the same strings. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ENGLISH = (
  'the of and to in is was he for it with as his on be at by had are but from or have an they which one you ' +
  'were her all she there would their we him been has when who will more no if out so said what up its about ' +
  'into than them can only other new some could time these two may then do first any my now such like our ' +
  'Hello World Attention Transformer GPT tokenizer encoding BPE JavaScript WebAssembly Hugging Face London ' +
  'antidisestablishmentarianism internationalization supercalifragilisticexpialidocious'
).split(' ');
const CONTRACTIONS = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'T", "'RE", "'VE", "'M", "'LL", "'D"];
const WHITESPACE = [
  ' ',
  '  ',
  '   ',
  '\t',
  '\t\t',
  '\n',
  '\n\n',
  '\r\n',
  ' \n',
  '\n ',
  ' \t ',
  '\u00a0',
  '\u3000',
  '\u2028',
];
const PUNCTUATION = [...'.,;:!?"\'()[]{}-–—…/\\@#$%^&*_+=<>|~`', '...', '?!', '",', '"],"', '});', '->', '://', '©®™'];
const SCRIPTS = [
  'café',
  'naïve',
  'façade',
  'Ærøskøbing',
  'Łódź',
  'Ñandú',
  'straße',
  'Åström',
  'crème brûlée',
  'é', // é with U+0301
  'αλφα',
  'Ελληνικά',
  'ΣΊΣΥΦΟΣ',
  'λόγος',
  'Привет',
  'мир',
  'Україна',
  'עברית',
  'العربية',
  'हिन्दी',
  'ภาษาไทย',
  '東京',
  '中文字符',
  '日本語のテキスト',
  'カタカナ',
  '한국어',
  '𠀋𡈽', // the last two are outside the BMP
  '٣٤٥',
  'Ⅻ',
  '½',
  '²³',
  '①',
];
const EMOJI = ['😀', '👍', '👍🏽', '🚀', '❤️', '🇯🇵', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🧑‍💻', '🤷‍♀️', '🙂🙃', '∑', '→', '\u200d', '\u200c'];

function pick(random, list) {
  return list[Math.floor(random() * list.length)];
}

function number(random) {
  const digits = 1 + Math.floor(random() * (random() < 0.2 ? 40 : 6));
  let s = String(1 + Math.floor(random() * 9));
  while (s.length < digits) s += Math.floor(random() * 10);
  return random() < 0.2 ? `${s}.${Math.floor(random() * 1000)}` : s;
}

function piece(random) {
  const r = random();
  if (r < 0.3) {
    const w = pick(random, ENGLISH);
    return random() < 0.15 ? w.toUpperCase() : w;
  }
  if (r < 0.4) return pick(random, ENGLISH) + pick(random, CONTRACTIONS);
  if (r < 0.5) return number(random);
  if (r < 0.62) return pick(random, WHITESPACE).repeat(1 + Math.floor(random() * 3));
  if (r < 0.75) return pick(random, PUNCTUATION);
  if (r < 0.88) return pick(random, SCRIPTS);
  return pick(random, EMOJI);
}

/** `count` strings of 1..16 pieces, joined by a space or by nothing. */
export function generatedCases(seed, count) {
  const random = seededRandom(seed);
  const cases = [];
  for (let i = 0; i < count; i++) {
    const n = 1 + Math.floor(random() * 16);
    let s = '';
    for (let k = 0; k < n; k++) s += (k > 0 && random() < 0.6 ? ' ' : '') + piece(random);
    cases.push(s);
  }
  return cases;
}

export const FIXED_CASES = [
  '',
  ' ',
  'a',
  "'s",
  "'S",
  " 's",
  "''s",
  "don't DON'T Don'T",
  "I'm you're we've they'll she'd it's can't",
  "I'M YOU'RE WE'VE THEY'LL SHE'D IT'S",
  "rock 'n' roll 'tis o'clock",
  'Hello world',
  ' Hello world',
  'Hello  world',
  'Hello   \n  world',
  'trailing spaces   ',
  '   leading spaces',
  '\n\n\n',
  ' \t \n \r\n ',
  'a\tb\t\tc',
  '1234567890',
  '3.14159265358979323846264338327950288419716939937510',
  '1,000,000.00 $99.99 50% 2nd 3rd 10x',
  '0xDEADBEEF 0b1010 1e-9',
  '"quoted", \'single\', (paren) [bracket] {brace}',
  '","],"},"),"\'",\'","',
  'e-mail: someone@example.com; url: https://example.com/a?b=c&d=e#f',
  '<html><body class="x">text</body></html>',
  'def f(x):\n    return x ** 2  # comment\n',
  '    indented code\n\tand tab',
  'naïve café résumé',
  'Ελληνικά και English',
  '日本語と中文と한국어',
  '👨‍👩‍👧‍👦 family 🏳️‍🌈 flag 🇯🇵',
  '𠀋𡈽 outside the BMP',
  'é vs é', // precomposed vs combining accent
  'ǅ Ⅻ ½ ² ① ٣', // titlecase letter, letter-like numbers
  '\u00a0non-breaking\u00a0space',
  'ideographic\u3000space',
  'zero\u200bwidth\u200dzwj',
  'a'.repeat(3000),
  '9'.repeat(500),
  'abcdefghij'.repeat(200),
  'The quick brown fox jumps over the lazy dog. '.repeat(20),
];
