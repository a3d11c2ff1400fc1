// Issue 27: options are read as own properties only. A key set on
// Object.prototype (by another library, or an attacker) must change nothing in
// a call that never passed it, and an unrelated enumerable key
// (Object.prototype.foo = 1) must break nothing. Every pollution is removed in
// `finally`, whatever happens.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { makeCanaries } from './boundary-canaries.js';

const a = await loadAttention();
const canaries = await makeCanaries(a);
after(() => canaries.delete());

/** Runs `body` with Object.prototype[key] = value (enumerable, as a careless assignment makes it). */
async function polluted(key, value, body) {
  assert.equal(Object.hasOwn(Object.prototype, key), false, `Object.prototype.${key} already exists`);
  Object.prototype[key] = value;
  try {
    return await body();
  } finally {
    delete Object.prototype[key];
  }
}

const Q = [
  [1, 0, 2],
  [0, 1, 1],
];
const W = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];
const GLOVE = 'the 1 2\nof 3 4\nteacher 5 6\n';
/** What a call returns, as plain data that deepEqual compares. */
const plain = (value) => JSON.parse(JSON.stringify(value, (_, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)));
const table = async (options) => {
  const e = await a.loadEmbeddings(GLOVE, options);
  try {
    return { size: e.size, words: ['the', 'of', 'teacher'].map((w) => e.has(w)) };
  } finally {
    e.delete();
  }
};
const trainerOptions = (Trainer) => {
  const t = new Trainer();
  try {
    return { ...t.options };
  } finally {
    t.delete();
  }
};
const binary = async () => {
  const e = await a.loadEmbeddings(GLOVE);
  try {
    return Array.from(e.toBinary());
  } finally {
    e.delete();
  }
};

// [key on Object.prototype, its value, a call that does not pass that option]
const CASES = [
  ['causal', true, () => a.scaledDotProductAttention(Q, Q, Q)],
  ['causal', true, () => a.multiHeadAttention(Q, Q, Q, { heads: 1, Wq: W, Wk: W, Wv: W, Wo: W })],
  [
    'mask',
    [
      [1, 0],
      [1, 0],
    ],
    () => a.scaledDotProductAttention(Q, Q, Q),
  ],
  ['precision', 'float32', () => a.matmul(Q, W)],
  ['precision', 'float32', () => a.attentionScores(Q, Q)],
  ['scaled', true, () => a.attentionScores(Q, Q)],
  ['bq', [5, 5, 5], () => a.multiHeadAttention(Q, Q, Q, { heads: 1, Wq: W, Wk: W, Wv: W, Wo: W })],
  ['inFeatures', 3, () => a.createTrainableAttention({ outFeatures: 2 }).inFeatures],
  ['encoding', 'int12', binary],
  ['hidden', 8, () => trainerOptions(a.Seq2SeqTrainer)],
  ['dModel', 8, () => trainerOptions(a.TransformerTrainer)],
  ['layers', 7, () => trainerOptions(a.TransformerTrainer)],
  ['limit', 1, () => table()],
  ['vocabulary', ['the'], () => table()],
  ['seed', 5, () => a.createTrainableAttention({ inFeatures: 3, outFeatures: 2 }).params],
];

test('an option set on Object.prototype changes nothing in a call that did not pass it (15 cases)', async () => {
  for (const [key, value, call] of CASES) {
    const clean = plain(await call());
    const dirty = plain(await polluted(key, value, call));
    assert.deepEqual(dirty, clean, `Object.prototype.${key} = ${JSON.stringify(plain(value))} changed the result`);
  }
  canaries.check('Object.prototype options');
});

test('Object.prototype.foo = 1 breaks nothing (was: every call threw "a[l].write is not a function")', async () => {
  await polluted('foo', 1, async () => {
    assert.equal(a.dot([5, 1, 20], [3, 12, 45]), 927);
    assert.deepEqual(plain(a.softmax([0, 0])), [0.5, 0.5]);
    assert.deepEqual(plain(a.matmul(Q, W).data), [1, 0, 2, 0, 1, 1]);
    const t = new a.TransformerTrainer();
    assert.equal(t.options.dModel, 32);
    assert.equal(t.train(1).losses.length, 1);
    t.delete();
    assert.equal((await table()).size, 3);
    canaries.check('Object.prototype.foo = 1');
  });
});
