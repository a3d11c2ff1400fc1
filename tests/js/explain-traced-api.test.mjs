// The traced view of the API (web/src/site/explain/traced-api.js): its calls
// return exactly the API's results and record what they computed, tensors no
// figure needs stay functions until read, and an argument it cannot name is a
// RangeError naming the function and the argument.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { Trace } from '../../web/src/site/explain/trace.js';
import { tracedApi } from '../../web/src/site/explain/traced-api.js';

const a = await loadAttention();
const X = [
  [1, 0, 2],
  [0, 1, 1],
  [2, 1, 0],
];
const W = [
  [1, 2],
  [0, 1],
  [3, 1],
];

test('a named call returns the API’s result and records one entry per op, inputs by value identity', () => {
  const trace = new Trace();
  const t = tracedApi(a, trace);
  t.input('X', X, { symbol: 'X', row: 'x' });
  t.input('W', W, { symbol: 'W' });
  const Q = t.name('Q', { symbol: 'Q', row: 'q' }).matmul(X, W);
  assert.deepEqual(Array.from(Q.data), Array.from(a.matmul(X, W).data));
  const entry = trace.entry('Q');
  assert.deepEqual([entry.op, entry.inputs, entry.symbol, entry.row], ['matmul', ['X', 'W'], 'Q', 'q']);
  assert.equal(entry.value, Q); // a reference to the API's matrix, not a copy
  assert.equal(typeof trace.entry('X').value, 'function'); // rows of numbers: held as a matrix when read
  assert.match(trace.explain('Q', 0, 1).text, /^Q\[1\]\[2\] = x1 · W\[:, 2\] = /);
});

test('attention: scores the caller did not compute stay functions; the weights reuse recorded scaled scores', () => {
  const trace = new Trace();
  const t = tracedApi(a, trace);
  const [Q, K, V] = [X, W.map((r) => [...r, 1]), X.map((r) => r.slice())].map((m, i) => t.input(`m${i}`, m));
  const names = { weights: { name: 'A', symbol: 'A' }, output: { name: 'out', symbol: 'out' } };
  const r = t.name(names).scaledDotProductAttention(Q, K, V);
  assert.deepEqual(Array.from(r.weights.data), Array.from(a.scaledDotProductAttention(Q, K, V).weights.data));
  assert.equal(typeof trace.entry('A.scores').value, 'function');
  assert.deepEqual(trace.entry('A').inputs, ['A.scores']);
  assert.deepEqual(trace.entry('A').params, { dk: 3 });
  assert.deepEqual(trace.entry('out').inputs, ['A', 'm2']);

  const t2 = tracedApi(a, new Trace());
  const [Q2, K2] = [t2.input('Q', X), t2.input('K', X)];
  t2.name('raw').attentionScores(Q2, K2);
  t2.name('scaled').attentionScores(Q2, K2, { scaled: true });
  t2.name({ weights: 'w' }).scaledDotProductAttention(Q2, K2, K2);
  assert.deepEqual(t2.trace.entry('scaled').inputs, ['raw']);
  assert.deepEqual(t2.trace.entry('w').inputs, ['scaled']);
  assert.equal(t2.trace.has('w.output'), false); // an unnamed output is not recorded
});

test('a recomputation never reuses a tensor computed on demand from the previous one’s arguments', () => {
  const trace = new Trace();
  const run = (rows) => {
    const t = tracedApi(a, trace);
    const Q = t.input('Q', rows);
    const K = t.input(
      'K',
      rows.map((r) => r.slice()),
    );
    return t.name({ weights: 'w' }).scaledDotProductAttention(Q, K, K);
  };
  run(X);
  const Y = X.map((r) => r.map((x) => 2 * x));
  const r = run(Y);
  // The scores of the second run are Y Yᵀ, and the story of its weights is told from them.
  assert.deepEqual(Array.from(trace.value('w.scores').data), Array.from(a.attentionScores(Y, Y).data));
  assert.equal(trace.value('w'), r.weights);
});

test('without names or a trace the calls are the plain API’s; an unnamed argument is a RangeError', () => {
  const plain = tracedApi(a, undefined);
  assert.deepEqual(Array.from(plain.name('Q').matmul(X, W).data), Array.from(a.matmul(X, W).data));
  const trace = new Trace();
  const t = tracedApi(a, trace);
  t.matmul(X, W); // no name: nothing recorded
  assert.equal(trace.has('Q'), false);
  assert.throws(() => t.name('Q').matmul(X, W), {
    name: 'RangeError',
    message: /^tracedApi\.matmul: a is not a named tensor/,
  });
  assert.throws(() => t.name(3), { name: 'TypeError', message: /^tracedApi\.name: name must be/ });
  assert.throws(() => t.name('Q').record('nope', [], null), { name: 'RangeError', message: /'nope'/ });
});

test('modern attention: grouped-query heads share their key block; online softmax, rotation and the window are recorded', () => {
  const trace = new Trace();
  const t = tracedApi(a, trace);
  const I4 = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => (i === j ? 1 : 0)));
  const kv = I4.map((r) => r.slice(0, 2));
  const [Xq, Wq, Wk, Wv, Wo] = [X.map((r) => [...r, 1]), I4, kv, kv.map((r) => r.slice()), I4.map((r) => r.slice())];
  for (const [name, m] of Object.entries({ Xq, Wq, Wk, Wv, Wo })) t.input(name, m);
  const options = { heads: 4, kvHeads: 2, Wq, Wk, Wv, Wo };
  const r = t.name({ prefix: 'gqa.' }).multiHeadAttention(Xq, Xq, Xq, options);
  assert.equal(r.weights.length, 4);
  // Heads 0 and 1 read key head 0 (columns 0 … 0), heads 2 and 3 key head 1.
  assert.deepEqual(
    [0, 1, 2, 3].map((h) => trace.entry(`gqa.head${h}.K`).params.c0),
    [0, 0, 1, 1],
  );
  assert.deepEqual(Array.from(trace.value('gqa.head3.weights').data), Array.from(r.weights[3].data));

  const [Q, K, V] = [
    t.input('Q', X),
    t.input(
      'K',
      W.map((row) => [...row, 0]),
    ),
    t.input(
      'V',
      X.map((row) => row.slice()),
    ),
  ];
  const online = t.name({ prefix: 'on.' }).onlineSoftmaxAttention(Q, K, V, { blockSize: 2, causal: true });
  assert.equal(trace.value('on.max'), online.max);
  assert.deepEqual(trace.entry('on.sum').params, { blockSize: 2, dk: 3 }); // explained from the raw scores over √d_k
  assert.deepEqual(trace.entry('on.output').inputs, ['on.weights', 'V']);
  const sdpa = a.scaledDotProductAttention(X, K, V, { causal: true });
  assert.deepEqual(Array.from(trace.value('on.weights').data), Array.from(sdpa.weights.data));

  t.name({ weights: 'win' }).scaledDotProductAttention(Q, K, V, { causal: true, window: 1 });
  assert.deepEqual(Array.from(trace.value('win.mask').data), [1, 0, 0, 0, 1, 0, 0, 0, 1]);

  const Xr = t.input('Xr', [[1, 2, 3, 4]]);
  const rotated = t.name('R').rotaryEmbedding(Xr, { positions: [3] });
  assert.equal(trace.value('R'), rotated);
  assert.deepEqual(trace.entry('R').params, { base: 10000, pairing: 'half', scaling: null, positions: [3] });
});
