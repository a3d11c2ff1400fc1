// Gpt2Model.explainHead: one head's queries, keys and values, read again from
// the model file on demand, against the float64 NumPy forward pass of
// tests/fixtures/gpt2/make.py (expected.txt: seq1.L1H1.q/k/v, layer 1, head 1 of
// the 5-token sequence " thecat ab", and seq1.L1.x, the ln_1 rows they come
// from). The text is the sequence decoded, so the tokenizer gives the
// fixture's ids back (checked).
//
// Tolerances, |got - want| / max(1, |want|): q, k, v 2e-5 (float32 forward
// against float64; measured about 1e-6); x 1e-5; x wq + bq recomputed in
// float64 against q (k, v alike) 1e-5; softmax(q kᵀ/√d_k) against the
// head's own attention map from run() 1e-6 (the same float32 numbers).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { fixtureFiles } from './gpt2-files.js';
import { assertClose, loadFixture } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('gpt2/expected.txt');
const ids = Array.from(ref.get('seq1.ids').data);

/** softmax(q kᵀ / √d_k) with the causal mask, in float64. */
function causalWeights(q, k) {
  const out = new Float64Array(q.rows * q.rows);
  for (let i = 0; i < q.rows; i++) {
    const s = Array.from({ length: i + 1 }, (_, j) => {
      let dot = 0;
      for (let c = 0; c < q.cols; c++) dot += q.get(i, c) * k.get(j, c);
      return dot / Math.sqrt(q.cols);
    });
    const max = Math.max(...s);
    const e = s.map((x) => Math.exp(x - max));
    const sum = e.reduce((x, y) => x + y, 0);
    e.forEach((x, j) => (out[i * q.rows + j] = x / sum));
  }
  return out;
}

for (const [how, file, wrap] of [
  ['F32, typed array', 'model.safetensors', (b) => b],
  ['F16 with prefixed names, Blob', 'model-f16-prefix-head.safetensors', (b) => new Blob([b])],
  ['BF16, ArrayBuffer', 'model-bf16.safetensors', (b) => b.buffer],
]) {
  test(`explainHead (${how}): q, k, v of layer 1, head 1 match NumPy; their softmax is the head's map`, async () => {
    const files = fixtureFiles(file);
    files['model.safetensors'] = wrap(files['model.safetensors']);
    const model = await a.openModel(files);
    const text = model.tokenizer.decode(ids);
    const e = await model.explainHead(text, { layer: 1, head: 1 });
    assert.deepEqual(e.ids, ids);
    const diffs = ['q', 'k', 'v'].map((name) => {
      assert.equal(e[name].rows, ids.length);
      assert.equal(e[name].cols, 4);
      assert.ok(e[name].data instanceof Float32Array);
      return assertClose(e[name].data, ref.get(`seq1.L1H1.${name}`).data, 2e-5, { label: name });
    });
    console.log(`# ${how}: q, k, v max difference ${Math.max(...diffs).toExponential(1)}`);
    // The rows the head projects (NumPy's ln_1 output) and its weights: q = x wq + bq, k, v alike.
    assert.deepEqual([e.x.rows, e.x.cols], [ids.length, 8]);
    assert.ok(e.x.data instanceof Float32Array);
    const xDiff = assertClose(e.x.data, ref.get('seq1.L1.x').data, 1e-5, { label: 'x' });
    let worst = 0;
    for (const p of ['q', 'k', 'v']) {
      const [W, b] = [e[`w${p}`], e[`b${p}`]];
      assert.deepEqual([W.rows, W.cols, b.rows, b.cols], [8, 4, 1, 4]);
      const again = new Float64Array(ids.length * 4);
      for (let i = 0; i < ids.length; i++)
        for (let c = 0; c < 4; c++) {
          let sum = b.get(0, c);
          for (let j = 0; j < 8; j++) sum += e.x.get(i, j) * W.get(j, c);
          again[i * 4 + c] = sum;
        }
      worst = Math.max(worst, assertClose(again, e[p].data, 1e-5, { label: `x w${p} + b${p}` }));
    }
    console.log(`# ${how}: x vs NumPy ${xDiff.toExponential(1)}, x w + b vs q, k, v ${worst.toExponential(1)}`);
    const map = model.run(text).attentions[1][1];
    assertClose(causalWeights(e.q, e.k), map.data, 1e-6, { label: 'softmax(q kᵀ/√d_k)' });
    model.delete();
  });
}

test('explainHead: bad arguments are TypeError/RangeError naming them; the model keeps working', async () => {
  const model = await a.openModel(fixtureFiles());
  const text = model.tokenizer.decode(ids);
  await assert.rejects(model.explainHead(text, { layer: 2, head: 0 }), {
    name: 'RangeError',
    message: /Gpt2Model\.explainHead: options\.layer/,
  });
  await assert.rejects(model.explainHead(text, { layer: 0, head: -1 }), {
    name: 'RangeError',
    message: /options\.head/,
  });
  await assert.rejects(model.explainHead(text, { layer: 0, head: 0, bogus: 1 }), { name: 'TypeError' });
  await assert.rejects(model.explainHead(42, { layer: 0, head: 0 }), {
    name: 'TypeError',
    message: /text must be a string/,
  });
  await assert.rejects(model.explainHead(text.repeat(3), { layer: 0, head: 0 }), {
    name: 'RangeError',
    message: /n_positions = 12/,
  });
  const e = await model.explainHead(text, { layer: 0, head: 1 });
  assert.equal(e.q.rows, ids.length);
  const pending = model.explainHead(text, { layer: 0, head: 0 });
  model.delete(); // while the weights are read
  await assert.rejects(pending, { name: 'TypeError', message: /explainHead/ });
});
