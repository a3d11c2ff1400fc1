// The modern-attention API through the built package, against the NumPy
// float64 references of tests/fixtures/modern_attention.txt
// (make_modern_attention.py): rotaryEmbedding (half / interleaved pairing,
// positions, base, linear and Llama 3 scaling), scaledDotProductAttention with
// a sliding window, grouped-query multiHeadAttention and onlineSoftmaxAttention
// (m and ℓ after each block); the rotation's relative-position property, online
// == one-pass attention, float32 where offered, and bad options.
//
// Tolerances (|got − want| / max(1, |want|)): 1e-12 for every float64 result:
// each is a few dozen roundings of O(1) numbers (rotation angles up to 5000 rad
// lose about 5000 · 2^-53 ≈ 6e-13 in the cosine's argument, the largest term);
// float32 results (grouped-query attention, the window) within 1e-5 of the
// float64 reference (a few dozen float32 roundings, 2^-24 ≈ 6e-8 each, on
// values below 10). rotaryEmbedding and onlineSoftmaxAttention are float64 only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention, Matrix } from '../../dist/lib/index.js';
import { assertClose, loadFixture, STRICT_RELATIVE, testBadInputs } from './fixtures.js';
import { generator } from './seeded.js';

const a = await loadAttention({ trainers: false });
const ref = loadFixture('modern_attention.txt');
const get = (key) => {
  assert.ok(ref.has(key), `fixture has no ${key}`);
  return ref.get(key);
};
const scalar = (key) => get(key).data[0];
const f32 = (m) => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data) });

// ---- rotaryEmbedding ----------------------------------------------------------

const SCALINGS = {
  linear: (p) => ({ rope_type: 'linear', factor: scalar(`${p}.factor`) }),
  llama3: (p) => ({
    rope_type: 'llama3',
    factor: scalar(`${p}.factor`),
    low_freq_factor: scalar(`${p}.low_freq_factor`),
    high_freq_factor: scalar(`${p}.high_freq_factor`),
    original_max_position_embeddings: scalar(`${p}.original_max_position_embeddings`),
  }),
};

for (const name of ['half', 'interleaved', 'positions', 'linear', 'llama3', 'llama3i']) {
  test(`rotaryEmbedding matches NumPy: ${name}`, () => {
    const p = `rope.${name}`;
    const options = { pairing: scalar(`${p}.interleaved`) ? 'interleaved' : 'half' };
    if (name !== 'half' && name !== 'interleaved') options.positions = Array.from(get(`${p}.positions`).data);
    if (scalar(`${p}.base`) !== 10000) options.base = scalar(`${p}.base`);
    if (name.startsWith('linear')) options.scaling = SCALINGS.linear(p);
    if (name.startsWith('llama3')) options.scaling = SCALINGS.llama3(p);
    const out = a.rotaryEmbedding(get(`${p}.x`), options);
    assert.ok(out instanceof Matrix);
    assertClose(out.data, get(`${p}.out`).data, 1e-12, { label: p });
  });
}

test('after rotation q_m · k_n depends only on m − n (seeded)', () => {
  const rand = generator(3305);
  const d = 8;
  const q = [Array.from({ length: d }, () => rand.next() * 2 - 1)];
  const k = [Array.from({ length: d }, () => rand.next() * 2 - 1)];
  for (const pairing of ['half', 'interleaved']) {
    for (let trial = 0; trial < 20; trial++) {
      const [m, n, shift] = [rand.int(0, 500), rand.int(0, 500), rand.int(0, 500)];
      const dot = (pm, pn) => {
        const qr = a.rotaryEmbedding(q, { positions: [pm], pairing }).data;
        const kr = a.rotaryEmbedding(k, { positions: [pn], pairing }).data;
        return qr.reduce((s, x, i) => s + x * kr[i], 0);
      };
      // Angles up to 1000 rad: their rounding (1000 · 2^-53) bounds the difference well below 1e-11.
      assertClose([dot(m + shift, n + shift)], [dot(m, n)], 1e-11, { label: `${pairing} m=${m} n=${n} +${shift}` });
    }
  }
});

// ---- sliding window -------------------------------------------------------------

for (const [window, causal] of [
  [1, true],
  [2, true],
  [3, true],
  [6, true],
  [10, true],
  [2, false],
]) {
  test(`scaledDotProductAttention with window ${window}${causal ? ', causal' : ''} matches NumPy`, () => {
    const p = `window.w${window}${causal ? 'c' : 'n'}`;
    const r = a.scaledDotProductAttention(get('window.Q'), get('window.K'), get('window.V'), { causal, window });
    assertClose(r.weights.data, get(`${p}.weights`).data, 1e-12, { label: `${p} weights` });
    assertClose(r.output.data, get(`${p}.output`).data, 1e-12, { label: `${p} output` });
    const r32 = a.scaledDotProductAttention(get('window.Q'), get('window.K'), get('window.V'), {
      causal,
      window,
      precision: 'float32',
    });
    assertClose(r32.weights.data, get(`${p}.weights`).data, 1e-5, { label: `${p} float32 weights` });
    // Hidden keys get weight exactly 0.
    for (let i = 0; i < 6; i++) {
      for (let j = 0; j < 6; j++) {
        if ((causal && j > i) || j <= i - window) assert.equal(r.weights.data[i * 6 + j], 0);
      }
    }
  });
}

// ---- grouped-query attention ------------------------------------------------------

for (const name of ['gqa', 'mqa', 'gqac', 'mha']) {
  test(`multiHeadAttention with kvHeads matches NumPy: ${name}`, () => {
    const options = {
      heads: scalar(`${name}.heads`),
      kvHeads: scalar(`${name}.kvHeads`),
      causal: !!scalar(`${name}.causal`),
    };
    for (const key of ['Wq', 'Wk', 'Wv', 'Wo']) options[key] = get(`${name}.${key}`);
    for (const key of ['bq', 'bk', 'bv', 'bo']) options[key] = get(`${name}.${key}`).data;
    const r = a.multiHeadAttention(get(`${name}.Q`), get(`${name}.K`), get(`${name}.V`), options);
    assertClose(r.output.data, get(`${name}.output`).data, 1e-12, { label: `${name} output` });
    const stacked = new Float64Array(r.weights.flatMap((w) => Array.from(w.data)));
    assertClose(stacked, get(`${name}.weights`).data, 1e-12, { label: `${name} weights` });
    const r32 = a.multiHeadAttention(get(`${name}.Q`), get(`${name}.K`), get(`${name}.V`), {
      ...options,
      precision: 'float32',
    });
    assert.ok(r32.output.data instanceof Float32Array);
    assertClose(r32.output.data, get(`${name}.output`).data, 1e-5, { label: `${name} float32 output` });
  });
}

// ---- online softmax -----------------------------------------------------------------

for (const blockSize of [1, 3, 7, 10]) {
  for (const causal of [false, true]) {
    test(`onlineSoftmaxAttention matches NumPy: blockSize ${blockSize}${causal ? ', causal' : ''}`, () => {
      const p = `online.b${blockSize}${causal ? 'c' : 'n'}`;
      const r = a.onlineSoftmaxAttention(get('online.Q'), get('online.K'), get('online.V'), { blockSize, causal });
      assert.deepEqual([r.max.rows, r.max.cols], [5, Math.ceil(7 / blockSize)]);
      // -Infinity where no key was visible yet must match exactly; the rest relative.
      assertClose(r.max.data, get(`${p}.max`).data, 1e-12, { floor: STRICT_RELATIVE, label: `${p} max` });
      assertClose(r.sum.data, get(`${p}.sum`).data, 1e-12, { floor: STRICT_RELATIVE, label: `${p} sum` });
      assertClose(r.output.data, get(`${p}.output`).data, 1e-12, { label: `${p} output` });
    });
  }
}

test('onlineSoftmaxAttention output equals scaledDotProductAttention output (float64)', (t) => {
  const rand = generator(3306);
  const m = (rows, cols) => ({
    rows,
    cols,
    data: Float64Array.from({ length: rows * cols }, () => rand.next() * 6 - 3),
  });
  let worst = 0;
  for (const causal of [false, true]) {
    const [Q, K, V] = [m(24, 8), m(24, 8), m(24, 5)];
    const want = a.scaledDotProductAttention(Q, K, V, { causal }).output.data;
    for (const blockSize of [1, 2, 5, 24, 100]) {
      const got = a.onlineSoftmaxAttention(Q, K, V, { blockSize, causal }).output.data;
      for (let i = 0; i < got.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]));
    }
  }
  t.diagnostic(`max |online − sdpa| = ${worst}`);
  assert.ok(worst <= 1e-14, `max |online − sdpa| = ${worst}`);
});

test('rotaryEmbedding and onlineSoftmaxAttention are float64 only: Float32Array inputs give float64 results', () => {
  const x = f32(get('rope.half.x'));
  const out = a.rotaryEmbedding(x);
  assert.ok(out.data instanceof Float64Array);
  // The float32 inputs, exact in float64, rotated in float64: within float32 rounding of the reference.
  assertClose(out.data, get('rope.half.out').data, 1e-6, { label: 'rotated float32 input' });
  const r = a.onlineSoftmaxAttention(f32(get('online.Q')), f32(get('online.K')), f32(get('online.V')), {
    blockSize: 3,
  });
  assert.ok(r.output.data instanceof Float64Array && r.max.data instanceof Float64Array);
  assert.throws(() => a.rotaryEmbedding(x, { precision: 'float32' }), {
    name: 'TypeError',
    message: /unknown option 'precision'/,
  });
});

// ---- bad options ----------------------------------------------------------------------

const X = [
  [1, 2, 3, 4],
  [0, 1, 0, 1],
  [2, 0, 1, 1],
];
const W4 = [
  [1, 0, 0, 0],
  [0, 1, 0, 0],
  [0, 0, 1, 0],
  [0, 0, 0, 1],
];
const mha = (extra) => a.multiHeadAttention(X, X, X, { heads: 4, Wq: W4, Wk: W4, Wv: W4, Wo: W4, ...extra });
const sdpa = (options) => a.scaledDotProductAttention(X, X, X, options);
const online = (options) => a.onlineSoftmaxAttention(X, X, X, options);

testBadInputs(
  test,
  [
    ['window 0', () => sdpa({ causal: true, window: 0 }), RangeError, 'scaledDotProductAttention: options.window'],
    ['window negative', () => sdpa({ window: -2 }), RangeError, 'scaledDotProductAttention: options.window'],
    ['window not an integer', () => sdpa({ window: 1.5 }), RangeError, 'scaledDotProductAttention: options.window'],
    ['window a string', () => sdpa({ window: '2' }), TypeError, 'scaledDotProductAttention: options.window'],
    ['kvHeads not dividing heads', () => mha({ kvHeads: 3 }), RangeError, 'multiHeadAttention: options.kvHeads'],
    ['kvHeads 0', () => mha({ kvHeads: 0 }), RangeError, 'multiHeadAttention: options.kvHeads'],
    ['kvHeads above heads', () => mha({ kvHeads: 8 }), RangeError, 'multiHeadAttention: options.kvHeads'],
    ['Wk for every head with kvHeads 2', () => mha({ kvHeads: 2 }), RangeError, 'multiHeadAttention: Wk is 4x4'],
    ['blockSize 0', () => online({ blockSize: 0 }), RangeError, 'onlineSoftmaxAttention: options.blockSize'],
    ['blockSize missing', () => online({}), TypeError, 'onlineSoftmaxAttention: options.blockSize'],
    ['blockSize 2.5', () => online({ blockSize: 2.5 }), RangeError, 'onlineSoftmaxAttention: options.blockSize'],
    [
      'online causal not boolean',
      () => online({ blockSize: 1, causal: 1 }),
      TypeError,
      'onlineSoftmaxAttention: options.causal',
    ],
    [
      'online K/V mismatch',
      () => a.onlineSoftmaxAttention(X, X, [[1]], { blockSize: 1 }),
      RangeError,
      'onlineSoftmaxAttention: K has 3 rows but V has 1',
    ],
    [
      'odd width',
      () => a.rotaryEmbedding([[1, 2, 3]]),
      RangeError,
      'rotaryEmbedding: X is 1x3 but its width must be even',
    ],
    [
      'unknown pairing',
      () => a.rotaryEmbedding(X, { pairing: 'pairs' }),
      RangeError,
      'rotaryEmbedding: options.pairing',
    ],
    [
      'unknown rope_type',
      () => a.rotaryEmbedding(X, { scaling: { rope_type: 'yarn', factor: 2 } }),
      RangeError,
      'rotaryEmbedding: options.scaling.rope_type',
    ],
    [
      'llama3 missing a key',
      () => a.rotaryEmbedding(X, { scaling: { rope_type: 'llama3', factor: 8 } }),
      TypeError,
      'rotaryEmbedding: options.scaling.low_freq_factor',
    ],
    [
      'linear with a llama3 key',
      () => a.rotaryEmbedding(X, { scaling: { rope_type: 'linear', factor: 2, low_freq_factor: 1 } }),
      TypeError,
      "rotaryEmbedding: unknown option 'low_freq_factor' in options.scaling",
    ],
    [
      'positions length mismatch',
      () => a.rotaryEmbedding(X, { positions: [0, 1] }),
      RangeError,
      'rotaryEmbedding: options.positions has 2 entries but X has 3 rows',
    ],
    [
      'negative position',
      () => a.rotaryEmbedding(X, { positions: [0, -1, 2] }),
      RangeError,
      'rotaryEmbedding: options.positions[1]',
    ],
    ['base a string', () => a.rotaryEmbedding(X, { base: '1e4' }), TypeError, 'rotaryEmbedding: options.base'],
    ['X holding NaN', () => a.rotaryEmbedding([[1, NaN]]), RangeError, 'rotaryEmbedding: X'],
    [
      'a rotation that overflows',
      () => a.rotaryEmbedding([[1.7e308, 1.7e308]], { positions: [1] }),
      RangeError,
      'rotaryEmbedding: entry (0, ',
    ],
    ['base 1', () => a.rotaryEmbedding(X, { base: 1 }), RangeError, 'rotaryEmbedding: options.base must be a finite'],
    [
      'linear factor below 1',
      () => a.rotaryEmbedding(X, { scaling: { rope_type: 'linear', factor: 0.5 } }),
      RangeError,
      'rotaryEmbedding: options.scaling.factor',
    ],
    [
      'llama3 high_freq_factor below low_freq_factor',
      () =>
        a.rotaryEmbedding(X, {
          scaling: {
            rope_type: 'llama3',
            factor: 8,
            low_freq_factor: 4,
            high_freq_factor: 1,
            original_max_position_embeddings: 8192,
          },
        }),
      RangeError,
      'rotaryEmbedding: options.scaling needs 0 < low_freq_factor < high_freq_factor',
    ],
  ],
  () => {
    const r = a.onlineSoftmaxAttention(get('online.Q'), get('online.K'), get('online.V'), { blockSize: 3 });
    assertClose(r.output.data, get('online.b3n.output').data, 1e-12);
  },
);
