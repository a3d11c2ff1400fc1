// The RoPE chapter's model (web/src/site/chapters/rope/model.js): its draws,
// frequencies, rotations, scores and the two pairings against NumPy float64
// (tests/fixtures/rope.txt, made by tests/fixtures/make_rope.py); the relative
// position property; permalinks; the explanations of its cells.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { rope, ropeStages, SCHEMA, SCALINGS, scalingOf } from '../../web/src/site/chapters/rope/model.js';
import { Trace } from '../../web/src/site/explain/trace.js';
import { readState } from '../../web/src/site/url-state.js';
import { assertClose, loadFixture } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('rope.txt');
const CASES = 5;
const scalar = (key) => ref.get(key)?.data[0];

function stateOf(p) {
  const defaults = readState(SCHEMA, new URLSearchParams(''));
  return {
    ...defaults,
    seed: scalar(`${p}.seed`),
    headDim: scalar(`${p}.d`),
    queryAt: scalar(`${p}.m`),
    keyAt: scalar(`${p}.n`),
    positions: scalar(`${p}.T`),
    base: scalar(`${p}.base`),
    scaling: SCALINGS[scalar(`${p}.scaling`)],
    factor: scalar(`${p}.factor`) ?? defaults.factor,
    lowFreqFactor: 1,
    highFreqFactor: 4,
    originalMax: 8192,
  };
}

// Angles m·θ reach 1e5 rad in case 4: an ulp of θ (2e-16 relative) moves them by ~2e-11, so
// rotated entries are compared to 1e-9 (absolute, entries of size ~1) and θ itself to 1e-14 relative.
test('every fixture case matches NumPy: θ 1e-14, rotations and scores 1e-9 (relative to max(1, |x|))', () => {
  assert.equal(scalar('cases'), CASES);
  let checked = 0;
  for (let i = 0; i < CASES; i++) {
    const p = `case${i}`;
    const r = rope(a, stateOf(p));
    const theta = r.freqs.data.subarray((r.freqs.rows - 1) * r.freqs.cols);
    assertClose(theta, ref.get(`${p}.theta`).data, 1e-14, { floor: 1e-300, label: `${p} θ` });
    assertClose(r.qRot.data, ref.get(`${p}.qRot`).data, 1e-9, { label: `${p} qRot` });
    assertClose(r.kRot.data, ref.get(`${p}.kRot`).data, 1e-9, { label: `${p} kRot` });
    assertClose(r.scores.data, ref.get(`${p}.scores`).data, 1e-9, { label: `${p} scores` });
    assertClose(r.qHalf.data, ref.get(`${p}.qHalf`).data, 1e-9, { label: `${p} half` });
    assertClose(r.qInterleaved.data, ref.get(`${p}.qInterleaved`).data, 1e-9, { label: `${p} interleaved` });
    for (const key of ['score', 'shifted', 'queryMoved'])
      assertClose([r[key]], ref.get(`${p}.${key}`).data, 1e-9, { label: `${p} ${key}` });
    checked++;
  }
  assert.equal(checked, CASES);
});

test('scores depend only on m − n: every diagonal of the grid is constant (1e-12), the layouts agree after the permutation', () => {
  for (const query of ['', 'd=64&T=16&base=500000&rs=llama3', 'd=16&rs=linear&f=4&seed=9']) {
    const r = rope(a, readState(SCHEMA, new URLSearchParams(query)));
    const T = r.scores.rows;
    let diagonals = 0;
    for (let shift = -(T - 1); shift < T; shift++) {
      const cells = [];
      for (let m = Math.max(0, shift); m < Math.min(T, T + shift); m++) cells.push(r.scores.get(m, m - shift));
      for (const x of cells)
        assert.ok(Math.abs(x - cells[0]) <= 1e-12 * Math.max(1, Math.abs(cells[0])), `${query}: diagonal ${shift}`);
      diagonals++;
    }
    assert.equal(diagonals, 2 * T - 1);
    assert.ok(Math.abs(r.shifted - r.score) < 1e-12, `${query}: moving both changed the score`);
    assert.ok(r.layoutGap < 1e-15, `${query}: layouts differ by ${r.layoutGap}`);
  }
});

test('permalinks: positions and sizes are clamped, malformed values fall back; the bands cannot cross', () => {
  const state = readState(SCHEMA, new URLSearchParams('d=6&m=999999999&n=-4&T=99&base=1&rs=yarn&lo=8&hi=2'));
  assert.equal(state.headDim, 8);
  assert.equal(state.queryAt, 100000);
  assert.equal(state.keyAt, 0);
  assert.equal(state.positions, 16);
  assert.equal(state.base, 2);
  assert.equal(state.scaling, 'none');
  const crossed = scalingOf({ ...state, scaling: 'llama3' });
  assert.ok(crossed.high_freq_factor > crossed.low_freq_factor);
  assert.doesNotThrow(() => rope(a, { ...state, scaling: 'llama3' }));
});

test('explanations: a rotated entry names its pair, angle and partner; a frequency its base and band', () => {
  const trace = new Trace();
  const { r } = ropeStages(a, readState(SCHEMA, new URLSearchParams('rs=llama3&base=500000')), trace);
  const cell = trace.explain('qRot', 3, 1);
  const [x, y] = [r.q.data[1], r.q.data[5]];
  const theta = r.freqs.data[r.freqs.cols + 1];
  assert.ok(Math.abs(r.qRot.get(3, 1) - (x * Math.cos(3 * theta) - y * Math.sin(3 * theta))) < 1e-12);
  assert.match(
    cell.text,
    /^Q′\[4\]\[2\] = Q\[4\]\[2\]·cos\(3·θ2\) − Q\[4\]\[6\]·sin\(3·θ2\) = .*; position 3, pair 2 \(coordinates 2 and 6\) turns by 3·θ2 = 3·0\.03761 = 0\.1128 rad$/,
  );
  assert.deepEqual(cell.sources, [
    {
      tensor: 'qRows',
      cells: [
        [3, 1],
        [3, 5],
      ],
    },
  ]);
  assert.match(trace.explain('freqs', 1, 3).text, /^scaled θ4: θ4 = 5\.00e5\^\(−2·3\/8\) = .*divided by 8/);
  assert.match(trace.explain('freqs', 1, 2).text, /lies between the two bands/);
  assert.match(trace.explain('scores', 2, 0).text, /^S\[3\]\[1\] = q′3 · k′1 = /);
});
