// The KV-cache chapter's model (web/src/site/chapters/kv-cache/model.js and
// configs.js): the decode loop against NumPy's full causal attention
// (tests/fixtures/kv_cache.txt, made by make_kv_cache.py), the cached row against
// the recomputed one bit for bit, grouped-query heads against NumPy and against
// the API's multiHeadAttention with kvHeads, the multiply-add counts against a
// counting loop, the cache bytes of the real configs, and the permalink bounds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { bytesPerToken, CONFIGS, configShape } from '../../web/src/site/chapters/kv-cache/configs.js';
import {
  costs,
  decode,
  drawInputs,
  kvCacheStages,
  SCHEMA,
  totals,
  withCache,
  withoutCache,
} from '../../web/src/site/chapters/kv-cache/model.js';
import { Trace } from '../../web/src/site/explain/trace.js';
import { bitsOf, ulpsApart } from '../../web/src/site/float-bits.js';
import { readState } from '../../web/src/site/url-state.js';
import { assertClose, loadFixture } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('kv_cache.txt');
const CASES = [...ref.keys()].filter((k) => k.endsWith('.params')).map((k) => k.split('.')[0]);

for (const name of CASES) {
  const [seed, prompt, steps, heads, kvHeads] = ref.get(`${name}.params`).data;
  test(`${name} (seed ${seed}, ${prompt} + ${steps} tokens, ${heads} heads / ${kvHeads} K/V): matches NumPy; the cached row is the recomputed row, bit for bit`, () => {
    const trace = new Trace();
    const run = kvCacheStages(a, { seed, prompt, steps, heads, kvHeads }, trace);
    assert.equal(run.firstFailure(), null);
    const r = run.r;
    const get = (key) => ref.get(`${name}.${key}`).data;
    assert.deepEqual(Array.from(r.X.data), Array.from(get('X')), 'the draws are NumPy’s, exactly');
    // Products of 8 terms: 1e-13 absolute-or-relative; softmax and its mix: 1e-12.
    assertClose(r.cacheK.data, get('K'), 1e-13, { label: 'K cache' });
    assertClose(r.cacheV.data, get('V'), 1e-13, { label: 'V cache' });
    assertClose(r.fullWeights.data, get('fullWeights'), 1e-12, { label: 'full weights' });
    assertClose(r.fullOut.data, get('fullOut'), 1e-12, { label: 'full output' });
    const total = prompt + steps;
    assertClose(r.stepOut.data, get('fullOut').slice((total - 1) * 4), 1e-12, { label: 'cached row against NumPy' });
    assert.ok(r.same.identical, `cached and recomputed rows differ by ${r.same.worst} ulps`);
    for (let k = 0; k < 4; k++) assert.ok(Object.is(r.stepOut.get(0, k), r.fullOut.get(total - 1, k)));
    r.gqa.weights.forEach((w, h) =>
      assertClose(w.data, get(`head${h + 1}.weights`), 1e-12, { label: `head ${h + 1} weights` }),
    );
    assertClose(r.gqa.output.data, get('gqaOut'), 1e-12, { label: 'grouped-query output' });
    assertClose(r.gqa.kvK.data, get('kvK'), 1e-13, { label: 'grouped K cache' });
    assert.deepEqual(r.loop.rowsComputed, [prompt, ...Array(steps).fill(1)]);
    assert.deepEqual(
      r.loop.steps.map((s) => s.cacheRows),
      Array.from({ length: steps }, (_, i) => prompt + i + 1),
    );
  });
}

test('grouped-query heads equal the API’s multiHeadAttention with kvHeads (Wo = identity), to 1e-13', () => {
  for (const kvHeads of [1, 2, 4]) {
    const { r } = kvCacheStages(a, { seed: 11, prompt: 3, steps: 2, heads: 4, kvHeads }, new Trace());
    const identity = Array.from({ length: 8 }, (_, i) => Array.from({ length: 8 }, (_, j) => (i === j ? 1 : 0)));
    const inputs = drawInputs(a, 11, 5);
    const Wk = inputs.WkG.toArray().map((row) => row.slice(0, 2 * kvHeads));
    const Wv = inputs.WvG.toArray().map((row) => row.slice(0, 2 * kvHeads));
    const mha = a.multiHeadAttention(r.xNew, r.X, r.X, { heads: 4, kvHeads, Wq: inputs.WqG, Wk, Wv, Wo: identity });
    assertClose(r.gqa.output.data, mha.output.data, 1e-13, { label: `kvHeads ${kvHeads}` });
    r.gqa.weights.forEach((w, h) => assertClose(w.data, mha.weights[h].data, 1e-13, { label: `head ${h + 1}` }));
  }
});

test('decode appends one row per token and never changes a cached row', () => {
  const inputs = drawInputs(a, 4, 7);
  const short = decode(a, new a.Matrix(5, 8, inputs.X.data.slice(0, 40)), 3, inputs.WQ, inputs.WK, inputs.WV);
  const long = decode(a, inputs.X, 3, inputs.WQ, inputs.WK, inputs.WV);
  assert.deepEqual(Array.from(long.cacheK.data.slice(0, 20)), Array.from(short.cacheK.data));
  assert.equal(long.cacheK.rows, 7);
});

test('multiply-adds per step: the formulas equal a loop that counts every product', () => {
  const d = 8;
  const dk = 4;
  const counted = (t, cached) => {
    let n = 0;
    const tokens = cached ? 1 : t; // tokens projected
    for (let i = 0; i < tokens; i++) for (let p = 0; p < 3; p++) for (let x = 0; x < d * dk; x++) n++;
    const queries = cached ? [t - 1] : Array.from({ length: t }, (_, i) => i);
    for (const i of queries) for (let j = 0; j <= i; j++) for (let x = 0; x < 2 * dk; x++) n++; // score + mix
    return n;
  };
  for (const t of [1, 2, 5, 9, 40]) {
    assert.equal(withCache(t), counted(t, true), `cached ${t}`);
    assert.equal(withoutCache(t), counted(t, false), `recomputed ${t}`);
  }
  for (const n of [1, 3, 10, 57]) {
    let [c, w] = [0n, 0n];
    for (let t = 1; t <= n; t++) [c, w] = [c + BigInt(withCache(t)), w + BigInt(withoutCache(t))];
    assert.deepEqual(totals(n), { cached: c, recomputed: w });
  }
  assert.deepEqual(
    costs(4, 7).map((c) => c.t),
    [5, 6, 7],
  );
});

test('cache bytes per token of the real configs (2 · layers · K/V heads · head_dim · bytes, worked by hand)', () => {
  const byId = Object.fromEntries(CONFIGS.map((c) => [c.id, bytesPerToken(c)]));
  assert.deepEqual(byId, {
    gpt2: 73728, // 2·12·12·64·4
    'smollm2-135m': 23040, // 2·30·3·64·2
    'qwen3-0.6b': 114688, // 2·28·8·128·2
    'gemma-3-270m': 18432, // 2·18·1·256·2
    'llama-3.2-1b': 32768, // 2·16·8·64·2
  });
  for (const c of CONFIGS) assert.equal(c.heads % c.kvHeads, 0, `${c.id}: K/V heads divide the query heads`);
  assert.deepEqual(configShape({ n_layer: 12, n_head: 12, n_embd: 768 }), {
    layers: 12,
    heads: 12,
    kvHeads: 12,
    headDim: 64,
    dtype: 'float32',
    bytes: 4,
  });
  const qwen = {
    num_hidden_layers: 28,
    num_attention_heads: 16,
    num_key_value_heads: 8,
    hidden_size: 1024,
    head_dim: 128,
  };
  assert.equal(bytesPerToken(configShape(qwen)), 2 * 28 * 8 * 128 * 4);
  assert.equal(
    configShape({ num_hidden_layers: 2, num_attention_heads: 3, hidden_size: 10 }),
    null,
    'no whole head_dim',
  );
  assert.equal(configShape(null), null);
});

test('every cached number explains itself with its arithmetic', () => {
  const trace = new Trace();
  const { r } = kvCacheStages(a, { seed: 3, prompt: 4, steps: 3, heads: 4, kvHeads: 2 }, trace);
  const k = trace.explain('cacheK', 2, 1);
  assert.match(k.text, /^K\[3\]\[2\] = x3 \(t3\) · W_K\[:, 2\] = /);
  assert.ok(k.text.endsWith(`= ${r.cacheK.get(2, 1).toPrecision(4).replace('-', '−')}`), k.text);
  assert.deepEqual(
    k.sources.map((s) => s.tensor),
    ['tokens', 'WK'],
  );
  const w = trace.explain('stepWeights', 0, 3);
  assert.match(w.text, /^a\[1\]\[4\] = e\^/);
  assert.deepEqual(
    trace.explain('fullWeights', 1, 4).text,
    'A[2][5] (t2 → t5*) = 0: the mask cell M[2][5] is 0 (masked)',
  );
  assert.match(trace.explain('head3.weights', 0, 0).text, /over row 1 of s3\/√2/);
});

test('float bits: hex and ulps', () => {
  assert.equal(bitsOf(1), '3ff0000000000000');
  assert.equal(bitsOf(-2), 'c000000000000000');
  assert.equal(ulpsApart(1, 1 + 2 ** -52), 1);
  assert.equal(ulpsApart(1 + 2 ** -52, 1), 1);
  assert.equal(ulpsApart(-0, 0), 0);
  assert.equal(ulpsApart(-Number.MIN_VALUE, Number.MIN_VALUE), 2);
  assert.equal(ulpsApart(0.1, 0.1), 0);
});

test('permalinks: sizes are clamped, malformed values fall back', () => {
  const state = readState(SCHEMA, new URLSearchParams('n=99&s=-3&h=3&g=x&ctx=1e9&seed=abc'));
  assert.equal(state.prompt, 8);
  assert.equal(state.steps, 1);
  assert.equal(state.heads, 4);
  assert.equal(state.kvHeads, 2);
  assert.ok(state.context <= 131072);
  assert.equal(state.seed, 3);
});
