// The flash chapter's model (web/src/site/chapters/flash/model.js): scores, the
// running max m and sum ℓ after each block and the output against NumPy
// (tests/fixtures/flash.txt, made by make_flash.py, which sums each block prefix
// directly rather than by the running update), the online output against the full
// softmax attention, one query's state block by block, the stories of m and ℓ
// (checked against their update rule), the numbers held, and the permalink bounds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import {
  afterEachBlock,
  blockCount,
  drawInputs,
  flashStages,
  heldFull,
  heldOnline,
  SCHEMA,
} from '../../web/src/site/chapters/flash/model.js';
import { Trace } from '../../web/src/site/explain/trace.js';
import { readState } from '../../web/src/site/url-state.js';
import { assertClose, loadFixture } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('flash.txt');
const CASES = [...ref.keys()].filter((k) => k.endsWith('.params')).map((k) => k.split('.')[0]);

for (const name of CASES) {
  const [seed, length, blockSize, causalFlag] = ref.get(`${name}.params`).data;
  const causal = causalFlag === 1;
  test(`${name} (seed ${seed}, ${length} tokens, blocks of ${blockSize}${causal ? ', causal' : ''}): m, ℓ and the output match NumPy`, () => {
    const run = flashStages(a, { seed, length, blockSize, causal, query: 1, memoryLength: 64 }, new Trace());
    assert.equal(run.firstFailure(), null);
    const { r } = run;
    const get = (key) => ref.get(`${name}.${key}`).data;
    // Four-term dot products: 1e-14; maxima of the same scores: 1e-14; sums of ≤ 16 exponentials: 1e-13.
    assertClose(r.scaled.data, get('scaled'), 1e-14, { label: 'scaled scores' });
    assert.equal(r.max.cols, blockCount(length, blockSize));
    assertClose(r.max.data, get('max'), 1e-14, { label: 'running max' });
    assertClose(r.sum.data, get('sum'), 1e-13, { label: 'running sum' });
    assertClose(r.output.data, get('output'), 1e-13, { label: 'online output' });
    // The full softmax attention: the same numbers to a few ulps (rounding in another order).
    assertClose(r.output.data, r.fullOutput.data, 1e-14, { label: 'online against full' });
    assert.ok(r.same.worst < 64, `online and full are ${r.same.worst} ulps apart`);
    assert.equal(
      r.same.identical,
      r.same.entries.every((e) => Object.is(e.a, e.b)),
    );
  });
}

test('one query block by block: the state of each prefix is the column of the whole run; the last O/ℓ is its output row', () => {
  for (const causal of [false, true]) {
    for (const query of [0, 3, 6]) {
      const inputs = drawInputs(a, 5, 8);
      const whole = a.onlineSoftmaxAttention(inputs.Q, inputs.K, inputs.V, { blockSize: 3, causal });
      const rows = afterEachBlock(a, inputs, query, 3, causal);
      assert.equal(rows.length, 3);
      rows.forEach((w, b) => {
        assert.ok(Object.is(w.m, whole.max.get(query, b)), `m after block ${b + 1}`);
        assertClose([w.l], [whole.sum.get(query, b)], 1e-15, { label: `ℓ after block ${b + 1}` });
      });
      assertClose(rows.at(-1).output, whole.output.row(query), 1e-15, { label: 'last O/ℓ' });
      // O/ℓ after block 1 is attention over the keys read so far (NumPy-free: the API's plain attention).
      const seen = rows[0].seen;
      const prefix = (m) => new a.Matrix(seen, 4, m.data.slice(0, seen * 4));
      const q = new a.Matrix(1, 4, inputs.Q.data.slice(query * 4, query * 4 + 4));
      const plain = a.scaledDotProductAttention(q, prefix(inputs.K), prefix(inputs.V));
      assertClose(rows[0].output, plain.output.data, 1e-14, { label: 'O/ℓ after block 1' });
    }
  }
});

test('the stories of m and ℓ: their numbers follow the running update to 1e-13', () => {
  for (const causal of [false, true]) {
    const trace = new Trace();
    const { r } = flashStages(a, { seed: 5, length: 8, blockSize: 3, causal, query: 1, memoryLength: 64 }, trace);
    for (let i = 0; i < 8; i++) {
      for (let b = 0; b < r.blocks; b++) {
        const m = trace.explain('max', i, b);
        const l = trace.explain('sum', i, b);
        const keys = Array.from({ length: 3 }, (_, k) => b * 3 + k).filter((j) => j < 8 && (!causal || j <= i));
        assert.deepEqual(
          m.sources,
          [{ tensor: 'scaled', cells: keys.map((j) => [i, j]) }],
          `m[${i + 1}][${b + 1}] sources`,
        );
        // ℓ_b = ℓ_{b−1} e^(m_{b−1} − m_b) + Σ_{j∈b} e^(s_j − m_b), from the figures' own numbers.
        const mb = r.max.get(i, b);
        const carried =
          b === 0 || r.sum.get(i, b - 1) === 0 ? 0 : r.sum.get(i, b - 1) * Math.exp(r.max.get(i, b - 1) - mb);
        const fresh = keys.reduce((s, j) => s + Math.exp(r.scaled.get(i, j) - mb), 0);
        if (keys.length) assertClose([carried + fresh], [r.sum.get(i, b)], 1e-13, { label: `ℓ[${i + 1}][${b + 1}]` });
        assert.ok(l.text.startsWith(`ℓ[${i + 1}][${b + 1}] = `), l.text);
        assert.ok(m.text.startsWith(`m[${i + 1}][${b + 1}] = `), m.text);
      }
    }
    const story = trace.explain('max', 3, 1).text;
    assert.equal(
      story,
      causal
        ? `m[4][2] = max(m[4][1], S̃[4][4]) = max(${fmt(r.max.get(3, 0))}, ${fmt(r.scaled.get(3, 3))}) = ${fmt(r.max.get(3, 1))}`
        : `m[4][2] = max(m[4][1], S̃[4][4], S̃[4][5], S̃[4][6]) = max(${[r.max.get(3, 0), r.scaled.get(3, 3), r.scaled.get(3, 4), r.scaled.get(3, 5)].map(fmt).join(', ')}) = ${fmt(r.max.get(3, 1))}`,
    );
  }
});

/** A number as the stories print it (4 significant digits, a true minus sign). */
function fmt(x) {
  return Number(x.toPrecision(4)).toString().replace('-', '−');
}

test('numbers held: the full way’s weights are the n × n matrix the API returns; the online state is a few per query', () => {
  for (const n of [2, 8, 16]) {
    const inputs = drawInputs(a, 1, n);
    const full = a.scaledDotProductAttention(inputs.Q, inputs.K, inputs.V);
    assert.equal(heldFull(n), full.weights.data.length + full.output.data.length);
  }
  assert.equal(heldOnline(4096, 3), 4096 * (4 + 2 + 3));
  assert.equal(heldFull(4096), 4096 * 4096 + 4096 * 4);
  assert.ok(heldFull(131072) / heldOnline(131072, 16) > 5000);
});

test('permalinks: sizes are clamped, malformed values fall back', () => {
  const state = readState(SCHEMA, new URLSearchParams('n=999&B=0&c=maybe&q=-4&N=1e12&seed=x'));
  assert.equal(state.length, 16);
  assert.equal(state.blockSize, 1);
  assert.equal(state.causal, false);
  assert.equal(state.query, 1);
  assert.ok(state.memoryLength <= 131072);
  assert.equal(state.seed, 5);
  // A query past the tokens reads the last one.
  const { r } = flashStages(a, { ...state, length: 4, query: 16 }, new Trace());
  assert.equal(r.walk.query, 3);
});
