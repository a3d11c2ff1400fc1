// The tokenizer's rules on a tiny hand-made vocabulary, where every expected id is
// worked out by hand: merge order, the ByteLevel options, added tokens, ignore_merges,
// and the error for each kind of bad file or argument.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadTokenizer } from '../../web/src/api/tokenizer/index.js';
import { BYTE_TO_CHAR } from '../../web/src/api/tokenizer/bytes.js';
import { testBadInputs } from './fixtures.js';

// Byte b is id b; merges: he, ll, hell, hello, Ġh (ranks 0-4), ids 256-260.
const MERGED = ['he', 'll', 'hell', 'hello', 'Ġh'];
const MERGES = ['h e', 'l l', 'he ll', 'hell o', 'Ġ h'];
const [SPACE, A, B, X] = [0x20, 0x61, 0x62, 0x78];
const HELLO = 259;

function tinyVocab(extra = []) {
  const vocab = {};
  BYTE_TO_CHAR.forEach((ch, b) => (vocab[ch] = b));
  [...MERGED, ...extra].forEach((token, i) => (vocab[token] = 256 + i));
  return vocab;
}

/** A tokenizer.json object for the tiny vocabulary; `change` edits it. */
function tinyJson(change = (json) => json) {
  const json = {
    added_tokens: [],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      byte_fallback: false,
      vocab: tinyVocab(),
      merges: [...MERGES],
    },
  };
  return change(json) ?? json;
}

const tiny = loadTokenizer({ 'tokenizer.json': tinyJson() });

test('merges apply by rank: " hello" is Ġ + hello, because he (rank 0) comes before Ġh (rank 4)', () => {
  assert.deepEqual(tiny.encode('hello').ids, [HELLO]);
  assert.deepEqual(tiny.encode(' hello').ids, [SPACE, HELLO]);
  assert.deepEqual(tiny.encode(' hello').pieces, ['Ġ', 'hello']);
  assert.deepEqual(tiny.encode(' hello').tokens, [' ', 'hello']);
  // With Ġh first, Ġh takes the h and 'hello' can never form: Ġh e ll o.
  const reordered = loadTokenizer({ 'tokenizer.json': tinyJson((j) => void j.model.merges.unshift('Ġ h')) });
  assert.deepEqual(reordered.encode(' hello').pieces, ['Ġh', 'e', 'll', 'o']);
  assert.equal(tiny.vocabSize, 261);
});

test('vocab.json + merges.txt: #version skipped, CRLF and blank lines accepted, the same ids', () => {
  const tok = loadTokenizer({
    'vocab.json': JSON.stringify(tinyVocab()),
    'merges.txt': `#version: 0.2\r\n${MERGES.join('\r\n')}\r\n\r\n`,
  });
  assert.deepEqual(tok.encode('hello hello').ids, [HELLO, SPACE, HELLO]);
  // Files as bytes, and other files of the folder beside them, are fine too.
  const bytes = new TextEncoder().encode(JSON.stringify(tinyJson()));
  const fromBytes = loadTokenizer({
    'tokenizer.json': bytes,
    'config.json': '{}',
    'model.safetensors': new ArrayBuffer(8),
  });
  assert.deepEqual(fromBytes.encode('hello hello').ids, [HELLO, SPACE, HELLO]);
  assert.deepEqual(loadTokenizer({ 'tokenizer.json': bytes.buffer }).encode('hello').ids, [HELLO]);
});

test('ByteLevel options: add_prefix_space, use_regex false, and a Sequence of one ByteLevel', () => {
  const prefixed = loadTokenizer({ 'tokenizer.json': tinyJson((j) => void (j.pre_tokenizer.add_prefix_space = true)) });
  assert.deepEqual(prefixed.encode('hello').ids, [SPACE, HELLO]);
  assert.deepEqual(prefixed.encode(' hello').ids, [SPACE, HELLO]); // already starts with a space
  // A merge 'o Ġ' (rank 0) can only act when the words are not cut apart first.
  const withOSpace = (useRegex) =>
    loadTokenizer({
      'tokenizer.json': tinyJson((j) => {
        j.model.vocab['oĠ'] = 261;
        j.model.merges.unshift('o Ġ');
        j.pre_tokenizer.use_regex = useRegex;
      }),
    });
  assert.deepEqual(withOSpace(true).encode('hello hello').pieces, ['hello', 'Ġ', 'hello']);
  assert.deepEqual(withOSpace(false).encode('hello hello').pieces, ['hell', 'oĠ', 'hello']);
  const sequence = loadTokenizer({
    'tokenizer.json': tinyJson((j) => void (j.pre_tokenizer = { type: 'Sequence', pretokenizers: [j.pre_tokenizer] })),
  });
  assert.deepEqual(sequence.encode('hello hello').ids, [HELLO, SPACE, HELLO]);
});

test('ignore_merges: a word that is a token is taken whole, else merges run', () => {
  const change = (ignore) => (j) => {
    j.model.vocab['hlo'] = 261;
    j.model.ignore_merges = ignore;
  };
  assert.deepEqual(loadTokenizer({ 'tokenizer.json': tinyJson(change(true)) }).encode('hlo hello').pieces, [
    'hlo',
    'Ġ',
    'hello',
  ]);
  assert.deepEqual(loadTokenizer({ 'tokenizer.json': tinyJson(change(false)) }).encode('hlo').pieces, ['h', 'l', 'o']);
});

test('added tokens: matched verbatim before pre-tokenizing, longest first, regex characters literal', () => {
  const tok = loadTokenizer({
    'tokenizer.json': tinyJson((j) => {
      j.model.vocab['<|endoftext|>'] = 261;
      j.added_tokens = [
        { id: 261, content: '<|endoftext|>', special: true },
        { id: 300, content: 'ab' },
        { id: 301, content: 'abc' },
        { id: 302, content: '[MASK](.*)' },
        { id: 303, content: '<｜end｜>' }, // fullwidth bars: outside the byte alphabet
        { id: 304, content: '🤖' },
      ];
    }),
  });
  assert.equal(tok.vocabSize, 305);
  assert.deepEqual(tok.encode('xabcab').ids, [X, 301, 300]);
  assert.deepEqual(tok.encode('hello<|endoftext|> hello').ids, [HELLO, 261, SPACE, HELLO]);
  assert.deepEqual(tok.encode('x[MASK](.*)[MASK]xx').ids, [X, 302, ...tok.encode('[MASK]xx').ids]);
  assert.deepEqual(tok.encode('[MASK]xx').pieces, ['[', 'M', 'A', 'S', 'K', ']', 'x', 'x']);
  assert.deepEqual(tok.encode('a🤖<｜end｜>b').ids, [A, 304, 303, B]);
  assert.equal(tok.decode([A, 304, 303, B]), 'a🤖<｜end｜>b');
  assert.equal(tok.tokenText(303), '<｜end｜>');
  assert.equal(tok.encode('a<|endoftext').ids.length, 12); // not closed: plain bytes
  // Ids between 261 and 300 belong to no token.
  assert.throws(
    () => tok.decode([280]),
    /^RangeError: decode: ids\[0\] is 280, which is not a token id \(vocabSize 305\)$/,
  );
});

test('display text: a token holding part of a UTF-8 character shows U+FFFD; decode joins bytes first', () => {
  // 'é' is bytes C3 A9; without a merge they stay two tokens.
  const ids = tiny.encode('é').ids;
  assert.deepEqual(ids, [0xc3, 0xa9]);
  assert.deepEqual(tiny.encode('é').tokens, ['\uFFFD', '\uFFFD']);
  assert.equal(tiny.decode(ids), 'é');
  assert.equal(tiny.decode([0xa9, 0xc3]), '\uFFFD\uFFFD');
  assert.equal(tiny.decode(Int32Array.from(ids)), 'é');
});

const withJson = (change) => () => loadTokenizer({ 'tokenizer.json': tinyJson(change) });
const vocabMissing = (token) => (j) => void delete j.model.vocab[token];

testBadInputs(
  test,
  [
    ['files undefined', () => loadTokenizer(), TypeError, 'loadTokenizer: files must be an object'],
    ['files a string', () => loadTokenizer('tokenizer.json'), TypeError, 'loadTokenizer: files must be an object'],
    [
      'no tokenizer file',
      () => loadTokenizer({ 'config.json': '{}' }),
      TypeError,
      "loadTokenizer: files needs 'tokenizer.json', or both 'vocab.json' and 'merges.txt' (got 'config.json')",
    ],
    [
      'vocab.json without merges.txt',
      () => loadTokenizer({ 'vocab.json': '{}' }),
      TypeError,
      "loadTokenizer: files needs 'tokenizer.json'",
    ],
    [
      'tokenizer.json not JSON',
      () => loadTokenizer({ 'tokenizer.json': '{"model": ' }),
      TypeError,
      'loadTokenizer: tokenizer.json is not JSON (',
    ],
    [
      'tokenizer.json a number',
      () => loadTokenizer({ 'tokenizer.json': 42 }),
      TypeError,
      'loadTokenizer: tokenizer.json must be a string or bytes, got a number',
    ],
    [
      'tokenizer.json an array',
      () => loadTokenizer({ 'tokenizer.json': '[1]' }),
      TypeError,
      'loadTokenizer: tokenizer.json must hold a JSON object, got an array',
    ],
    [
      'vocab.json not JSON',
      () => loadTokenizer({ 'vocab.json': 'nope', 'merges.txt': '' }),
      TypeError,
      'loadTokenizer: vocab.json is not JSON',
    ],
    [
      'merges.txt a number',
      () => loadTokenizer({ 'vocab.json': tinyVocab(), 'merges.txt': 5 }),
      TypeError,
      'loadTokenizer: merges.txt must be a string or bytes',
    ],
    [
      'merges.txt line of one token',
      () => loadTokenizer({ 'vocab.json': tinyVocab(), 'merges.txt': '#version: 0.2\nh e\nll\n' }),
      RangeError,
      'loadTokenizer: merges.txt line 3 must be two tokens separated by one space, got "ll"',
    ],
    [
      'model missing',
      withJson((j) => void delete j.model),
      TypeError,
      'loadTokenizer: tokenizer.json model must be an object, got undefined',
    ],
    [
      'model Unigram',
      withJson((j) => void (j.model.type = 'Unigram')),
      RangeError,
      `loadTokenizer: tokenizer.json model.type is "Unigram"; only 'BPE' and 'WordPiece' are supported`,
    ],
    [
      'model dropout',
      withJson((j) => void (j.model.dropout = 0.1)),
      RangeError,
      'loadTokenizer: tokenizer.json model.dropout is 0.1',
    ],
    [
      'model subword prefix',
      withJson((j) => void (j.model.continuing_subword_prefix = '##')),
      RangeError,
      'loadTokenizer: tokenizer.json model.continuing_subword_prefix is "##"',
    ],
    [
      'vocab an array',
      withJson((j) => void (j.model.vocab = [])),
      TypeError,
      'loadTokenizer: tokenizer.json vocab must be an object of token: id, got an array',
    ],
    [
      'vocab empty',
      withJson((j) => void (j.model.vocab = {})),
      RangeError,
      'loadTokenizer: tokenizer.json vocab is empty',
    ],
    [
      'id a string',
      withJson((j) => void (j.model.vocab.he = '256')),
      TypeError,
      'loadTokenizer: tokenizer.json id of token "he" must be a number, got a string',
    ],
    [
      'id negative',
      withJson((j) => void (j.model.vocab.he = -1)),
      RangeError,
      'loadTokenizer: tokenizer.json id of token "he" must be an integer in [0, 16777215], got -1',
    ],
    [
      'id too large',
      withJson((j) => void (j.model.vocab.he = 2 ** 24)),
      RangeError,
      'loadTokenizer: tokenizer.json id of token "he" must be an integer in [0, 16777215]',
    ],
    [
      'id twice',
      withJson((j) => void (j.model.vocab.he = 257)),
      RangeError,
      'loadTokenizer: tokenizer.json gives id 257 to two tokens, "he" and "ll"',
    ],
    [
      'merges not an array',
      withJson((j) => void (j.model.merges = 'h e')),
      TypeError,
      'loadTokenizer: tokenizer.json model.merges must be an array, got a string',
    ],
    [
      'merge a number',
      withJson((j) => void (j.model.merges[1] = 5)),
      TypeError,
      'loadTokenizer: tokenizer.json model.merges[1] must be "a b" or ["a", "b"], got a number',
    ],
    [
      'merge of three',
      withJson((j) => void (j.model.merges[0] = 'h e x')),
      RangeError,
      'loadTokenizer: tokenizer.json model.merges[0] must be two tokens separated by one space',
    ],
    [
      'merge of an unknown token',
      withJson(vocabMissing('he')),
      RangeError,
      'loadTokenizer: tokenizer.json merge 1 ("h" "e") uses "he", which is not in the vocabulary',
    ],
    [
      'merge pair unknown',
      withJson((j) => void j.model.merges.push(['q', 'zz'])),
      RangeError,
      'loadTokenizer: tokenizer.json merge 6 ("q" "zz") uses "zz", which is not in the vocabulary',
    ],
    [
      'a byte with no token',
      withJson(vocabMissing('Ċ')),
      RangeError,
      'loadTokenizer: tokenizer.json has no token for byte 0x0a ("Ċ")',
    ],
    [
      'normalizer Precompiled',
      withJson((j) => void (j.normalizer = { type: 'Precompiled', precompiled_charsmap: '' })),
      RangeError,
      'loadTokenizer: tokenizer.json normalizer type "Precompiled" is not supported',
    ],
    [
      'decoder CTC',
      withJson((j) => void (j.decoder = { type: 'CTC' })),
      RangeError,
      'loadTokenizer: tokenizer.json decoder type "CTC" is not supported',
    ],
    [
      'pre_tokenizer UnicodeScripts',
      withJson((j) => void (j.pre_tokenizer = { type: 'UnicodeScripts' })),
      RangeError,
      'loadTokenizer: tokenizer.json pre_tokenizer type "UnicodeScripts" is not supported',
    ],
    [
      'Split pattern possessive',
      withJson(
        (j) =>
          void (j.pre_tokenizer = {
            type: 'Sequence',
            pretokenizers: [{ type: 'Split', pattern: { Regex: '\\p{L}++' }, behavior: 'Isolated' }, j.pre_tokenizer],
          }),
      ),
      RangeError,
      'loadTokenizer: tokenizer.json pre_tokenizer.pretokenizers[0].pattern.Regex "\\\\p{L}++" uses a possessive quantifier, which is not supported',
    ],
    [
      'add_prefix_space a string',
      withJson((j) => void (j.pre_tokenizer.add_prefix_space = 'yes')),
      TypeError,
      'loadTokenizer: tokenizer.json pre_tokenizer add_prefix_space must be true or false, got a string',
    ],
    [
      'added_tokens an object',
      withJson((j) => void (j.added_tokens = {})),
      TypeError,
      'loadTokenizer: tokenizer.json added_tokens must be an array, got an object',
    ],
    [
      'added token empty',
      withJson((j) => void (j.added_tokens = [{ id: 300, content: '' }])),
      TypeError,
      'loadTokenizer: tokenizer.json added_tokens[0].content must be a non-empty string',
    ],
    [
      'added token single_word',
      withJson((j) => void (j.added_tokens = [{ id: 300, content: '<m>', single_word: true }])),
      RangeError,
      'loadTokenizer: tokenizer.json added_tokens[0] ("<m>") has single_word: true, which is not supported',
    ],
    [
      'added token on a taken id',
      withJson((j) => void (j.added_tokens = [{ id: 256, content: '<m>' }])),
      RangeError,
      'loadTokenizer: tokenizer.json added token "<m>" has id 256, which the vocabulary gives to "he"',
    ],
    [
      'added token with another id',
      withJson((j) => void (j.added_tokens = [{ id: 300, content: 'he' }])),
      RangeError,
      'loadTokenizer: tokenizer.json added token "he" has id 300 but the vocabulary gives it id 256',
    ],
    ['encode a number', () => tiny.encode(42), TypeError, 'encode: text must be a string, got a number'],
    ['encode undefined', () => tiny.encode(), TypeError, 'encode: text must be a string, got undefined'],
    [
      'decode a string',
      () => tiny.decode('hello'),
      TypeError,
      'decode: ids must be an array of token ids, got a string',
    ],
    [
      'decode a DataView',
      () => tiny.decode(new DataView(new ArrayBuffer(4))),
      TypeError,
      'decode: ids must be an array of token ids, got a DataView',
    ],
    ['decode a string id', () => tiny.decode(['1']), TypeError, 'decode: ids[0] must be a number, got a string'],
    [
      'decode a fraction',
      () => tiny.decode([1, 1.5]),
      RangeError,
      'decode: ids[1] is 1.5, which is not a token id (vocabSize 261)',
    ],
    ['decode -1', () => tiny.decode([-1]), RangeError, 'decode: ids[0] is -1, which is not a token id'],
    [
      'tokenText out of range',
      () => tiny.tokenText(261),
      RangeError,
      'tokenText: id is 261, which is not a token id (vocabSize 261)',
    ],
  ],
  () => assert.deepEqual(tiny.encode('hello hello').ids, [HELLO, SPACE, HELLO]),
);
