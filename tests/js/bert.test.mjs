// openModel with a BERT folder (config.json model_type "bert", model.safetensors
// with BertForMaskedLM's names, vocab.txt) against a float64 NumPy forward pass of
// a tiny random BERT (tests/fixtures/bert/make.py: bert/ holds its files, expected.txt
// the references, logits of every position).
//
// Tolerances, |got - want| / max(1, |want|), float32 against float64 (measured in
// the Catch2 test of the same model: maps ~2e-7, logits ~5e-6): attention 1e-5,
// logits 2e-5, [MASK] probabilities 1e-5 against softmax of the reference logits.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../dist/lib/index.js';
import { assertClose, loadFixture } from './fixtures.js';
import { joinSafetensors, splitSafetensors } from './gpt2-files.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'bert');
const bytes = (name) => new Uint8Array(readFileSync(join(DIR, name)));
const files = (overrides = {}) => ({
  'config.json': bytes('config.json'),
  'model.safetensors': bytes('model.safetensors'),
  'vocab.txt': bytes('vocab.txt'),
  ...overrides,
});

const a = await loadAttention();
const ref = loadFixture('bert/expected.txt');
const config = JSON.parse(readFileSync(join(DIR, 'config.json'), 'utf8'));
const { num_hidden_layers: L, num_attention_heads: H, vocab_size: V } = config;
const ints = (key) => Array.from(ref.get(key).data);

function softmax(x) {
  const max = Math.max(...x);
  const e = Array.from(x, (v) => Math.exp(v - max));
  const sum = e.reduce((s, v) => s + v, 0);
  return e.map((v) => v / sum);
}

test('a BERT folder opens: bidirectional maps and [MASK] predictions equal NumPy', async () => {
  const m = await a.openModel(files());
  assert.equal(m.config.model_type, 'bert');
  assert.equal(m.maskedLm, true);
  for (const s of [0, 1]) {
    const ids = ints(`seq${s}.ids`);
    const typeIds = ints(`seq${s}.types`);
    const T = ids.length;
    const r = m.runIds(ids, { typeIds, logits: true, k: 5 });
    assert.deepEqual(r.typeIds, typeIds);
    for (let l = 0; l < L; l++) {
      const want = ref.get(`seq${s}.attention${l}`).data;
      for (let h = 0; h < H; h++)
        assertClose(r.attentions[l][h].data, want.subarray(h * T * T, (h + 1) * T * T), 1e-5, {
          label: `seq${s} layer ${l} head ${h}`,
        });
    }
    const masks = ids.flatMap((id, t) => (id === 5 ? [t] : [])); // [MASK] is id 5 in the fixture's vocab.txt
    assert.deepEqual(
      r.masked.map((x) => x.position),
      masks,
    );
    for (const { position, top, logits } of r.masked) {
      const want = ref.get(`seq${s}.logits`).data.subarray(position * V, (position + 1) * V);
      assertClose(logits, want, 2e-5, { label: `seq${s} logits at ${position}` });
      const p = softmax(want);
      const order = p.map((_, i) => i).sort((x, y) => p[y] - p[x]);
      assert.deepEqual(
        top.map((t) => t.id),
        order.slice(0, 5),
      );
      top.forEach((t) => assert.ok(Math.abs(t.p - p[t.id]) <= 1e-5));
    }
  }
  // Bidirectional: the first query attends to later keys.
  const r = m.runIds(ints('seq0.ids'));
  assert.ok(r.attentions[0][0].get(0, 1) > 0);
  m.delete();
});

test('run(text): WordPiece with [CLS]/[SEP], a pair gets token types 1, [MASK] kept whole', async () => {
  const m = await a.openModel(files());
  const r = m.run('The cat sat on the [MASK].');
  assert.deepEqual(r.ids, ints('seq0.ids'));
  assert.deepEqual(r.tokens, ['[CLS]', 'the', 'cat', 'sat', 'on', 'the', '[MASK]', '.', '[SEP]']);
  assert.equal(r.masked.length, 1);
  assert.equal(r.masked[0].position, 6);
  const pair = m.run('How old are you?', { pair: 'I am 6 years' });
  assert.deepEqual(pair.ids, ints('seq1.ids'));
  assert.deepEqual(pair.typeIds, ints('seq1.types'));
  assert.deepEqual(m.run('unbelievable').tokens, ['[CLS]', 'un', '##believ', '##able', '[SEP]']);
  assert.throws(() => m.run('the '.repeat(11)), /BertModel.run: text is 13 tokens .* max_position_embeddings = 12/);
  assert.throws(() => m.runIds([3, 4], { typeIds: [0, 2] }), RangeError);
  assert.throws(() => m.runIds([3, 4], { typeIds: [0] }), /typeIds has 1 entries but ids has 2/);
  assert.throws(() => m.run('x', { pair: 3 }), TypeError);
  m.delete();
  assert.throws(() => m.run('the cat'), TypeError);
});

test('an encoder-only checkpoint (no cls.predictions) opens: maps, no predictions; bad folders are named', async () => {
  const { header, data } = splitSafetensors(bytes('model.safetensors'));
  const kept = Object.fromEntries(Object.entries(header).filter(([name]) => !name.startsWith('cls.')));
  const m = await a.openModel(files({ 'model.safetensors': joinSafetensors(kept, data) }));
  assert.equal(m.maskedLm, false);
  const r = m.run('the [MASK] sat');
  assert.deepEqual(r.masked, []);
  assert.equal(r.attentions.length, L);
  m.delete();

  await assert.rejects(
    a.openModel(files({ 'vocab.txt': undefined })),
    /openModel: a BERT model needs 'tokenizer.json' or 'vocab.txt'/,
  );
  const odd = { ...config, num_attention_heads: 3 };
  await assert.rejects(
    a.openModel(files({ 'config.json': new TextEncoder().encode(JSON.stringify(odd)) })),
    /num_attention_heads = 3 does not divide hidden_size = 8/,
  );
  await assert.rejects(
    a.openModel(files({ 'config.json': new TextEncoder().encode(JSON.stringify({ ...config, model_type: 't5' })) })),
    /model_type is "t5"; 'gpt2', 'bert'(, '[a-z0-9_]+')* and '[a-z0-9_]+' models open here/,
  );
  const missing = Object.fromEntries(
    Object.entries(header).filter(([name]) => !name.endsWith('layer.1.output.dense.bias')),
  );
  await assert.rejects(
    a.openModel(files({ 'model.safetensors': joinSafetensors(missing, data) })),
    /no tensor encoder.layer.1.output.dense.bias \(\[8\]\)/,
  );
  // The module still works after every refusal.
  const again = await a.openModel(files());
  assert.equal(again.run('the cat').attentions.length, L);
  again.delete();
});
