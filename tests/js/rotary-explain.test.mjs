// The rotary families' explainHead down to what q, k, v are computed from
// (Llama, Qwen2, Qwen3, Gemma 3; tests/fixtures/<family>/expected.txt, written by
// llama/make.py): x (the layer's input after input_layernorm), the weights read
// again from the file (wq, wk, wv: D x head_dim, q = x wq + bq; Qwen2's biases;
// the QK-norm's weights) and qPre, kPre before the QK-norm, against the float64
// NumPy forward pass; then the arithmetic the chapter shows, redone here in
// float64 from the returned numbers: x wq + bq is qPre (q without QK-norm),
// rmsNorm(qPre) · gain is q. A byte of q_proj changed after openModel is a
// RangeError naming the tensor (the re-read is checked against the open).
//
// Tolerances, |got - want| / max(1, |want|): x, qPre, kPre against NumPy 1e-5
// (float32 through one layer, as the family test's head inputs); x wq + bq and
// the norm redone in float64 against the core's float32 results 1e-5.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../dist/lib/index.js';
import { assertClose, loadFixture } from './fixtures.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const FAMILIES = ['llama', 'qwen2', 'qwen3', 'gemma3'];

/** The fixture folder's Hugging Face files (model-* only in a sharded one: elsewhere they are other dtypes). */
function folder(family) {
  const sharded = family.endsWith('-sharded');
  const names = readdirSync(join(ROOT, family)).filter(
    (n) => !['make.py', 'expected.txt', '__pycache__'].includes(n) && (sharded || !n.startsWith('model-')),
  );
  return Object.fromEntries(names.map((n) => [n, new Uint8Array(readFileSync(join(ROOT, family, n)))]));
}

/** x w + b (T x cols) in float64; b may be absent. */
function project(x, w, b) {
  const out = new Float64Array(x.rows * w.cols);
  for (let i = 0; i < x.rows; i++)
    for (let c = 0; c < w.cols; c++) {
      let sum = b ? b.get(0, c) : 0;
      for (let j = 0; j < x.cols; j++) sum += x.get(i, j) * w.get(j, c);
      out[i * w.cols + c] = sum;
    }
  return out;
}

/** Each row / its root mean square (ε under the root), times gain (1 + weight with offset), float64. */
function rmsNorm(m, weight, epsilon, offset) {
  const out = new Float64Array(m.rows * m.cols);
  for (let i = 0; i < m.rows; i++) {
    let sq = 0;
    for (let c = 0; c < m.cols; c++) sq += m.get(i, c) ** 2;
    const rms = Math.sqrt(sq / m.cols + epsilon);
    for (let c = 0; c < m.cols; c++) out[i * m.cols + c] = (m.get(i, c) / rms) * ((offset ? 1 : 0) + weight.get(0, c));
  }
  return out;
}

const a = await loadAttention();

for (const family of FAMILIES) {
  test(`${family}: explainHead gives x, the head's weights and q, k, v as computed from them`, async () => {
    const ref = loadFixture(`${family}/expected.txt`);
    const ids = Array.from(ref.get('seq1.ids').data);
    const m = await a.openModel(folder(family));
    try {
      const c = m.config;
      const [D, hd] = [c.hidden_size, c.head_dim];
      const e = await m.explainHead(m.tokenizer.decode(ids), { layer: 1, head: 1 });
      assert.deepEqual(e.ids, ids);
      const T = ids.length;
      assert.deepEqual([e.x.rows, e.x.cols], [T, D]);
      assert.ok(e.x.data instanceof Float32Array);
      const xDiff = assertClose(e.x.data, ref.get('seq1.L1H1.x').data, 1e-5, { label: `${family} x` });
      for (const p of ['wq', 'wk', 'wv']) assert.deepEqual([e[p].rows, e[p].cols], [D, hd], p);
      const biased = family === 'qwen2';
      const normed = family === 'qwen3' || family === 'gemma3';
      for (const p of ['bq', 'bk', 'bv']) assert.equal(p in e, biased, `${family} ${p}`);
      for (const p of ['qPre', 'kPre', 'qNormWeight', 'kNormWeight', 'normOffset', 'epsilon'])
        assert.equal(p in e, normed, `${family} ${p}`);
      // wq is the head's rows of q_proj, transposed (wk, wv: its kv head's).
      const g = e.kvHead;
      const stored = (name) => ref.get(`w.layers.1.self_attn.${name}.weight`);
      for (const [p, name, row0] of [
        ['wq', 'q_proj', hd],
        ['wk', 'k_proj', g * hd],
        ['wv', 'v_proj', g * hd],
      ])
        for (let j = 0; j < hd; j++)
          for (let i = 0; i < D; i++) assert.equal(e[p].get(i, j), stored(name).data[(row0 + j) * D + i], p);
      // x wq + bq is the projection before the QK-norm (q itself without one); v alike.
      const qPre = normed ? e.qPre : e.q;
      const kPre = normed ? e.kPre : e.k;
      let worst = 0;
      for (const [got, w, b] of [
        [qPre, e.wq, e.bq],
        [kPre, e.wk, e.bk],
        [e.v, e.wv, e.bv],
      ])
        worst = Math.max(worst, assertClose(project(e.x, w, b), got.data, 1e-5, { label: `${family} x w + b` }));
      if (normed) {
        assertClose(e.qPre.data, ref.get('seq1.L1H1.qPre').data, 1e-5, { label: `${family} qPre` });
        assertClose(e.kPre.data, ref.get('seq1.L1H1.kPre').data, 1e-5, { label: `${family} kPre` });
        assert.equal(e.normOffset, family === 'gemma3');
        assert.equal(e.epsilon, c.rms_norm_eps);
        for (const [pre, weight, out] of [
          [e.qPre, e.qNormWeight, e.q],
          [e.kPre, e.kNormWeight, e.k],
        ])
          worst = Math.max(
            worst,
            assertClose(rmsNorm(pre, weight, e.epsilon, e.normOffset), out.data, 1e-5, { label: `${family} norm` }),
          );
      }
      console.log(`# ${family}: x vs NumPy ${xDiff.toExponential(1)}; redone arithmetic ${worst.toExponential(1)}`);
    } finally {
      m.delete();
    }
  });
}

test('a sharded checkpoint: the weights re-read from both shards give the same answer', async () => {
  const one = await a.openModel(folder('qwen2'));
  const two = await a.openModel(folder('qwen2-sharded'));
  try {
    const [e1, e2] = await Promise.all([one, two].map((m) => m.explainHead('the cat sat', { layer: 1, head: 2 })));
    for (const p of ['x', 'wq', 'wk', 'wv', 'bq', 'bk', 'bv', 'q', 'k', 'v'])
      assert.deepEqual(Array.from(e2[p].data), Array.from(e1[p].data), p);
  } finally {
    one.delete();
    two.delete();
  }
});

test('a q_proj byte changed after openModel: explainHead is a RangeError naming the tensor', async () => {
  const files = folder('llama');
  const bytes = files['model.safetensors'];
  const headerLength = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  const name = 'model.layers.1.self_attn.q_proj.weight';
  const m = await a.openModel(files);
  try {
    const text = 'the cat';
    await m.explainHead(text, { layer: 1, head: 0 });
    bytes[8 + headerLength + header[name].data_offsets[0] + 2] ^= 0x40;
    await assert.rejects(m.explainHead(text, { layer: 1, head: 0 }), {
      name: 'RangeError',
      message:
        /^LlamaModel\.explainHead: model\.safetensors changed since openModel: tensor (model\.)?layers\.1\.self_attn\.q_proj\.weight /,
    });
    m.run(text); // the model itself is untouched
    await m.explainHead(text, { layer: 0, head: 0 }); // layer 0's bytes are the same
  } finally {
    m.delete();
  }
});

test('explainHead: bad options are TypeError/RangeError naming them; the model keeps working', async () => {
  const m = await a.openModel(folder('qwen3'));
  await assert.rejects(m.explainHead('the cat', { layer: 2, head: 0 }), {
    name: 'RangeError',
    message: /^Qwen3Model\.explainHead: options\.layer/,
  });
  await assert.rejects(m.explainHead('the cat', { layer: 0, head: 0, pair: 'x' }), { name: 'TypeError' });
  assert.equal((await m.explainHead('the cat', { layer: 0, head: 3 })).kvHead, 0);
  const pending = m.explainHead('the cat', { layer: 0, head: 0 });
  m.delete(); // while the weights are read
  await assert.rejects(pending, { name: 'TypeError', message: /explainHead/ });
});
