// The steps of tokenizer.json's pipeline one by one, on small inputs whose answers
// are written out by hand from the Rust tokenizers' rules (its split behaviours'
// own example, Oniguruma's classes, ByteFallback's U+FFFD per byte …). The real
// files' ids against tokenizers.js are in tokenizer-families.test.mjs.
import assert from 'node:assert/strict';
import test from 'node:test';
import { LEAST_TOKENS } from '../../web/src/api/tokenizer/bound.js';
import { readDecoder } from '../../web/src/api/tokenizer/decoders.js';
import { loadTokenizer } from '../../web/src/api/tokenizer/index.js';
import { readNormalizer } from '../../web/src/api/tokenizer/normalizers.js';
import { readPostProcessor } from '../../web/src/api/tokenizer/postprocess.js';
import { readPreTokenizer, splitText } from '../../web/src/api/tokenizer/pretokenizers.js';
import { translateRegex } from '../../web/src/api/tokenizer/regex.js';

const FN = 'f';
const all = (regex, text) => text.match(regex) ?? [];

test("Oniguruma patterns: \\s is White_Space, (?i) folds like Unicode, '.' stops at \\n only, ^ $ per line", () => {
  const ws = translateRegex('\\s+', 'p', FN);
  assert.deepEqual(all(ws, 'a\u0085b\ufeffc d'), ['\u0085', ' ']); // NEL is White_Space, U+FEFF is not
  const contractions = translateRegex("(?i:'s|'ll)", 'p', FN);
  assert.deepEqual(all(contractions, "it's IT'S it'ſ we'Ll we'x"), ["'s", "'S", "'ſ", "'Ll"]);
  assert.deepEqual(all(translateRegex('a.', 'p', FN), 'a\na\rab'), ['a\r', 'ab']);
  assert.deepEqual(all(translateRegex('^x|y$', 'p', FN), 'x x\nxy\ny'), ['x', 'x', 'y', 'y']);
  assert.deepEqual(all(translateRegex('\\p{Han}+|\\d+', 'p', FN), '東京 ٣٤ 12'), ['東京', '٣٤', '12']);
  assert.deepEqual(all(translateRegex('\\x{1F600}|[\\w]+', 'p', FN), '😀 é_1'), ['😀', 'é_1']);
  assert.deepEqual(all(translateRegex('\\p{N}{1,3}', 'p', FN), '12345'), ['123', '45']);
  for (const [pattern, what] of [
    ['a++', 'a possessive quantifier'],
    ['(?>a)', 'an atomic group (?>'],
    ['[[:alpha:]]', 'a POSIX class'],
    ['\\bword', '\\b'],
    ['[\\W]', '\\W inside a class'],
    ['(?i:[a-z])', 'a range of letters in a case-insensitive class'],
    ['(?m)x', 'the group (?m)'],
  ])
    assert.throws(() => translateRegex(pattern, 'tokenizer.json pre_tokenizer.pattern.Regex', FN), {
      name: 'RangeError',
      message: `f: tokenizer.json pre_tokenizer.pattern.Regex ${JSON.stringify(pattern)} uses ${what}, which is not supported`,
    });
});

test("Split's five behaviours on Rust's own example, and invert", () => {
  const dash = /-/gu;
  const text = 'the-final--countdown';
  assert.deepEqual(splitText(text, dash, 'Removed'), ['the', 'final', 'countdown']);
  assert.deepEqual(splitText(text, dash, 'Isolated'), ['the', '-', 'final', '-', '-', 'countdown']);
  assert.deepEqual(splitText(text, dash, 'MergedWithPrevious'), ['the-', 'final-', '-', 'countdown']);
  assert.deepEqual(splitText(text, dash, 'MergedWithNext'), ['the', '-final', '-', '-countdown']);
  assert.deepEqual(splitText(text, dash, 'Contiguous'), ['the', '-', 'final', '--', 'countdown']);
  assert.deepEqual(splitText(text, /[a-z]+/gu, 'Removed', true), ['the', 'final', 'countdown']);
  assert.deepEqual(splitText('', dash, 'Isolated'), []);
  assert.throws(
    () => readPreTokenizer({ type: 'Split', pattern: { String: '-' }, behavior: 'Nope' }, FN, 'x pre_tokenizer'),
    {
      name: 'RangeError',
      message:
        'f: x pre_tokenizer.behavior "Nope" is not one of Isolated, Removed, MergedWithPrevious, MergedWithNext, Contiguous',
    },
  );
});

test('pre-tokenizers: Metaspace prepend schemes, Digits, Whitespace, a Sequence', () => {
  const meta = (scheme, split) =>
    readPreTokenizer({ type: 'Metaspace', replacement: '▁', prepend_scheme: scheme, split }, FN, 'p');
  assert.deepEqual(meta('always', true).apply(['Hey friend '], false), ['▁Hey', '▁friend', '▁']);
  assert.deepEqual(meta('first', false).apply(['Hey friend'], true), ['▁Hey▁friend']);
  assert.deepEqual(meta('first', false).apply(['Hey friend'], false), ['Hey▁friend']);
  assert.deepEqual(meta('never', false).apply(['▁Hey'], true), ['▁Hey']);
  const digits = (individual) => readPreTokenizer({ type: 'Digits', individual_digits: individual }, FN, 'p');
  assert.deepEqual(digits(true).apply(['a123b½'], true), ['a', '1', '2', '3', 'b', '½']);
  assert.deepEqual(digits(false).apply(['a123b½'], true), ['a', '123', 'b', '½']);
  const words = readPreTokenizer({ type: 'Whitespace' }, FN, 'p');
  assert.deepEqual(words.apply(["Hey man!! it's  fine"], true), ['Hey', 'man', '!!', 'it', "'", 's', 'fine']);
  assert.equal(words.removes, true);
  const seq = readPreTokenizer(
    {
      type: 'Sequence',
      pretokenizers: [{ type: 'WhitespaceSplit' }, { type: 'ByteLevel', add_prefix_space: false, use_regex: false }],
    },
    FN,
    'p',
  );
  assert.deepEqual(seq.apply(['a b\u00e9\n'], true), ['a', 'b\u00e9']); // the last step: bytes later, word by word
  assert.equal(seq.bytesLater, true);
  assert.equal(seq.byteLevel, true);
  assert.throws(() => readPreTokenizer({ type: 'UnicodeScripts' }, FN, 'x pre_tokenizer'), {
    name: 'RangeError',
    message: 'f: x pre_tokenizer type "UnicodeScripts" is not supported',
  });
});

test('normalizers: NFC/NFKC, Lowercase per character, Prepend, Replace, Strip, Sequence', () => {
  const n = (json) => readNormalizer(json, FN, 'x normalizer');
  assert.equal(n({ type: 'NFC' }).apply('cafe\u0301'), 'caf\u00e9');
  assert.equal(n({ type: 'NFKC' }).apply('ﬁ①'), 'fi1');
  assert.equal(n({ type: 'Lowercase' }).apply('ΟΔΟΣ ΣΑ'), 'οδοσ σα'); // Rust: no final ς
  assert.equal(n({ type: 'Prepend', prepend: '▁' }).apply(''), '');
  const llama = n({
    type: 'Sequence',
    normalizers: [
      { type: 'Prepend', prepend: '▁' },
      { type: 'Replace', pattern: { String: ' ' }, content: '▁' },
    ],
  });
  assert.equal(llama.apply('Hey you'), '▁Hey▁you');
  assert.equal(n({ type: 'Replace', pattern: { Regex: '\\s+' }, content: ' ' }).apply('a \t\n b'), 'a b');
  assert.equal(n({ type: 'Strip', strip_left: true, strip_right: false }).apply('  a  '), 'a  ');
  assert.equal(n(null), null);
  assert.throws(() => n({ type: 'Precompiled' }), {
    name: 'RangeError',
    message: 'f: x normalizer type "Precompiled" is not supported',
  });
  assert.throws(() => n({ type: 'Replace', pattern: { Glob: '*' }, content: '' }), {
    name: 'TypeError',
    message: 'f: x normalizer.pattern must be { String: text } or { Regex: pattern }, got an object',
  });
});

test('decoders: ByteFallback gives U+FFFD per byte of a broken sequence, Strip, Metaspace, Fuse', () => {
  const d = (json) => readDecoder(json, FN, 'x decoder');
  const fallback = d({ type: 'ByteFallback' });
  assert.deepEqual(fallback(['<0xE6>', '<0x9D>', '<0xB1>', 'a'], false), ['東', 'a']);
  assert.deepEqual(fallback(['<0xE6>', '<0x9D>', 'a', '<0x41>'], false), ['\ufffd', '\ufffd', 'a', 'A']);
  const llama = d({
    type: 'Sequence',
    decoders: [
      { type: 'Replace', pattern: { String: '▁' }, content: ' ' },
      { type: 'ByteFallback' },
      { type: 'Fuse' },
      { type: 'Strip', content: ' ', start: 1, stop: 0 },
    ],
  });
  assert.deepEqual(llama(['▁Hey', '▁you', '<0x21>'], false), ['Hey you!']);
  assert.deepEqual(llama(['▁Hey'], true), [' Hey']); // a token inside a text keeps its space
  const meta = d({ type: 'Metaspace', replacement: '▁', prepend_scheme: 'always' });
  assert.deepEqual(meta(['▁Hey', '▁you'], false), ['Hey', ' you']);
  assert.throws(() => d({ type: 'CTC' }), { name: 'RangeError', message: 'f: x decoder type "CTC" is not supported' });
});

test('post-processors: a template, BERT and RoBERTa, a Sequence with one that adds', () => {
  const p = (json) => readPostProcessor(json, FN, 'x post_processor');
  const template = p({
    type: 'TemplateProcessing',
    single: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
    pair: [{ Sequence: { id: 'A', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }],
    special_tokens: { '<s>': { id: '<s>', ids: [1], tokens: ['<s>'] } },
  });
  assert.deepEqual(template.single, [[1], 'A']);
  assert.deepEqual(p({ type: 'RobertaProcessing', cls: ['<s>', 0], sep: ['</s>', 2] }).pair, [
    [0],
    'A',
    [2],
    [2],
    'B',
    [2],
  ]);
  assert.deepEqual(p({ type: 'BertProcessing', cls: ['[CLS]', 101], sep: ['[SEP]', 102] }).single, [[101], 'A', [102]]);
  const sequence = p({
    type: 'Sequence',
    processors: [{ type: 'ByteLevel' }, { type: 'BertProcessing', cls: ['c', 5], sep: ['s', 6] }],
  });
  assert.deepEqual(sequence.single, [[5], 'A', [6]]);
  assert.throws(
    () =>
      p({
        type: 'TemplateProcessing',
        single: [{ SpecialToken: { id: '<bos>', type_id: 0 } }],
        pair: [],
        special_tokens: {},
      }),
    {
      name: 'RangeError',
      message: 'f: x post_processor.single[0] names the special token "<bos>", which special_tokens does not give ids',
    },
  );
});

/** A SentencePiece-style tokenizer.json: '▁', letters, two merges, the byte tokens but 0xFF, '<unk>'. */
function sentencePiece(change = () => {}) {
  const vocab = { '<unk>': 0, '<s>': 1, '▁': 2, a: 3, b: 4, ab: 5, '▁ab': 6 };
  for (let b = 0; b < 256; b++) vocab[`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`] = 7 + b;
  const json = {
    added_tokens: [
      { id: 0, content: '<unk>', special: true, normalized: false },
      { id: 1, content: '<s>', special: true, normalized: false },
    ],
    normalizer: {
      type: 'Sequence',
      normalizers: [
        { type: 'Prepend', prepend: '▁' },
        { type: 'Replace', pattern: { String: ' ' }, content: '▁' },
      ],
    },
    pre_tokenizer: null,
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
      pair: [],
      special_tokens: { '<s>': { id: '<s>', ids: [1], tokens: ['<s>'] } },
    },
    decoder: {
      type: 'Sequence',
      decoders: [
        { type: 'Replace', pattern: { String: '▁' }, content: ' ' },
        { type: 'ByteFallback' },
        { type: 'Fuse' },
        { type: 'Strip', content: ' ', start: 1, stop: 0 },
      ],
    },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: '<unk>',
      fuse_unk: true,
      byte_fallback: true,
      vocab,
      merges: ['a b', '▁ ab'],
    },
  };
  change(json);
  return loadTokenizer({ 'tokenizer.json': json });
}

test('BPE with byte_fallback: a character outside the vocabulary is its bytes; without them, <unk> (fused or not) or nothing', () => {
  const t = sentencePiece();
  assert.equal(t.kind, 'bpe');
  assert.deepEqual(t.encode('ab').ids, [1, 6]);
  assert.deepEqual(t.encode('ab b').ids, [1, 6, 2, 4]);
  assert.deepEqual(t.encode('é').ids, [1, 2, 7 + 0xc3, 7 + 0xa9]);
  assert.equal(t.decode(t.encode('ab é').ids), '<s> ab é'); // Strip cuts the first piece's space: '<s>' has none
  assert.equal(t.decode(t.encode('ab é', { addSpecialTokens: false }).ids), 'ab é');
  assert.deepEqual(t.encode('a', { addSpecialTokens: false }).ids, [2, 3]);
  // One byte token missing: byte_fallback is off for every character (as in Rust), so <unk>.
  const gap = sentencePiece((j) => void delete j.model.vocab['<0xA9>']);
  assert.deepEqual(gap.encode('aé', { addSpecialTokens: false }).ids, [2, 3, 0]);
  // Without the byte tokens: unknown characters become one <unk> per run (fuse_unk).
  const fused = sentencePiece((j) => void (j.model.byte_fallback = false));
  assert.deepEqual(fused.encode('aéé€b').ids, [1, 2, 3, 0, 4]);
  const unfused = sentencePiece((j) => Object.assign(j.model, { byte_fallback: false, fuse_unk: false }));
  assert.deepEqual(unfused.encode('aéé€b').ids, [1, 2, 3, 0, 0, 0, 4]);
  // No unk_token: the character gives no id (as in Rust's BPE), and its neighbours merge.
  const none = sentencePiece((j) => Object.assign(j.model, { byte_fallback: false, unk_token: null }));
  assert.deepEqual(none.encode('aéb').ids, [1, 6]);
  assert.throws(() => sentencePiece((j) => void (j.model.dropout = 0.1)), {
    name: 'RangeError',
    message: 'loadTokenizer: tokenizer.json model.dropout is 0.1; only null or 0 is supported',
  });
});

test('added tokens: cut out before normalizing, leftmost then longest, lstrip/rstrip take the spaces, normalized ones match the normalized text', () => {
  const t = sentencePiece((j) => {
    Object.assign(j.model.vocab, { '<x>': 300, '<x>y': 301 });
    j.added_tokens.push(
      { id: 300, content: '<x>', special: true, normalized: false, lstrip: true, rstrip: true },
      { id: 301, content: '<x>y', special: true, normalized: false },
      { id: 302, content: ' b ', special: false, normalized: true },
    );
  });
  assert.deepEqual(t.encode('a <x>y', { addSpecialTokens: false }).ids, [2, 3, 2, 301]);
  // Each stretch is normalized alone: Prepend puts '▁' after an added token too (Llama 2's files do).
  assert.deepEqual(t.encode('a  <x>  a', { addSpecialTokens: false }).ids, [2, 3, 300, 2, 3]);
  // ' b ' is normalized as the text is (Rust normalizes the content, Prepend included): '▁▁b▁',
  // found in 'a  b a' normalized ('▁a▁▁b▁a'), not in 'a b a' ('▁a▁b▁a').
  assert.deepEqual(t.encode('a  b a', { addSpecialTokens: false }).ids, [2, 3, 302, 3]);
  assert.deepEqual(t.encode('a b a', { addSpecialTokens: false }).ids, [2, 3, 2, 4, 2, 3]);
  assert.deepEqual(t.encode('<s>ab').ids, [1, 1, 6]);
});

test('the text-length bound never exceeds the tokens, and is 0 where text may give none', () => {
  const t = sentencePiece();
  for (const s of ['', 'a', 'ab ab ab', 'éééé', 'a'.repeat(1000), 'b a b a \t\n'])
    assert.ok(t[LEAST_TOKENS](s) <= t.encode(s, { addSpecialTokens: false }).ids.length, s);
  assert.ok(t[LEAST_TOKENS]('a'.repeat(1000)) > 0);
  const fused = sentencePiece((j) => void (j.model.byte_fallback = false));
  assert.equal(fused[LEAST_TOKENS]('é'.repeat(1000)), 0);
});
