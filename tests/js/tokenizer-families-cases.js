// Test strings for the tokenizers of today's families (tokenizer-families.test.mjs):
// the GPT-2 tokenizer's cases plus what these families do differently: digits cut
// one by one or in threes, NFC, SentencePiece's '▁' and byte_fallback, added
// tokens written in the text, Oniguruma's case-insensitive contractions.
import { FIXED_CASES, generatedCases } from './tokenizer-cases.js';

const FAMILY_CASES = [
  // Digits: Llama 3 cuts runs into threes, Qwen and Gemma one by one.
  '1 12 123 1234 12345 123456 1234567',
  'pi is 3.14159, e is 2.71828; 10^100 = googol',
  '٣٤٥ ١٢٣ 𝟙𝟚𝟛 ①②③', // Arabic-Indic, mathematical and circled digits
  // Normalization: the same word precomposed and decomposed, Hangul jamo, compatibility forms.
  'caf\u00e9 cafe\u0301 CAFE\u0301',
  '\u1100\u1161\u11a8 \uac01',
  'ﬁne ﬀ Ⅻ ㎏ ｆｕｌｌｗｉｄｔｈ',
  'Å (U+212B) vs Å (U+00C5) vs A\u030a',
  // Characters a SentencePiece vocabulary lacks: its bytes' tokens (byte_fallback).
  '\u0000 \u0001 \u007f \u0080',
  '\u{1F9EC}\u{1FAE0}\u{1F6DD} \u{10330}\u{10331} \u{1D11E}',
  'ሰላም ᏣᎳᎩ ꦧꦱꦗꦮ ᠮᠣᠩᠭᠣᠯ',
  '\ufeffBOM at the start',
  // SentencePiece's own space mark and the spaces around it.
  '▁ already ▁marked ▁▁',
  '  two leading spaces',
  'trailing space ',
  '\t\ttabs\tand\nnewlines\r\n\r\n',
  ' \n \n\n   \n',
  // Oniguruma's (?i) contractions, with the long s and the Kelvin sign that fold to s and k.
  "IT'S it's It'S we'RE 'LL 'Ll",
  "it'ſ o'K",
  // Added tokens written in the text, alone and glued to words.
  '<|endoftext|>',
  'Hello<|endoftext|>world',
  '<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n',
  '<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>',
  '<bos><start_of_turn>user\nHi<end_of_turn>\n<start_of_turn>model\n',
  '<s>[INST] Hi [/INST]</s>',
  '<s> <s>< s><unk></s>',
  '<pad><eos><mask>',
  '<|endoftext|><|endoftext|> <|endoftext',
  // Long words, runs and repeats.
  'x'.repeat(5000),
  ' '.repeat(300),
  '\n'.repeat(100),
  '😀'.repeat(200),
  'ab'.repeat(1000) + ' ' + 'ba'.repeat(1000),
  'Pneumonoultramicroscopicsilicovolcanoconiosis',
  // Code.
  'function add(a, b) {\n  return a + b; // sum\n}\n',
  'for i in range(10):\n\tprint(f"{i:03d}")',
  "SELECT * FROM users WHERE id = 42 AND name LIKE '%ann%';",
  '#include <stdio.h>\nint main(void){printf("%d\\n",1<<10);}',
  '<div class="a-b_c" data-x=\'1\'>&amp;&lt;&#x27;</div>',
  // Scripts that mix.
  'Москва — столица России.',
  'مرحبا بالعالم',
  'नमस्ते दुनिया',
  'สวัสดีชาวโลก',
  '我爱自然语言处理。今天天气很好！',
  'こんにちは、世界。カタカナとひらがな',
  '안녕하세요 세계',
  '👩🏽‍💻 🧑🏿‍🤝‍🧑🏻 🏴󠁧󠁢󠁳󠁣󠁴󠁿 ❤️‍🔥 1️⃣',
];

/** The strings every family is compared on: fixed, family-specific and 300 seeded mixes. */
export const FAMILY_STRINGS = [...FIXED_CASES, ...FAMILY_CASES, ...generatedCases(32, 300)];

/**
 * Strings holding lone surrogates. They have no UTF-8: Hugging Face's Python refuses them
 * (a UnicodeEncodeError before Rust sees the text). Here, as in every TextEncoder, each
 * becomes U+FFFD, and the test checks the ids equal those of the text with U+FFFD written.
 */
export const LONE_SURROGATES = ['\ud800', 'a\udc00b', '\ud83d x \ude00', 'end\ud83d'];
