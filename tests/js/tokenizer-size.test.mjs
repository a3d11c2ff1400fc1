// Big vocabularies (web/src/api/tokenizer/load.js, tokenizer.js, steps.js): the sizes a
// tokenizer file may declare are bounded (a RangeError naming the file and field), the
// tables build in one linear pass, and openModel's path builds them in slices that give
// the event loop a turn, so an AbortSignal lands while a large vocabulary loads.
// Timings are the bench's (bench/tokenizer.mjs); these tests count steps and sizes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { loadTokenizer, loadTokenizerAsync } from '../../web/src/api/tokenizer/index.js';
import { MAX_MERGES, MAX_TOKEN_CHARS, MAX_VOCAB } from '../../web/src/api/tokenizer/load.js';
import { loadWordPieceTokenizer } from '../../web/src/api/tokenizer/wordpiece.js';
import { syntheticBpe, syntheticTokenizerJson } from './big-tokenizer.js';
import { fixtureFiles } from './gpt2-files.js';
import bert from '../../web/src/api/model/families/bert/index.js';
import gpt2 from '../../web/src/api/model/families/gpt2/index.js';

const PRE = { type: 'ByteLevel', add_prefix_space: false, use_regex: true };
const tokenizerJson = (model) => ({ normalizer: null, pre_tokenizer: PRE, model });

test('declared sizes past the bounds are RangeErrors naming the file and field', () => {
  assert.equal(MAX_VOCAB, 2 ** 20);
  assert.equal(MAX_MERGES, 2 ** 21);
  const small = syntheticBpe(300);
  const merges = new Array(MAX_MERGES + 1).fill(small.merges[0]);
  assert.throws(() => loadTokenizer({ 'tokenizer.json': tokenizerJson({ ...small, merges }) }), {
    name: 'RangeError',
    message: `loadTokenizer: tokenizer.json model.merges has ${MAX_MERGES + 1} entries, more than the ${MAX_MERGES} supported`,
  });
  const vocab = { ...small.vocab };
  for (let i = Object.keys(vocab).length; i <= MAX_VOCAB; i++) vocab[`t${i}`] = i;
  assert.throws(() => loadTokenizer({ 'tokenizer.json': tokenizerJson({ ...small, vocab }) }), {
    name: 'RangeError',
    message: `loadTokenizer: tokenizer.json model.vocab has ${MAX_VOCAB + 1} entries, more than the ${MAX_VOCAB} supported`,
  });
  assert.throws(() => loadTokenizer({ 'vocab.json': JSON.stringify(vocab), 'merges.txt': '' }), {
    name: 'RangeError',
    message: /^loadTokenizer: vocab\.json vocab has 1048577 entries/,
  });
  const long = 'a'.repeat(MAX_TOKEN_CHARS + 1);
  assert.throws(
    () => loadTokenizer({ 'tokenizer.json': tokenizerJson({ ...small, vocab: { ...small.vocab, [long]: 300 } }) }),
    { name: 'RangeError', message: /^loadTokenizer: tokenizer\.json model\.vocab has a token of 2049 characters/ },
  );
  assert.throws(() => loadWordPieceTokenizer({ 'vocab.txt': `[UNK]\n[CLS]\n[SEP]\n${long}\n` }), {
    name: 'RangeError',
    message: /^loadWordPieceTokenizer: vocab\.txt line 4 has a token of 2049 characters/,
  });
  const words = Object.fromEntries(Array.from({ length: MAX_VOCAB + 1 }, (_, i) => [`w${i}`, i]));
  assert.throws(() => loadWordPieceTokenizer({ 'tokenizer.json': { model: { type: 'WordPiece', vocab: words } } }), {
    name: 'RangeError',
    message: /^loadWordPieceTokenizer: tokenizer\.json model\.vocab has 1048577 entries/,
  });
});

test('a duplicate id is still named with both tokens (one pass, a bit set of ids)', () => {
  const small = syntheticBpe(300);
  const vocab = { ...small.vocab, extra: 5 };
  const first = Object.keys(small.vocab).find((t) => small.vocab[t] === 5);
  assert.throws(() => loadTokenizer({ 'tokenizer.json': tokenizerJson({ ...small, vocab }) }), {
    name: 'RangeError',
    message: `loadTokenizer: tokenizer.json gives id 5 to two tokens, ${JSON.stringify(first)} and "extra"`,
  });
});

test('the async path gives the same tokenizer, and yields to the event loop while it builds', async () => {
  const text = syntheticTokenizerJson(200000, 3);
  const sync = loadTokenizer({ 'tokenizer.json': text });
  let turns = 0;
  let building = true;
  const tick = () => {
    if (!building) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  const built = await loadTokenizerAsync({ 'tokenizer.json': text });
  building = false;
  // 200,000 entries and 200,000 merges: at least one turn every 16 * 4096 entries.
  assert.ok(turns >= 4, `${turns} turns of the event loop during the build`);
  assert.equal(built.vocabSize, 200000);
  for (const s of ['hello world', 'the quick brown fox, 1234!', '\u00e9t\u00e9 ☃ 😀'])
    assert.deepEqual(built.encode(s).ids, sync.encode(s).ids, s);
});

test('an AbortSignal lands while a large vocabulary builds (loadTokenizerAsync, the GPT-2 row, openModel)', async () => {
  const text = syntheticTokenizerJson(200000, 4);
  const controller = new AbortController();
  setImmediate(() => controller.abort(new Error('stop')));
  await assert.rejects(loadTokenizerAsync({ 'tokenizer.json': text }, controller.signal), { message: 'stop' });

  // The family row openModel calls: its bytes are parsed without a turn of the event loop, so
  // the first turn comes from the build's slices (a build in one stretch resolves instead).
  const bytes = new TextEncoder().encode(text);
  const row = new AbortController();
  setImmediate(() => row.abort(new Error('row')));
  await assert.rejects(gpt2.openTokenizer({ 'tokenizer.json': bytes }, 'openModel', row.signal), { message: 'row' });

  const a = await loadAttention();
  const late = new AbortController();
  const opening = a.openModel(fixtureFiles('model.safetensors', { 'tokenizer.json': bytes }), { signal: late.signal });
  setImmediate(() => late.abort(new Error('late')));
  await assert.rejects(opening, { message: 'late' });
  // Not aborted, the same files open (the tokenizer's extra ids are past the model's vocab_size).
  const m = await a.openModel(fixtureFiles('model.safetensors', { 'tokenizer.json': bytes }));
  assert.equal(m.tokenizer.vocabSize, 200000);
  m.delete();
});

test("BERT's row reads a large vocab.txt in slices too: an AbortSignal lands; not aborted, the same vocabulary", async () => {
  const lines = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
  for (let i = lines.length; i < 300000; i++) lines.push(i % 2 ? `w${i}` : `##w${i}`);
  const bytes = new TextEncoder().encode(lines.join('\n') + '\n');
  const controller = new AbortController();
  setImmediate(() => controller.abort(new Error('bert')));
  await assert.rejects(bert.openTokenizer({ 'vocab.txt': bytes }, 'openModel', controller.signal), { message: 'bert' });
  const opened = await bert.openTokenizer({ 'vocab.txt': bytes }, 'openModel');
  const sync = loadWordPieceTokenizer({ 'vocab.txt': bytes });
  assert.equal(opened.vocabSize, 300000);
  assert.deepEqual(opened.encode('w7w9 w11').ids, sync.encode('w7w9 w11').ids);
});
