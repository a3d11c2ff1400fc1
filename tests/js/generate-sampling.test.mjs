// generate's sampler (web/src/api/model/sampling.js) on its own: the seeded
// generator against the tests' own mulberry32 (tests/js/seeded.js, written
// separately), and chooseToken's draws against the distribution computed here
// in float64 (softmax of logits / temperature, cut to topK, then to the smallest
// most-likely set reaching topP, renormalised): the returned p within 1e-12, and
// each candidate's frequency over 40,000 seeded draws within 5 standard
// deviations of its probability (ids outside the set: never drawn).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseToken, seededUniform } from '../../web/src/api/model/sampling.js';
import { generator } from './seeded.js';

test("seededUniform is mulberry32: the same numbers as the tests' generator, in [0, 1)", () => {
  for (const seed of [0, 1, 42, 2 ** 32 - 1]) {
    const mine = seededUniform(seed);
    const theirs = generator(seed);
    for (let i = 0; i < 1000; i++) {
      const x = mine();
      assert.equal(x, theirs.next());
      assert.ok(x >= 0 && x < 1);
    }
  }
});

/** The distribution chooseToken draws from, computed the plain way: Map id -> probability. */
function expected(logits, { temperature, topK, topP }) {
  const ranked = Array.from(logits, (x, id) => ({ x, id })).sort((a, b) => b.x - a.x || a.id - b.id);
  let kept = topK === null ? ranked : ranked.slice(0, topK);
  const max = ranked[0].x;
  if (topP < 1) {
    const keptTotal = kept.reduce((s, e) => s + Math.exp((e.x - max) / temperature), 0);
    let mass = 0;
    let n = 0;
    while (n < kept.length && mass < topP * keptTotal) mass += Math.exp((kept[n++].x - max) / temperature);
    kept = kept.slice(0, n);
  }
  const w = kept.map((e) => Math.exp((e.x - max) / temperature));
  const sum = w.reduce((s, x) => s + x, 0);
  return new Map(kept.map((e, i) => [e.id, w[i] / sum]));
}

const softmax = (logits) => {
  const max = Math.max(...logits);
  const e = Array.from(logits, (x) => Math.exp(x - max));
  const sum = e.reduce((s, x) => s + x, 0);
  return Float32Array.from(e, (x) => x / sum);
};

test('chooseToken draws from the tempered, truncated softmax: p exact, frequencies within 5 sigma', () => {
  const logits = Float32Array.from([1.5, -0.3, 2.2, 0.9, 2.2, -1.7, 0.1, 1.1]);
  const probabilities = softmax(logits);
  const cases = [
    { temperature: 1, topK: null, topP: 1 },
    { temperature: 0.6, topK: 4, topP: 1 },
    { temperature: 1.8, topK: null, topP: 0.7 },
    { temperature: 1.2, topK: 5, topP: 0.5 },
  ];
  const N = 40000;
  for (const options of cases) {
    const want = expected(logits, options);
    const counts = new Map();
    const uniform = seededUniform(11);
    for (let i = 0; i < N; i++) {
      const { id, p } = chooseToken(probabilities, logits, options, uniform);
      assert.ok(want.has(id), `${JSON.stringify(options)}: id ${id} is outside the candidates`);
      assert.ok(Math.abs(p - want.get(id)) <= 1e-12, `${JSON.stringify(options)}: p ${p} against ${want.get(id)}`);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    for (const [id, q] of want) {
      const sigma = Math.sqrt((q * (1 - q)) / N);
      const f = (counts.get(id) ?? 0) / N;
      assert.ok(Math.abs(f - q) <= 5 * sigma, `${JSON.stringify(options)}: id ${id} drawn ${f}, p = ${q}`);
    }
  }
});

test('greedy is the most likely id, ties to the lower one; p = 1', () => {
  const logits = Float32Array.from([0.5, 3, 1, 3]);
  const r = chooseToken(softmax(logits), logits, { temperature: 0, topK: null, topP: 1 }, () => {
    throw new Error('greedy draws nothing');
  });
  assert.deepEqual(r, { id: 1, p: 1 });
});

test('topP over a large vocabulary widens its selection until the mass is reached', () => {
  // 1000 ids of nearly equal logits: topP 0.5 needs about 500 candidates (past the first 64 and 256).
  const V = 1000;
  const logits = Float32Array.from({ length: V }, (_, i) => (0.001 * ((i * 37) % V)) / V);
  const probabilities = softmax(logits);
  const options = { temperature: 1, topK: null, topP: 0.5 };
  const want = expected(logits, options);
  assert.ok(want.size > 256 && want.size < 600, `${want.size} candidates`);
  const uniform = seededUniform(5);
  for (let i = 0; i < 2000; i++) {
    const { id, p } = chooseToken(probabilities, logits, options, uniform);
    assert.ok(want.has(id));
    assert.ok(Math.abs(p - want.get(id)) <= 1e-12);
  }
});
