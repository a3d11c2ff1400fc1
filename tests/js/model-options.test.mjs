// Errors that name the call (issue 34, item 6): run / runIds read and check their options
// into a plain copy before any other work, so a getter that deletes the model gives this
// package's TypeError naming the call (never Embind's BindingError); options other than k
// are type-checked; bytes whose ArrayBuffer was detached are a TypeError naming the argument.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { loadTokenizer } from '../../web/src/api/tokenizer/index.js';
import { loadWordPieceTokenizer } from '../../web/src/api/tokenizer/wordpiece.js';
import { bertFiles } from './bert-files.js';
import { fixtureBytes, fixtureFiles } from './gpt2-files.js';

const a = await loadAttention();

/** `bytes` with its ArrayBuffer detached (transferred away). */
function detached(bytes) {
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  return bytes;
}

for (const [family, open, kind] of [
  ['GPT-2', () => a.openModel(fixtureFiles()), 'Gpt2Model'],
  ['BERT', () => a.openModel(bertFiles()), 'BertModel'],
]) {
  test(`${family}: an options getter that deletes the model is a TypeError naming the call`, async () => {
    for (const method of ['run', 'runIds']) {
      for (const key of ['k', 'logits']) {
        const m = await open();
        const input = method === 'run' ? 'the cat' : [1, 2];
        const options = {
          get [key]() {
            m.delete();
            return key === 'k' ? 2 : false;
          },
        };
        assert.throws(() => m[method](input, options), {
          name: 'TypeError',
          message: `${kind}.${method}: this ${kind} was deleted`,
        });
      }
    }
  });

  test(`${family}: options.logits must be a boolean; options.k an integer in [1, vocab_size]`, async () => {
    const m = await open();
    for (const method of ['run', 'runIds']) {
      const input = method === 'run' ? 'the cat' : [1, 2];
      for (const logits of ['yes', 1, null])
        assert.throws(() => m[method](input, { logits }), {
          name: 'TypeError',
          message: new RegExp(`^${kind}\\.${method}: options\\.logits must be true or false, got `),
        });
      assert.throws(() => m[method](input, { k: m.config.vocab_size + 1 }), {
        name: 'RangeError',
        message: new RegExp(`^${kind}\\.${method}: options\\.k must be an integer in \\[1, ${m.config.vocab_size}\\]`),
      });
    }
    assert.equal(m.runIds([1, 2], { logits: true, k: 1 }).ids.length, 2);
    m.delete();
  });

  test(`${family}: ids on a detached ArrayBuffer are a TypeError naming ids`, async () => {
    const m = await open();
    assert.throws(() => m.runIds(detached(new Int32Array([1, 2]))), {
      name: 'TypeError',
      message: new RegExp(`^${kind}\\.runIds: ids is a Int32Array whose ArrayBuffer was detached`),
    });
    assert.equal(m.runIds(new Int32Array([1, 2])).ids.length, 2, 'the model keeps working');
    m.delete();
  });
}

test('BERT: options.typeIds on a detached ArrayBuffer is a TypeError naming it', async () => {
  const m = await a.openModel(bertFiles());
  assert.throws(() => m.runIds([1, 2], { typeIds: detached(new Uint8Array([0, 0])) }), {
    name: 'TypeError',
    message: /^BertModel\.runIds: options\.typeIds is a Uint8Array whose ArrayBuffer was detached/,
  });
  m.delete();
});

test('tokenizer files on a detached ArrayBuffer are a TypeError naming the file', () => {
  assert.throws(() => loadTokenizer({ 'tokenizer.json': detached(fixtureBytes('tokenizer.json')).buffer }), {
    name: 'TypeError',
    message: /^loadTokenizer: tokenizer\.json is bytes whose ArrayBuffer was detached/,
  });
  assert.throws(() => loadWordPieceTokenizer({ 'vocab.txt': detached(bertFiles()['vocab.txt']) }), {
    name: 'TypeError',
    message: /^loadWordPieceTokenizer: vocab\.txt is bytes whose ArrayBuffer was detached/,
  });
});
