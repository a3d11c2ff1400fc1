// The sliding-window chapter's model (web/src/site/chapters/sliding-window/model.js):
// the windowed weights and output and the powers of the window matrix against
// NumPy (tests/fixtures/sliding_window.txt, made by make_sliding_window.py), the
// reach rule against the matrix, the stories of the weights and of M^L, and the
// permalink bounds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import {
  cacheComparison,
  earliestReached,
  firstNonzero,
  firstTokenMass,
  MAX_LAYERS,
  MAX_LENGTH,
  SCHEMA,
  sinkHeads,
  slidingStages,
  totalVariation,
} from '../../web/src/site/chapters/sliding-window/model.js';
import { Trace } from '../../web/src/site/explain/trace.js';
import { readState } from '../../web/src/site/url-state.js';
import { assertClose, loadFixture } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('sliding_window.txt');
const CASES = [...ref.keys()].filter((k) => k.endsWith('.params')).map((k) => k.split('.')[0]);

for (const name of CASES) {
  const [seed, length, window, layers] = ref.get(`${name}.params`).data;
  test(`${name} (seed ${seed}, ${length} tokens, window ${window}, ${layers} layers): weights, output and M^L match NumPy`, () => {
    const run = slidingStages(a, { seed, length, window, layers }, new Trace());
    assert.equal(run.firstFailure(), null);
    const { r } = run;
    const get = (key) => ref.get(`${name}.${key}`).data;
    // Softmax over at most 12 exponentials of four-term dot products: 1e-14; outputs: 1e-13.
    assertClose(r.weights.data, get('weights'), 1e-14, { label: 'weights' });
    assertClose(r.output.data, get('output'), 1e-13, { label: 'output' });
    // Counts of chains are small integers, exact in float64.
    assert.deepEqual(Array.from(r.reach.data), Array.from(get('reach')));
    for (let i = 0; i < length; i++) {
      for (let j = 0; j < length; j++) {
        const hidden = j > i || j <= i - window;
        if (hidden) assert.equal(r.weights.get(i, j), 0, `A[${i + 1}][${j + 1}] is masked`);
      }
    }
  });
}

test('the reach rule max(1, i − L(W − 1)) is the first nonzero entry of row i of M^L, for every size the page allows up to 12', () => {
  for (let length = 2; length <= 12; length++) {
    for (let window = 1; window <= length; window++) {
      for (let layers = 1; layers <= MAX_LAYERS; layers++) {
        const { r } = slidingStages(a, { seed: 0, length, window, layers }, new Trace());
        for (let i = 1; i <= length; i++) {
          assert.equal(
            firstNonzero(r.reach, i - 1),
            earliestReached(i, window, layers),
            `n ${length} W ${window} L ${layers} i ${i}`,
          );
        }
      }
    }
  }
});

test('the stories: a weight names the scores of its window; a cell of M^L is a sum of products of M and M^(L−1)', () => {
  const trace = new Trace();
  const { r } = slidingStages(a, { seed: 3, length: 10, window: 3, layers: 3 }, trace);
  const w = trace.explain('weights', 9, 8);
  assert.match(w.text, /^A\[10\]\[9\] = .* = 0\.5574; 7 masked keys left out$/);
  assert.equal(r.weights.get(9, 8).toPrecision(4), '0.5574');
  assert.match(trace.explain('weights', 9, 2).text, /^A\[10\]\[3\] = 0: the mask cell M\[10\]\[3\] is 0 \(masked\)$/);
  // M³[10][5]: chains 10 → 8, 9 (M) → 5 (M²: 2 and 1 chains) = 3.
  const reach = trace.explain('reach', 9, 4);
  assert.match(reach.text, /^M³\[10\]\[5\] .*= 3$/);
  assert.equal(r.reach.get(9, 4), 3);
  assert.deepEqual(
    reach.sources.map((s) => s.tensor),
    ['M', 'reach2'],
  );
});

test('permalinks are bounded: oversized or malformed values fall back', () => {
  const state = readState(SCHEMA, new URLSearchParams('n=999&W=0&L=99&seed=zz'));
  assert.equal(state.length, MAX_LENGTH);
  assert.equal(state.window, 1);
  assert.equal(state.layers, MAX_LAYERS);
  assert.equal(state.seed, 3);
});

test('first-token mass: by hand on two heads of 3 tokens, against the even spread (1/2 + 1/3) / 2; only the head above both bars is a sink', () => {
  const rows = (data) => new a.Matrix(3, 3, Float64Array.from(data));
  const sink = rows([1, 0, 0, 0.95, 0.05, 0, 0.85, 0.1, 0.05]); // token 1 gets 0.95 and 0.85: mean 0.9 ≥ 2 × 0.4167
  const even = rows([1, 0, 0, 0.5, 0.5, 0, 1 / 3, 1 / 3, 1 / 3]); // exactly the even spread
  const m = firstTokenMass([[sink, even]]);
  assert.deepEqual([m.layers, m.heads, m.queries], [1, 2, 2]);
  assertClose(m.mass.data, [0.9, (0.5 + 1 / 3) / 2], 1e-15, { label: 'mean weight on token 1' });
  assertClose([m.baseline], [(1 / 2 + 1 / 3) / 2], 1e-15, { label: 'even spread' });
  assertClose(m.column.data, [0.95, 0.85, 0.5, 1 / 3], 0, { label: 'the weights averaged' });
  assert.deepEqual(
    sinkHeads(m).map(({ layer, head }) => [layer, head]),
    [[0, 0]],
  );
  assert.throws(() => firstTokenMass([[new a.Matrix(1, 1, Float64Array.of(1))]]), RangeError);
});

test('total variation by hand; the cache comparison runs the full ids, the last W, and the first s + the last W, renumbered from 1', async () => {
  assert.equal(totalVariation([0.5, 0.5, 0], [0, 0.5, 0.5]), 0.5);
  assert.equal(totalVariation([1, 0], [0, 1]), 1);
  const seen = [];
  // A test double for a causal model: its next-token distribution puts 0.75 on (number of ids) mod 3.
  const model = {
    config: { vocab_size: 3 },
    runIds(ids, { k }) {
      seen.push([...ids]);
      const top = ids.length % 3;
      const next = [0, 1, 2].map((id) => ({ id, token: `t${id}`, p: id === top ? 0.75 : 0.125 }));
      return { next: next.sort((a, b) => b.p - a.p).slice(0, k) };
    },
  };
  const ids = Array.from({ length: 10 }, (_, i) => 100 + i);
  const c = await cacheComparison(model, ids, 4, 2);
  assert.deepEqual(seen, [ids, [106, 107, 108, 109], [100, 101, 106, 107, 108, 109]]);
  assert.deepEqual([c.T, c.window, c.sinks, c.full.tv], [10, 4, 2, 0]);
  // full: 10 ids → 1; last 4 → 1 (the same); first 2 + last 4 = 6 ids → 0: TV = |0.125 − 0.75| = 0.625.
  assert.equal(c.recent.tv, 0);
  assert.equal(c.streaming.tv, 0.625);
  assert.equal(c.streaming.top.token, 't0');
  // A window as long as the text keeps no first tokens besides it.
  assert.equal((await cacheComparison(model, ids, 48, 8)).sinks, 0);
});
