// The QK-norm chapter's model (web/src/site/chapters/qk-norm/model.js): its draws,
// logits, weights and RMS normalisation against NumPy float64
// (tests/fixtures/qk_norm.txt, made by tests/fixtures/make_qk_norm.py), the
// bound QK-norm puts on the logits, and the explanations of its cells.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { logitBound, qkNorm, qkNormStages, SCHEMA, SWEEP } from '../../web/src/site/chapters/qk-norm/model.js';
import { Trace } from '../../web/src/site/explain/trace.js';
import { readState } from '../../web/src/site/url-state.js';
import { assertClose, loadFixture, STRICT_RELATIVE } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('qk_norm.txt');
const CASES = 5;
const scalar = (key) => ref.get(key).data[0];
const stateOf = (p) => ({
  seed: scalar(`${p}.seed`),
  headDim: scalar(`${p}.d`),
  tokens: scalar(`${p}.n`),
  size: scalar(`${p}.s`),
  gain: scalar(`${p}.g`),
});

test('every fixture case matches NumPy: draws exactly, logits 1e-12, weights 1e-12, Q̂ and K̂ 1e-13 (relative to max(1, |x|))', () => {
  assert.equal(scalar('cases'), CASES);
  let checked = 0;
  for (let i = 0; i < CASES; i++) {
    const p = `case${i}`;
    const r = qkNorm(a, stateOf(p));
    assert.deepEqual(Array.from(r.Q0.data), Array.from(ref.get(`${p}.Q0`).data), `${p}: Q0 draws`);
    assert.deepEqual(Array.from(r.K0.data), Array.from(ref.get(`${p}.K0`).data), `${p}: K0 draws`);
    assertClose(r.logits.data, ref.get(`${p}.logits`).data, 1e-12, { label: `${p} logits` });
    assertClose(r.weights.data, ref.get(`${p}.weights`).data, 1e-12, { label: `${p} weights` });
    assertClose(r.Qn.data, ref.get(`${p}.Qn`).data, 1e-13, { label: `${p} Q̂` });
    assertClose(r.Kn.data, ref.get(`${p}.Kn`).data, 1e-13, { label: `${p} K̂` });
    assertClose(r.normLogits.data, ref.get(`${p}.normLogits`).data, 1e-12, { label: `${p} Ŝ` });
    assertClose(r.normWeights.data, ref.get(`${p}.normWeights`).data, 1e-12, { label: `${p} Â` });
    assertClose([r.doubled], ref.get(`${p}.doubled`).data, 1e-12, { floor: STRICT_RELATIVE, label: `${p} doubled` });
    checked++;
  }
  assert.equal(checked, CASES);
});

test('QK-norm bounds the logits by g²√d and removes the size s: the sweep is flat with it, saturates without it', () => {
  const state = readState(SCHEMA, new URLSearchParams(''));
  const r = qkNorm(a, state);
  assert.equal(r.sweep.length, SWEEP.length);
  const bound = logitBound(state.headDim, state.gain);
  for (const p of r.sweep) assert.ok(p.normLogit <= bound, `|Ŝ| ${p.normLogit} over the bound ${bound} at s = ${p.s}`);
  // ε = 1e-6 under the root is all that changes with s: relative change below 1e-5 over s = 1/4 … 16.
  const normed = r.sweep.map((p) => p.normed);
  assert.ok(Math.max(...normed) - Math.min(...normed) < 1e-5, `normed curve not flat: ${normed}`);
  assert.ok(r.sweep[0].plain < 0.5 && r.sweep[r.sweep.length - 1].plain > 0.999, 'the plain curve saturates');
  // Without QK-norm the largest logit grows like s²: 16² / (1/4)² = 4096 times over the sweep.
  assertClose([r.sweep[r.sweep.length - 1].logit / r.sweep[0].logit], [4096], 1e-12, { label: 'growth' });
});

test('permalinks: sizes are clamped, a malformed head size falls back', () => {
  const state = readState(SCHEMA, new URLSearchParams('d=5&n=1000&s=1e9&g=-3&seed=-1'));
  assert.deepEqual(state, { seed: 0, headDim: 16, tokens: 8, size: 16, gain: 0.25 });
});

test('explanations: a scaled query, an RMS-normalised entry and a logit written out with their numbers', () => {
  const state = readState(SCHEMA, new URLSearchParams('s=2'));
  const trace = new Trace();
  const { r } = qkNormStages(a, state, trace);
  const q = trace.explain('Q', 0, 1);
  assert.match(q.text, /^Q\[1\]\[2\] = s1 · Q₀\[1\]\[2\] = 2 · /);
  assert.deepEqual(
    q.sources.map((s) => s.tensor),
    ['s', 'Q0'],
  );
  const n = trace.explain('Qn', 1, 2);
  const row = Array.from(r.Q.row(1));
  const rms = Math.sqrt(row.reduce((sum, x) => sum + x * x, 0) / row.length + 1e-6);
  assert.ok(Math.abs(r.Qn.get(1, 2) - r.Q.get(1, 2) / rms) < 1e-15);
  assert.match(n.text, /^rms\(q2\) = √\(\(.*\) \/ 16 \+ 1\.00e-6\) = [\d.]+; Q̂\[2\]\[3\] = Q\[2\]\[3\] \/ rms · g3 = /);
  assert.deepEqual(n.sources.find((s) => s.tensor === 'Q').cells.length, 16);
  const s = trace.explain('normLogits', 0, 0);
  assert.match(s.text, /^Ŝ\[1\]\[1\] = Q̂K̂ᵀ\[1\]\[1\] \/ √16 = /);
});
