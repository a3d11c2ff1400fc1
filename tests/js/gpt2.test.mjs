// openModel / Gpt2Model against a float64 NumPy forward pass of a tiny random
// GPT-2 (tests/fixtures/gpt2/make.py: gpt2/ holds its Hugging Face files,
// expected.txt the references). Everything numeric is checked at the ids level
// (runIds), so it does not depend on the tokenizer.
//
// Tolerances, |got - want| / max(1, |want|), for a float32 forward pass against
// float64 (measured max in brackets, all variants):
//   attention weights 1e-5 [about 1e-6], logits 2e-5 [about 3e-6],
//   next-token probabilities 1e-5 against softmax of the reference logits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { fixtureBytes, fixtureFiles } from './gpt2-files.js';
import { assertClose, loadFixture } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('gpt2/expected.txt');
const config = JSON.parse(new TextDecoder().decode(fixtureBytes('config.json')));
const { n_layer: L, n_head: H } = config;
const sequences = [0, 1, 2].map((s) => Array.from(ref.get(`seq${s}.ids`).data));

const VARIANTS = [
  // file, the reference logits' suffix, how the bytes are handed over
  ['model.safetensors', 'logits', (b) => b],
  ['model.safetensors', 'logits', (b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)],
  ['model-f16-prefix-head.safetensors', 'logits_head', (b) => new Blob([b])],
  ['model-bf16.safetensors', 'logits', (b) => new Blob([b])],
];

function softmax(x) {
  const max = Math.max(...x);
  const e = Array.from(x, (v) => Math.exp(v - max));
  const sum = e.reduce((s, v) => s + v, 0);
  return e.map((v) => v / sum);
}

/** Checks one run against the references of sequence s; returns the largest differences. */
function checkRun(r, s, logitsKey) {
  const T = sequences[s].length;
  assert.deepEqual(r.ids, sequences[s]);
  assert.equal(r.attentions.length, L);
  let worstAttention = 0;
  for (let l = 0; l < L; l++) {
    assert.equal(r.attentions[l].length, H);
    const want = ref.get(`seq${s}.attention${l}`).data;
    for (let h = 0; h < H; h++) {
      const m = r.attentions[l][h];
      assert.equal(m.rows, T);
      assert.equal(m.cols, T);
      assert.ok(m.data instanceof Float32Array);
      const diff = assertClose(m.data, want.subarray(h * T * T, (h + 1) * T * T), 1e-5, {
        label: `seq${s} layer ${l} head ${h}`,
      });
      worstAttention = Math.max(worstAttention, diff);
      for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) assert.equal(m.get(i, j), 0, 'causal');
    }
  }
  const wantLogits = ref.get(`seq${s}.${logitsKey}`).data;
  const logitsDiff = assertClose(r.logits, wantLogits, 2e-5, { label: `seq${s} logits` });
  const p = softmax(wantLogits);
  const order = [...p.keys()].sort((i, j) => p[j] - p[i]);
  assert.deepEqual(
    r.next.map((n) => n.id),
    order.slice(0, r.next.length),
  );
  assertClose(
    r.next.map((n) => n.p),
    r.next.map((n) => p[n.id]),
    1e-5,
    { label: 'next p' },
  );
  return { worstAttention, logitsDiff };
}

for (const [file, logitsKey, hand] of VARIANTS) {
  test(`${file} (${hand(new Uint8Array(1)).constructor.name}) matches the NumPy forward pass: every attention map and the logits`, async () => {
    const files = fixtureFiles(file);
    files['model.safetensors'] = hand(files['model.safetensors']);
    const m = await a.openModel(files);
    try {
      assert.equal(m.config.n_layer, L);
      for (let s = 0; s < sequences.length; s++) checkRun(m.runIds(sequences[s], { logits: true }), s, logitsKey);
    } finally {
      m.delete();
    }
  });
}

test('activation_function "gelu" runs the exact erf form (different logits, matching NumPy)', async () => {
  const gelu = new TextEncoder().encode(JSON.stringify({ ...config, activation_function: 'gelu' }));
  const m = await a.openModel(fixtureFiles('model.safetensors', { 'config.json': gelu }));
  const r = m.runIds(sequences[1], { logits: true });
  assertClose(r.logits, ref.get('seq1.logits_erf').data, 2e-5, { label: 'erf logits' });
  assert.ok(Math.abs(r.logits[0] - ref.get('seq1.logits').data[0]) > 1e-4, 'the forms differ');
  m.delete();
});

test('next: k tokens (default 10), most likely first, with their text; options are checked', async () => {
  const m = await a.openModel(fixtureFiles());
  const r = m.runIds(sequences[2]);
  assert.equal(r.next.length, 10);
  assert.equal(r.logits, undefined);
  for (let i = 1; i < r.next.length; i++) assert.ok(r.next[i - 1].p >= r.next[i].p);
  for (const n of r.next) assert.equal(n.token, m.tokenizer.tokenText(n.id));
  assert.equal(m.runIds(sequences[2], { k: 3 }).next.length, 3);
  assert.equal(m.runIds(sequences[2], { k: 262 }).next.length, 262);
  assert.throws(() => m.runIds(sequences[2], { k: 0 }), {
    name: 'RangeError',
    message: /^Gpt2Model\.runIds: options\.k/,
  });
  assert.throws(() => m.runIds(sequences[2], { top: 3 }), { name: 'TypeError', message: /unknown option 'top'/ });
  m.delete();
});

test("run(text) is runIds of the tokenizer's ids, with the tokens' text", async () => {
  const m = await a.openModel(fixtureFiles());
  const text = 'the cat sat';
  const { ids } = m.tokenizer.encode(text);
  const byText = m.run(text, { logits: true });
  const byIds = m.runIds(ids, { logits: true });
  assert.deepEqual(byText.ids, ids);
  assert.deepEqual(byText.logits, byIds.logits);
  assert.deepEqual(
    byText.tokens,
    ids.map((id) => m.tokenizer.tokenText(id)),
  );
  assert.equal(byText.tokens.join(''), text);
  m.delete();
});

test('longer than n_positions: RangeError naming it; bad ids are checked; the model keeps working', async () => {
  const m = await a.openModel(fixtureFiles());
  assert.throws(() => m.run('x'.repeat(13)), {
    name: 'RangeError',
    message: "Gpt2Model.run: text is 13 tokens, more than the model's n_positions = 12",
  });
  assert.throws(() => m.runIds(Array(13).fill(1)), { name: 'RangeError', message: /n_positions = 12/ });
  assert.throws(() => m.runIds([]), { name: 'RangeError', message: /must have 1 to n_positions/ });
  assert.throws(() => m.runIds([1, 262]), {
    name: 'RangeError',
    message: 'Gpt2Model.runIds: ids[1] must be an integer in [0, 261], got 262',
  });
  assert.throws(() => m.runIds([1, 0.5]), { name: 'RangeError' });
  assert.throws(() => m.runIds('1 2'), { name: 'TypeError', message: /ids must be an array/ });
  assert.throws(() => m.run(3), { name: 'TypeError', message: /text must be a string/ });
  assert.throws(() => m.run(''), { name: 'RangeError', message: /no tokens/ });
  checkRun(m.runIds(sequences[1], { logits: true }), 1, 'logits');
  m.delete();
});

test('onProgress reports bytes read of the file, rising to the total; an aborted signal stops the load', async () => {
  const files = fixtureFiles();
  const total = files['model.safetensors'].length;
  const seen = [];
  const m = await a.openModel(files, { onProgress: (p) => seen.push(p) });
  m.delete();
  assert.ok(seen.length >= 2);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i].loaded >= seen[i - 1].loaded);
  assert.deepEqual(seen.at(-1), { loaded: total, total });
  assert.ok(seen.every((p) => p.total === total));

  const controller = new AbortController();
  controller.abort();
  await assert.rejects(a.openModel(fixtureFiles(), { signal: controller.signal }), { name: 'AbortError' });
  const again = await a.openModel(fixtureFiles());
  checkRun(again.runIds(sequences[0], { logits: true }), 0, 'logits');
  again.delete();
});

test('delete() frees the model; later calls are a TypeError naming the method', async () => {
  const m = await a.openModel(fixtureFiles());
  m.delete();
  m.delete();
  assert.equal(m.deleted, true);
  assert.throws(() => m.runIds([1]), { name: 'TypeError', message: 'Gpt2Model.runIds: this Gpt2Model was deleted' });
  assert.throws(() => m.run('a'), { name: 'TypeError', message: 'Gpt2Model.run: this Gpt2Model was deleted' });
});
