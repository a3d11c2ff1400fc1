// The Transformer attention API (scaledDotProductAttention, multiHeadAttention)
// against NumPy longdouble references (tests/fixtures/transformer.txt), through
// the built package, plus option validation and error messages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention, Matrix } from '../../dist/lib/index.js';
import { assertClose, loadFixture } from './fixtures.js';

const a = await loadAttention();
const ref = loadFixture('transformer.txt');

const cases = (kind) =>
  [...ref.keys()].filter((k) => k.startsWith(`${kind}.`) && k.endsWith('.Q')).map((k) => k.slice(0, -2));

function options(prefix) {
  const opts = { causal: ref.get(`${prefix}.causal`).data[0] === 1 };
  if (ref.has(`${prefix}.mask`)) opts.mask = ref.get(`${prefix}.mask`);
  return opts;
}

// Zero pattern exact, and relative error for every weight above 1e-300: the
// underflow cases would fail with a clamped exp (exp(-781) ~ 1e-308).
function assertWeights(got, want, label) {
  assert.equal(got.rows, want.rows, `${label}: rows`);
  assert.equal(got.cols, want.cols, `${label}: cols`);
  for (let i = 0; i < got.data.length; i++) {
    assert.equal(
      got.data[i] === 0,
      want.data[i] === 0,
      `${label}: entry ${i} is ${got.data[i]}, reference ${want.data[i]}`,
    );
  }
  assertClose(got.data, want.data, 1e-12, { label });
  assertClose(got.data, want.data, 1e-12, { floor: 1e-300, label: `${label} (relative above 1e-300)` });
}

test('fixture lists every case', () => {
  assert.ok(cases('sdpa').length >= 15, `sdpa cases: ${cases('sdpa')}`);
  assert.ok(cases('mha').length >= 5, `mha cases: ${cases('mha')}`);
});

test('scaledDotProductAttention matches NumPy (output 1e-12, weights exact zeros + 1e-12)', () => {
  for (const p of cases('sdpa')) {
    const { output, weights } = a.scaledDotProductAttention(
      ref.get(`${p}.Q`),
      ref.get(`${p}.K`),
      ref.get(`${p}.V`),
      options(p),
    );
    assert.ok(output instanceof Matrix && weights instanceof Matrix);
    assert.equal(output.rows, ref.get(`${p}.output`).rows);
    assert.equal(output.cols, ref.get(`${p}.output`).cols);
    assertClose(output.data, ref.get(`${p}.output`).data, 1e-12, { label: `${p}.output` });
    assertWeights(weights, ref.get(`${p}.weights`), `${p}.weights`);
  }
});

test('multiHeadAttention matches NumPy, one weights matrix per head', () => {
  for (const p of cases('mha')) {
    const heads = ref.get(`${p}.heads`).data[0];
    const opts = { ...options(p), heads };
    for (const name of ['Wq', 'Wk', 'Wv', 'Wo']) opts[name] = ref.get(`${p}.${name}`);
    for (const name of ['bq', 'bk', 'bv', 'bo']) if (ref.has(`${p}.${name}`)) opts[name] = ref.get(`${p}.${name}`).data;
    const { output, weights } = a.multiHeadAttention(ref.get(`${p}.Q`), ref.get(`${p}.K`), ref.get(`${p}.V`), opts);
    assertClose(output.data, ref.get(`${p}.output`).data, 1e-12, { label: `${p}.output` });
    assert.equal(weights.length, heads);
    weights.forEach((w, h) => assertWeights(w, ref.get(`${p}.weights.${h}`), `${p}.weights.${h}`));
  }
});

test('nested arrays, typed rows and {rows, cols, data} give the same result', () => {
  const Q = [
    [1, 0],
    [0, 1],
    [1, 1],
  ];
  const K = [
    [1, 0],
    [0, 1],
    [1, 1],
    [-1, 0],
  ];
  const V = [
    [1, 2, 3],
    [4, 5, 6],
    [7, 8, 9],
    [10, 11, 12],
  ];
  const r1 = a.scaledDotProductAttention(Q, K, V);
  const r2 = a.scaledDotProductAttention(
    Q.map((row) => Float64Array.from(row)),
    { rows: 4, cols: 2, data: K.flat() },
    new Matrix(4, 3, Float64Array.from(V.flat())),
    {},
  );
  assert.deepEqual(r1.output.data, r2.output.data);
  assert.deepEqual(r1.weights.data, r2.weights.data);
  assertClose(r1.output.data, ref.get('sdpa.small.output').data, 1e-12);
});

test('a fully masked query row gives zero weights and zero output, not NaN', () => {
  const { output, weights } = a.scaledDotProductAttention(
    [
      [1, 2],
      [3, 4],
    ],
    [
      [1, 0],
      [0, 1],
    ],
    [
      [5, 6],
      [7, 8],
    ],
    {
      mask: [
        [0, 0],
        [1, 1],
      ],
    },
  );
  assert.deepEqual(Array.from(weights.row(0)), [0, 0]);
  assert.deepEqual(Array.from(output.row(0)), [0, 0]);
  assert.ok(output.data.every(Number.isFinite));
});

test('causal: query 0 attends only to key 0; mask null means no mask', () => {
  const X = [
    [0.5, 1],
    [2, -1],
    [1, 1],
  ];
  const { weights } = a.scaledDotProductAttention(X, X, X, { causal: true, mask: null });
  assert.deepEqual(Array.from(weights.row(0)), [1, 0, 0]);
  assert.equal(weights.get(1, 2), 0);
  assert.ok(Math.abs(weights.get(1, 0) + weights.get(1, 1) - 1) < 1e-15);
});

test('bad options: unknown names and wrong types are TypeErrors', () => {
  const X = [[1, 2]];
  assert.throws(() => a.scaledDotProductAttention(X, X, X, { casual: true }), {
    name: 'TypeError',
    message: "scaledDotProductAttention: unknown option 'casual' (known: mask, causal, window, precision, out)",
  });
  assert.throws(() => a.scaledDotProductAttention(X, X, X, { causal: 1 }), {
    name: 'TypeError',
    message: 'scaledDotProductAttention: options.causal must be true or false, got a number',
  });
  assert.throws(() => a.scaledDotProductAttention(X, X, X, 'causal'), {
    name: 'TypeError',
    message: 'scaledDotProductAttention: options must be a plain object ({ ... }), got a string',
  });
  assert.throws(() => a.scaledDotProductAttention(X, X, X, { mask: [[true]] }), {
    name: 'TypeError',
    message: 'scaledDotProductAttention: mask[0][0] is a boolean, expected a number',
  });
  assert.throws(() => a.multiHeadAttention(X, X, X), {
    name: 'TypeError',
    message: /options \{ heads, Wq, Wk, Wv, Wo \} are required/,
  });
  assert.throws(() => a.multiHeadAttention(X, X, X, { heads: 1.5 }), {
    name: 'RangeError',
    message: 'multiHeadAttention: options.heads must be an integer in [1, 4096], got 1.5',
  });
  assert.throws(() => a.multiHeadAttention(X, X, X, { heads: '2' }), {
    name: 'TypeError',
    message: 'multiHeadAttention: options.heads must be an integer, got a string',
  });
  for (const heads of [2 ** 32 + 1, 1e308]) {
    assert.throws(() => a.multiHeadAttention(X, X, X, { heads }), {
      name: 'RangeError',
      message: `multiHeadAttention: options.heads must be an integer in [1, 4096], got ${heads}`,
    });
  }
  assert.throws(
    () =>
      a.multiHeadAttention(X, X, X, {
        heads: 1,
        Wq: [
          [1, 0],
          [0, 1],
        ],
      }),
    {
      name: 'TypeError',
      message: 'multiHeadAttention: options.Wk is required (a d_model x d_model matrix)',
    },
  );
  assert.throws(() => a.multiHeadAttention(X, X, X, { heads: 0 }), {
    name: 'RangeError',
    message: 'multiHeadAttention: options.heads must be an integer in [1, 4096], got 0',
  });
  assert.throws(() => a.multiHeadAttention(X, X, X, { heads: 1, wq: 1 }), {
    name: 'TypeError',
    message: /unknown option 'wq'/,
  });
});

test('shape, mask and value errors name the argument and shapes; the module keeps working', () => {
  const Q = [
    [1, 2, 3],
    [4, 5, 6],
  ];
  const K = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 1, 1],
  ];
  const V = [[1], [2], [3], [4]];
  assert.throws(() => a.scaledDotProductAttention(Q, [[1, 2]], [[1]]), {
    name: 'RangeError',
    message:
      'scaledDotProductAttention: Q has 3 columns but K has 2 (Q is 2x3, K is 1x2); queries and keys need the same size d_k',
  });
  assert.throws(() => a.scaledDotProductAttention(Q, K, [[1], [2]]), {
    name: 'RangeError',
    message: 'scaledDotProductAttention: K has 4 rows but V has 2 (K is 4x3, V is 2x1); every key needs one value',
  });
  assert.throws(() => a.scaledDotProductAttention(Q, K, V, { mask: [[1, 1, 1, 1]] }), {
    name: 'RangeError',
    message: 'scaledDotProductAttention: mask is 1x4 but must be 2x4 (queries x keys)',
  });
  assert.throws(
    () =>
      a.scaledDotProductAttention(Q, K, V, {
        mask: [
          [1, 1, 1, 1],
          [1, 2, 1, 1],
        ],
      }),
    {
      name: 'RangeError',
      message:
        'scaledDotProductAttention: mask[1][1] is 2.000000; mask entries must be 0 (may not attend) or 1 (may attend)',
    },
  );
  assert.throws(() => a.scaledDotProductAttention([[NaN, 1, 2]], K, V), {
    name: 'RangeError',
    message: 'scaledDotProductAttention: Q[0][0] is NaN; every entry must be a finite number',
  });
  const I = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  assert.throws(() => a.multiHeadAttention(Q, K, K, { heads: 2, Wq: I, Wk: I, Wv: I, Wo: I }), {
    name: 'RangeError',
    message:
      'multiHeadAttention: heads = 2 does not divide d_model = 3 (Q is 2x3); each head needs d_model / heads columns',
  });
  assert.throws(
    () =>
      a.multiHeadAttention(Q, K, K, {
        heads: 1,
        Wq: I,
        Wk: I,
        Wv: [
          [1, 0],
          [0, 1],
        ],
        Wo: I,
      }),
    {
      name: 'RangeError',
      message: 'multiHeadAttention: Wv is 2x2 but must be 3x3 (d_model x d_model)',
    },
  );
  assert.throws(() => a.multiHeadAttention(Q, K, K, { heads: 3, Wq: I, Wk: I, Wv: I, Wo: I, bk: [1, 2] }), {
    name: 'RangeError',
    message: 'multiHeadAttention: bk has 2 entries but must have d_model = 3',
  });
  // Still works, and identity projections with one head equal plain attention.
  const mha = a.multiHeadAttention(Q, K, K, { heads: 1, Wq: I, Wk: I, Wv: I, Wo: I });
  const sdpa = a.scaledDotProductAttention(Q, K, K);
  assertClose(mha.output.data, sdpa.output.data, 1e-15);
  assertClose(mha.weights[0].data, sdpa.weights.data, 1e-15);
});

test('repeated large calls do not leak wasm memory', () => {
  const n = 256;
  const X = { rows: n, cols: 64, data: Float64Array.from({ length: n * 64 }, (_, i) => Math.sin(i)) };
  a.scaledDotProductAttention(X, X, X);
  const before = a.memoryBytes();
  for (let i = 0; i < 20; i++) a.scaledDotProductAttention(X, X, X, { causal: i % 2 === 0 });
  assert.equal(a.memoryBytes(), before);
});

test('attentionScores matches the fixtures (raw scores are Q K^T, scaled by 1/sqrt(d_k))', () => {
  const Q = ref.get('sdpa.rect.Q');
  const K = ref.get('sdpa.rect.K');
  const raw = a.attentionScores(Q, K);
  const viaMatmul = a.matmul(Q, new Matrix(K.rows, K.cols, K.data).transpose());
  assert.equal(raw.rows, 5);
  assert.equal(raw.cols, 7);
  assertClose(raw.data, viaMatmul.data, 1e-15);
  const scaled = a.attentionScores(Q, K, { scaled: true });
  // softmax of each scaled row is the reference weights row
  for (let i = 0; i < 5; i++) {
    assertClose(a.softmax(scaled.row(i)), ref.get('sdpa.rect.weights').data.slice(i * 7, i * 7 + 7), 1e-12);
    assertClose([raw.get(i, 3) / Math.sqrt(8)], [scaled.get(i, 3)], 1e-15);
  }
  assert.throws(() => a.attentionScores([[1, 2]], [[1, 2, 3]]), {
    name: 'RangeError',
    message:
      'attentionScores: Q has 2 columns but K has 3 (Q is 1x2, K is 1x3); queries and keys need the same size d_k',
  });
  assert.throws(() => a.attentionScores([[1, 2]], [[1, 2]], { scaled: 'yes' }), { name: 'TypeError' });
});
