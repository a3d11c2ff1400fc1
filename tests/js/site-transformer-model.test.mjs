// The Transformer chapter's model (web/src/site/chapters/transformer/model.js):
// its inputs equal NumPy's RandomState draws bit for bit
// (tests/fixtures/make_transformer_chapter.py), and its steps agree with the API.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import * as M from '../../web/src/site/chapters/transformer/model.js';
import { readState } from '../../web/src/site/url-state.js';
import { assertClose, loadFixture } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('transformer_chapter.txt');
const exact = (got, name) =>
  assert.deepEqual(Array.from(got.data), Array.from(ref.get(name).data), `${name} differs from NumPy`);

test('default state: X and Wq, Wk, Wv, Wo equal NumPy bit for bit; scaled scores to 1e-13', () => {
  const state = readState(M.SCHEMA, new URLSearchParams(''));
  const tokens = M.tokensOf(state);
  assert.deepEqual(tokens, ['the', 'cat', 'sat', 'on', 'the', 'mat']);
  const inputs = M.drawInputs(a, tokens, state.dModel, state.seed);
  assert.deepEqual(inputs.ids, [0, 1, 2, 3, 0, 4]);
  for (const name of ['X', 'Wq', 'Wk', 'Wv', 'Wo']) exact(inputs[name], `default.${name}`);
  const p = M.projections(a, inputs);
  assertClose(p.scaled.data, ref.get('default.scaled').data, 1e-13, { label: 'scaled scores' });
  assert.match(M.numpyLines(inputs, state.seed), /rs = np\.random\.RandomState\(1\)\n.*\nE = rs\.randn\(5, 8\)/);
});

test('scaled scores divided in JS equal attentionScores(Q, K, { scaled: true }) bit for bit', () => {
  for (const [n, d, seed] of [
    [6, 8, 1],
    [17, 3, 2],
    [128, 64, 1000],
  ]) {
    const p = M.projections(a, M.drawInputs(a, M.tokensOf({ tokens: 'x', length: n }), d, seed));
    const ref = a.attentionScores(p.Q, p.K, { scaled: true });
    assert.deepEqual(Array.from(p.scaled.data), Array.from(ref.data), `n = ${n}, d = ${d}`);
    assert.deepEqual(Array.from(p.raw.data), Array.from(a.attentionScores(p.Q, p.K).data));
  }
});

test('vocabulary, columns and concatColumns: first-seen ids, NumPy slices and np.concatenate', () => {
  assert.deepEqual(M.vocabulary(['b', 'a', 'b', 'c', 'a']), { vocab: ['b', 'a', 'c'], ids: [0, 1, 0, 2, 1] });
  const m = new a.Matrix(
    3,
    4,
    Float64Array.from({ length: 12 }, (_, i) => i),
  );
  const left = M.columns(a, m, 0, 1);
  const right = M.columns(a, m, 1, 3);
  assert.deepEqual(Array.from(left.data), [0, 4, 8]);
  assert.deepEqual(Array.from(right.data), [1, 2, 3, 5, 6, 7, 9, 10, 11]);
  assert.deepEqual(Array.from(M.concatColumns(a, [left, right]).data), Array.from(m.data));
});

test('fixed length 16, d_model 16, seed 7: equal to NumPy', () => {
  const tokens = M.tokensOf({ tokens: 'x', length: 16 });
  const inputs = M.drawInputs(a, tokens, 16, 7);
  for (const name of ['X', 'Wq', 'Wk', 'Wv', 'Wo']) exact(inputs[name], `length16.${name}`);
});

test('scaling demo: variances to 1e-12 relative (NumPy ddof=1); scaled near 1', () => {
  const rows = M.scalingDemo(a, 1);
  for (const dk of [1, 64]) {
    const row = rows.find((r) => r.dk === dk);
    assertClose([row.varRaw], ref.get(`demo.dk${dk}.var_raw`).data, 1e-12, { label: `var raw d_k=${dk}` });
    assertClose([row.varScaled], ref.get(`demo.dk${dk}.var_scaled`).data, 1e-12, { label: `var scaled d_k=${dk}` });
  }
  for (const r of rows) assert.ok(r.varScaled > 0.5 && r.varScaled < 1.6, `scaled variance ${r.varScaled} at ${r.dk}`);
  assert.ok(rows.at(-1).maxRaw > 0.9);
  // The figure's sources are NumPy's first query and first 8 keys of each d_k, exactly.
  for (const dk of [1, 64]) {
    const row = rows.find((r) => r.dk === dk);
    assert.deepEqual(Array.from(row.q1.data), Array.from(ref.get(`demo.dk${dk}.q`).data.slice(0, dk)));
    assert.deepEqual(Array.from(row.k8.data), Array.from(ref.get(`demo.dk${dk}.k`).data.slice(0, 8 * dk)));
  }
});

test('scaling demo: the step’s sentence states the table’s numbers and claims only what they show', () => {
  const rows = M.scalingDemo(a, 1);
  const at64 = M.scalingSummary(rows, 64);
  const r64 = rows.find((r) => r.dk === 64);
  assert.ok(
    at64.includes(`from ${r64.maxRaw.toFixed(4)} to ${r64.maxScaled.toFixed(4)}: the weights get flatter`),
    at64,
  );
  assert.ok(at64.includes(`goes from ${rows[0].varRaw.toFixed(2)} to ${rows.at(-1).varRaw.toFixed(2)}`), at64);
  assert.match(M.scalingSummary(rows, 1), /At d_k = 1, √d_k = 1: scaling changes nothing/);
  // Made-up rows where the scaled largest weight barely moves and nothing saturates: no such claims.
  const flat = rows.map((r) => ({ ...r, maxScaled: 0.3, maxRaw: 0.5, varRaw: 1 }));
  const text = M.scalingSummary(flat, 64);
  assert.doesNotMatch(text, /does not stay put|heading for 1|times larger/);
});

test('masks: padding, causal and flips; a fully masked row gives zeros', () => {
  const m = M.buildMask(3, { padding: 1, causal: true, flips: new Set(['0.0']) });
  assert.deepEqual(Array.from(m.data), [0, 0, 0, 1, 1, 0, 1, 1, 0]);
  assert.equal(M.emptyRows(m), 1);
  const inputs = M.drawInputs(a, ['a', 'b', 'c'], 4, 3);
  const p = M.projections(a, inputs);
  const r = a.scaledDotProductAttention(p.Q, p.K, p.V, { mask: m });
  assert.deepEqual(Array.from(r.weights.row(0)), [0, 0, 0]);
});

test('multi-head by hand equals multiHeadAttention to 1e-14', () => {
  const inputs = M.drawInputs(a, M.tokensOf({ tokens: 'x', length: 16 }), 16, 7);
  const p = M.projections(a, inputs);
  const r = M.multiHead(a, inputs, p, 4, M.buildMask(16, { padding: 2, causal: false, flips: new Set() }));
  assert.equal(r.perHead.length, 4);
  assert.ok(r.diff <= 1e-14, `diff ${r.diff}`);
});

test('three uses: embeddings and weights equal NumPy; weights rows sum to 1 (or 0)', () => {
  const u = M.threeUses(a, { source: 'le chat est noir <pad>', target: '<s> the cat is black', usesSeed: 1 });
  exact(u.S, 'uses.S');
  exact(u.T, 'uses.T');
  u.runs.forEach((run, i) => exact(run.Wo, `uses.${i}.Wo`));
  assert.deepEqual(
    u.runs.map((r) => r.name),
    M.USES,
  );
  for (const run of u.runs)
    for (const w of run.weights)
      for (let i = 0; i < w.rows; i++) {
        const s = w.row(i).reduce((x, y) => x + y, 0);
        assert.ok(Math.abs(s - 1) < 1e-12, `row sum ${s}`);
      }
});

test('schema: malformed and oversized permalink values fall back or are clamped', () => {
  const s = readState(
    M.SCHEMA,
    new URLSearchParams('tn=100000&td=7&th=abc&ts=-5&tp=99999&tc=maybe&tt=%20%20&tsrc=' + 'x'.repeat(5000)),
  );
  assert.equal(s.length, 0);
  assert.equal(s.dModel, 8);
  assert.equal(s.heads, 2);
  assert.equal(s.seed, 0);
  assert.equal(s.padding, M.MAX_TOKENS - 1);
  assert.equal(s.causal, false);
  assert.equal(s.tokens, 'the cat sat on the mat');
  assert.equal(s.source.length, 200);
  assert.equal(M.tokensOf({ tokens: 'a '.repeat(1000), length: 0 }).length, M.MAX_TOKENS);
});

test('provenance from the trace: raw and scaled scores, masked weights and outputs explain themselves', async () => {
  const { Trace } = await import('../../web/src/site/explain/trace.js');
  const tokens = ['the', 'cat', 'sat'];
  const inputs = M.drawInputs(a, tokens, 8, 1);
  const trace = new Trace();
  const proj = M.projections(a, inputs, undefined, { trace, labels: tokens }); // computed through the trace
  const raw = trace.explain('raw', 0, 1);
  assert.match(raw.text, /^score\[1\]\[2\] \(the → cat\) = q1 \(the\) · k2 \(cat\) = .* = −?[\d.]+$/);
  assert.deepEqual(
    raw.sources.map((s) => s.tensor),
    ['Q', 'K'],
  );
  let s01 = 0;
  for (let k = 0; k < 8; k++) s01 += proj.Q.get(0, k) * proj.K.get(1, k);
  assert.ok(Math.abs(s01 - proj.raw.get(0, 1)) < 1e-12);
  assert.equal(trace.explain('scaled', 0, 1).text.split(' = ').length, 4);

  const mask = M.buildMask(3, { padding: 1, causal: false, flips: new Set() }); // key 3 is padding
  const masked = M.maskedAttention(a, proj, mask, undefined, { trace, labels: tokens });
  assert.match(trace.explain('masked', 0, 2).text, /= 0: the mask cell M\[1\]\[3\] is 0 \(masked\)$/);
  const open = trace.explain('masked', 0, 0);
  assert.match(
    open.text,
    // two terms in the denominator: e^(…) or 1 each
    /^weight\[1\]\[1\] \(the → the\) = .* \/ \((e\^\([^)]*\)|1) \+ (e\^\([^)]*\)|1)\) = [\d.]+; 1 masked key left out$/,
  );
  assert.deepEqual(open.sources.find((s) => s.tensor === 'mask').cells, [[0, 0]]);
  // The weight the readout quotes is the softmax of the two open scaled scores.
  const [x, y] = [proj.scaled.get(0, 0), proj.scaled.get(0, 1)];
  assert.ok(Math.abs(masked.weights.get(0, 0) - Math.exp(x) / (Math.exp(x) + Math.exp(y))) < 1e-12);

  const out = trace.explain('output', 1, 2);
  assert.match(out.text, /^output\[2\]\[3\] \(cat\) = Σ_j weight\[2\]\[j\] · V\[j\]\[3\] = .* = −?[\d.]+$/);
});

test('a workspace (workspace.js) changes no number: edits written into reused matrices equal fresh results', async () => {
  const { workspace } = await import('../../web/src/site/workspace.js');
  const slot = workspace(a);
  /** Every result of steps 1, 2, 4, 5 and 6 (and the one-call check), as flat arrays by name. */
  const run = (edit, withSlot) => {
    const s = withSlot ? slot : undefined;
    const tokens = M.tokensOf({ tokens: edit.tokens ?? 'x', length: edit.length });
    const mask = M.buildMask(tokens.length, { padding: 1, causal: edit.causal, flips: new Set() });
    const inputs = M.drawInputs(a, tokens, edit.d, edit.seed, s);
    const proj = M.projections(a, inputs, s);
    const masked = M.maskedAttention(a, proj, mask, s);
    const byHand = M.multiHeadByHand(a, inputs, proj, edit.heads, mask, s);
    const { mha } = M.oneCallCheck(a, inputs, byHand, mask, s);
    const named = { ...inputs, ...proj, masked, byHand: byHand.byHand, concat: byHand.concat, mha };
    delete named.vocab;
    delete named.ids;
    // Copies: the workspace's storage is overwritten by the next edit.
    return JSON.stringify(named, (key, value) => (ArrayBuffer.isView(value) ? Array.from(value) : value));
  };
  const edits = [
    { length: 16, d: 8, seed: 1, heads: 2, causal: false },
    { length: 16, d: 8, seed: 2, heads: 2, causal: true }, // same shapes: written in place
    { length: 16, d: 8, seed: 2, heads: 4, causal: true },
    { length: 0, tokens: 'the cat sat on the mat', d: 16, seed: 3, heads: 2, causal: false }, // new shapes
    { length: 16, d: 8, seed: 1, heads: 2, causal: false }, // back to the first
  ];
  for (const edit of edits) assert.equal(run(edit, true), run(edit, false), JSON.stringify(edit));
  // While the shape stays, an edit writes into the matrix the previous one returned.
  const kept = slot('Q', 16, 8);
  assert.equal(M.projections(a, M.drawInputs(a, M.tokensOf({ length: 16 }), 8, 1, slot), slot).Q, kept);
});
