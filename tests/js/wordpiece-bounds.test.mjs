// WordPiece (web/src/api/tokenizer/wordpiece.js) does work linear in a word's length:
// candidates start at the longest piece's length, so a word of n characters looks up at
// most n * longest substrings (it was n² / 2, each joined from characters again), and
// max_input_chars_per_word is bounded as Hugging Face bounds it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWordPieceTokenizer, WordPieceTokenizer } from '../../web/src/api/tokenizer/wordpiece.js';
import { generator } from './seeded.js';

/** A Map that counts its lookups. */
class CountingMap extends Map {
  lookups = 0;
  has(key) {
    this.lookups++;
    return super.has(key);
  }
}

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const letters = 'abcdefghij';

/** A vocabulary of the specials, then `pieces` (and each as a ##continuation). */
function vocabOf(pieces) {
  const vocab = new CountingMap();
  for (const t of [...SPECIAL, ...pieces.flatMap((p) => [p, `##${p}`])]) if (!vocab.has(t)) vocab.set(t, vocab.size);
  return vocab;
}

const make = (vocab, maxChars = 100) =>
  new WordPieceTokenizer({ vocab, unk: '[UNK]', prefix: '##', maxChars, normalize: null, special: SPECIAL });

/** Greedy longest match first, every candidate from the word's end (the definition). */
function reference(vocab, word, maxChars = 100) {
  const chars = [...word];
  if (chars.length > maxChars) return ['[UNK]'];
  const out = [];
  for (let start = 0; start < chars.length;) {
    let end = chars.length;
    for (; end > start; end--) if (vocab.has((start ? '##' : '') + chars.slice(start, end).join(''))) break;
    if (end === start) return ['[UNK]'];
    out.push((start ? '##' : '') + chars.slice(start, end).join(''));
    start = end;
  }
  return out;
}

test('a 100-character word costs at most 100 * (longest piece) lookups, not 100² / 2', () => {
  const vocab = vocabOf(letters.split(''));
  const tokenizer = make(vocab);
  const g = generator(7);
  const word = Array.from({ length: 100 }, () => g.pick(letters.split(''))).join('');
  // Every lookup: the vocabulary's, and any Set the tokenizer keeps (continuations without '##').
  const has = Set.prototype.has;
  let setLookups = 0;
  Set.prototype.has = function (key) {
    setLookups++;
    return has.call(this, key);
  };
  vocab.lookups = 0;
  let tokens;
  try {
    tokens = tokenizer.tokenize(word);
  } finally {
    Set.prototype.has = has;
  }
  const lookups = vocab.lookups + setLookups;
  assert.deepEqual(tokens, reference(vocab, word));
  const longest = Math.max(...[...vocab.keys()].map((t) => t.replace(/^##/, '').length)); // '[MASK]': 6
  assert.ok(lookups <= 100 * longest, `${lookups} lookups for 100 characters (longest piece ${longest})`);
});

test('the same pieces as the definition on 500 seeded words of 1 to 120 characters', () => {
  const g = generator(2026);
  const pieces = [];
  for (let i = 0; i < 60; i++)
    pieces.push(Array.from({ length: g.int(1, 7) }, () => g.pick([...letters, 'é', '😀'])).join(''));
  const vocab = vocabOf(pieces);
  const tokenizer = make(vocab);
  for (let i = 0; i < 500; i++) {
    const word = Array.from({ length: g.int(1, 120) }, () => g.pick(pieces))
      .join('')
      .slice(0, 120);
    const want = reference(vocab, word);
    assert.deepEqual(tokenizer.tokenize(word), want, word);
  }
});

test('a word longer than max_input_chars_per_word is one [UNK]; exactly that many characters is not', () => {
  const vocab = vocabOf(['a']);
  const tokenizer = make(vocab, 8);
  assert.deepEqual(tokenizer.tokenize('a'.repeat(8)), ['a', ...Array(7).fill('##a')]);
  assert.deepEqual(tokenizer.tokenize('a'.repeat(9)), ['[UNK]']);
  assert.deepEqual(tokenizer.tokenize('😀'.repeat(9)), ['[UNK]'], 'characters are code points');
});

const json = (model) =>
  JSON.stringify({
    normalizer: null,
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      vocab: { '[UNK]': 0, '[CLS]': 1, '[SEP]': 2, a: 3, '##a': 4 },
      ...model,
    },
  });

test('max_input_chars_per_word past 10,000, not an integer or not a number is refused, naming the file and field', () => {
  for (const value of [1e9, 10001, 0, -5, 2.5])
    assert.throws(() => loadWordPieceTokenizer({ 'tokenizer.json': json({ max_input_chars_per_word: value }) }), {
      name: 'RangeError',
      message: `loadWordPieceTokenizer: tokenizer.json model.max_input_chars_per_word must be an integer in [1, 10000], got ${value}`,
    });
  assert.throws(() => loadWordPieceTokenizer({ 'tokenizer.json': json({ max_input_chars_per_word: '100' }) }), {
    name: 'TypeError',
    message: /tokenizer\.json model\.max_input_chars_per_word must be a number, got a string/,
  });
  const wide = loadWordPieceTokenizer({ 'tokenizer.json': json({ max_input_chars_per_word: 10000 }) });
  assert.equal(wide.tokenize('a'.repeat(10000)).length, 10000);
  assert.deepEqual(wide.tokenize('a'.repeat(10001)), ['[UNK]']);
  const usual = loadWordPieceTokenizer({ 'tokenizer.json': json({}) });
  assert.deepEqual(usual.tokenize('a'.repeat(101)), ['[UNK]'], "Hugging Face's default: 100");
});

test('an empty continuing_subword_prefix: continuations are looked up as they are', () => {
  const tokenizer = loadWordPieceTokenizer({ 'tokenizer.json': json({ continuing_subword_prefix: '' }) });
  assert.deepEqual(tokenizer.tokenize('aaa'), ['a', 'a', 'a']);
  const vocab = vocabOf(['ab', 'c']);
  const bare = new WordPieceTokenizer({
    vocab,
    unk: '[UNK]',
    prefix: '',
    maxChars: 100,
    normalize: null,
    special: SPECIAL,
  });
  assert.deepEqual(bare.tokenize('abcab'), ['ab', 'c', 'ab']);
});
