// BertModel.explainHead: one head's x (the layer's input), weights (read again
// from the file: wq, wk, wv hidden_size x d_k, so q = x wq + bq) and q, k, v on
// a sentence pair, against the float64 NumPy forward pass of tests/fixtures/bert
// (expected.txt: seq1.L1H1.x, q, k, v, written by bert/make.py); then the
// chapter's arithmetic redone in float64 from the returned numbers: x wq + bq is
// q, and softmax(q kᵀ · scale) over every key (no mask) is the head's map from
// run(). Tolerances, |got - want| / max(1, |want|): against NumPy 1e-5 (float32
// through a post-LN layer; BERT's model test uses the same for its maps); the
// redone projection 1e-5; the redone map 1e-5 (float32 q, k against the core's
// float32 softmax).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { bertFiles } from './bert-files.js';
import { assertClose, loadFixture } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('bert/expected.txt');
const [TEXT, PAIR] = ['How old are you?', 'I am 6 years'];

test('explainHead on a pair: x, q, k, v of layer 1, head 1 match NumPy; the map is their softmax', async () => {
  const m = await a.openModel(bertFiles());
  try {
    const e = await m.explainHead(TEXT, { layer: 1, head: 1, pair: PAIR });
    assert.deepEqual(e.ids, Array.from(ref.get('seq1.ids').data));
    assert.deepEqual(e.typeIds, Array.from(ref.get('seq1.types').data));
    const T = e.ids.length;
    assert.deepEqual([e.x.rows, e.x.cols, e.q.rows, e.q.cols], [T, 8, T, 4]);
    let worst = 0;
    for (const p of ['x', 'q', 'k', 'v'])
      worst = Math.max(worst, assertClose(e[p].data, ref.get(`seq1.L1H1.${p}`).data, 1e-5, { label: p }));
    // wq is the head's rows of the query weight (out x in), transposed.
    const W = ref.get('w.encoder.layer.1.attention.self.query.weight').data;
    for (let j = 0; j < 4; j++) for (let i = 0; i < 8; i++) assert.equal(e.wq.get(i, j), W[(4 + j) * 8 + i]);
    let redone = 0;
    for (const p of ['q', 'k', 'v']) {
      const [w, b] = [e[`w${p}`], e[`b${p}`]];
      assert.deepEqual([w.rows, w.cols, b.rows, b.cols], [8, 4, 1, 4]);
      const again = new Float64Array(T * 4);
      for (let i = 0; i < T; i++)
        for (let c = 0; c < 4; c++) {
          let sum = b.get(0, c);
          for (let j = 0; j < 8; j++) sum += e.x.get(i, j) * w.get(j, c);
          again[i * 4 + c] = sum;
        }
      redone = Math.max(redone, assertClose(again, e[p].data, 1e-5, { label: `x w${p} + b${p}` }));
    }
    assert.equal(e.scale, 0.5);
    const map = m.run(TEXT, { pair: PAIR }).attentions[1][1];
    const weights = new Float64Array(T * T);
    for (let i = 0; i < T; i++) {
      const s = Array.from({ length: T }, (_, j) => {
        let dot = 0;
        for (let c = 0; c < 4; c++) dot += e.q.get(i, c) * e.k.get(j, c);
        return dot * e.scale;
      });
      const max = Math.max(...s);
      const x = s.map((v) => Math.exp(v - max));
      const sum = x.reduce((p, q) => p + q, 0);
      x.forEach((v, j) => (weights[i * T + j] = v / sum));
    }
    const mapDiff = assertClose(weights, map.data, 1e-5, { label: 'softmax(q kᵀ · scale)' });
    console.log(
      `# bert: vs NumPy ${worst.toExponential(1)}, x w + b ${redone.toExponential(1)}, map ${mapDiff.toExponential(1)}`,
    );
  } finally {
    m.delete();
  }
});

test('BertModel.explainHead: bad arguments are TypeError/RangeError naming them; the model keeps working', async () => {
  const m = await a.openModel(bertFiles());
  await assert.rejects(m.explainHead('the cat', { layer: 2, head: 0 }), {
    name: 'RangeError',
    message: /^BertModel\.explainHead: options\.layer/,
  });
  await assert.rejects(m.explainHead('the cat', { layer: 0, head: 0, pair: 3 }), {
    name: 'TypeError',
    message: /^BertModel\.explainHead: options\.pair must be a string/,
  });
  await assert.rejects(m.explainHead(7, { layer: 0, head: 0 }), { name: 'TypeError', message: /text must be/ });
  await assert.rejects(m.explainHead('the cat sat on the mat '.repeat(4), { layer: 0, head: 0 }), {
    name: 'RangeError',
    message: /max_position_embeddings = 12/,
  });
  const e = await m.explainHead('the cat', { layer: 0, head: 1 });
  assert.deepEqual(e.tokens, ['[CLS]', 'the', 'cat', '[SEP]']);
  const pending = m.explainHead('the cat', { layer: 0, head: 0 });
  m.delete(); // while the weights are read
  await assert.rejects(pending, { name: 'TypeError', message: /explainHead/ });
});
