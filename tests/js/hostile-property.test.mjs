// Seeded property test (issue: hostile input never breaks the runtime): random
// shapes, sizes, types and values thrown at every exported function and class.
// Each call must either return a correct result (checked against a plain JS
// reference where one is short to write, else against invariants) or throw an
// Error of the right class whose message starts with the function's name:
//
//   only wrong JS types among the arguments          → TypeError
//   only wrong values or shapes (types all right)    → RangeError
//   both                                             → either, whichever is checked first
//
// Never a non-Error throw, a wasm trap (RuntimeError, abort) or a hang; and
// dot([5,1,20],[3,12,45]) is still 927 at the end. The counts are printed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { generator } from './seeded.js';

const a = await loadAttention();
const SEED = Number(process.env.PROPERTY_SEED ?? 20261122); // PROPERTY_SEED=n replays another run
const CASES_PER_FUNCTION = 500;

// ---- arguments, tagged with what they are -----------------------------------------
// Each argument is { value, kind } with kind 'ok', 'type' (a wrong JS type) or
// 'value' (the right type holding a wrong value or shape).
const ok = (value) => ({ value, kind: 'ok' });
const badType = (value) => ({ value, kind: 'type' });
const badValue = (value) => ({ value, kind: 'value' });

const WRONG_TYPES = [
  () => null,
  () => 'abc',
  () => 42,
  () => true,
  () => Symbol('s'),
  () => 10n,
  () => () => 1,
  () => new Map(),
  () => Promise.resolve(1),
];

function randomNumbers(g, count) {
  return Array.from({ length: count }, () => Math.round((g.next() * 2 - 1) * 8 * 1000) / 1000);
}

/** A valid matrix of the given shape, in one of the accepted forms. */
function matrixForm(g, rows, cols, numbers = randomNumbers(g, rows * cols)) {
  const form = g.int(0, 3);
  if (form === 0) return Array.from({ length: rows }, (_, r) => numbers.slice(r * cols, (r + 1) * cols));
  if (form === 1) return { rows, cols, data: Float64Array.from(numbers) };
  if (form === 2) return new a.Matrix(rows, cols, Float64Array.from(numbers));
  return { rows, cols, data: numbers };
}

/** A broken matrix argument: a wrong type, or the right type with a wrong value or shape. */
function brokenMatrix(g, rows, cols) {
  const choices = [
    () => badType(g.pick(WRONG_TYPES)()),
    () => badType([[1, 'x']].concat(Array.from({ length: rows - 1 }, () => [1, 2]))),
    () => badType({ rows: String(rows), cols, data: new Float64Array(rows * cols) }),
    () => badType({ rows, cols, data: 'abcd' }),
    // eslint-disable-next-line no-sparse-arrays
    () => badType([[1, , 3]]),
    () => badValue([]),
    () => badValue([[1, 2], [3]]),
    () => badValue({ rows: -1, cols, data: [] }),
    () => badValue({ rows: 1.5, cols: 2, data: [1, 2, 3] }),
    () => badValue({ rows: 2 ** 40, cols: 2 ** 40, data: new Float64Array(4) }),
    () => badValue({ rows, cols, data: new Float64Array(rows * cols + 1) }),
    () =>
      badValue(
        matrixForm(
          g,
          rows,
          cols,
          Array.from({ length: rows * cols }, (_, i) => (i === 0 ? NaN : 1)),
        ),
      ),
    () =>
      badValue(
        matrixForm(
          g,
          rows,
          cols,
          Array.from({ length: rows * cols }, () => Infinity),
        ),
      ),
    () => badValue(matrixForm(g, rows + g.int(1, 3), cols + g.int(1, 3))), // a shape the others disagree with
    // Finite but huge: products may overflow (a RangeError naming the score) or not (a correct result).
    () => ({
      value: matrixForm(
        g,
        rows,
        cols,
        randomNumbers(g, rows * cols).map((x) => x * 2e307),
      ),
      kind: 'large',
    }),
  ];
  return g.pick(choices)();
}

function brokenVector(g, length, { sizeMatters = true } = {}) {
  const choices = [
    () => badType(g.pick(WRONG_TYPES)()),
    () => badType(['1', 2, 3].slice(0, Math.max(1, length))),
    // eslint-disable-next-line no-sparse-arrays
    () => badType([1, , 3]),
    () => badValue([]),
    () => badValue(Array.from({ length }, () => NaN)),
    () => badValue(Array.from({ length }, () => Infinity)),
    () => badValue(new Array(2 ** 32 - 1)), // sparse and huge: refused before allocating, naming the argument
  ];
  if (sizeMatters) choices.push(() => badValue(randomNumbers(g, length + g.int(1, 4))));
  return g.pick(choices)();
}

/** With probability p, one argument of `args` is replaced by a broken one. */
function maybeBreak(g, args, breakers, p = 0.6) {
  if (!g.chance(p)) return args;
  const i = g.int(0, args.length - 1);
  const copy = args.slice();
  copy[i] = breakers[i](g);
  return copy;
}

function brokenOptions(g, known) {
  const choices = [
    () => badType(g.pick(WRONG_TYPES)()),
    () => badType({ [`${g.pick(known)}x`]: 1 }), // a typo
    () => badType({ ['__proto__']: 1, constructor: 2 }),
  ];
  return g.pick(choices)();
}

// ---- references ------------------------------------------------------------------
const close = (x, y, tol = 1e-9) => Math.abs(x - y) <= tol * Math.max(1, Math.abs(x), Math.abs(y));
const asRows = (m) => {
  if (Array.isArray(m)) return m.map((r) => Array.from(r));
  const { rows, cols, data } = m;
  return Array.from({ length: rows }, (_, r) => Array.from(data).slice(r * cols, (r + 1) * cols));
};
const refMatmul = (A, B) => A.map((row) => B[0].map((_, j) => row.reduce((s, x, k) => s + x * B[k][j], 0)));
const refDot = (x, y) => x.reduce((s, v, i) => s + v * y[i], 0);
function refSoftmax(x) {
  const m = Math.max(...x);
  const e = x.map((v) => Math.exp(v - m));
  const s = e.reduce((p, q) => p + q, 0);
  return e.map((v) => v / s);
}
function assertMatrixClose(got, want, what, tol = 1e-9) {
  assert.equal(got.rows, want.length, `${what}: rows`);
  assert.equal(got.cols, want[0].length, `${what}: cols`);
  want.flat().forEach((w, i) => assert.ok(close(got.data[i], w, tol), `${what}[${i}] = ${got.data[i]}, want ${w}`));
}
function assertRowsAreWeights(m, what) {
  for (let r = 0; r < m.rows; r++) {
    const row = Array.from(m.data.slice(r * m.cols, (r + 1) * m.cols));
    const sum = row.reduce((p, q) => p + q, 0);
    assert.ok(
      row.every((w) => w >= 0 && w <= 1),
      `${what} row ${r} has entries outside [0, 1]`,
    );
    assert.ok(close(sum, 1, 1e-12) || sum === 0, `${what} row ${r} sums to ${sum}`);
  }
}

// Python's str.split() separators: Unicode white space plus the ASCII separators \x1c-\x1f and NEL.
// eslint-disable-next-line no-control-regex -- Python splits on these ASCII separators
const PYTHON_WHITESPACE = new RegExp('[\\s\\x1c-\\x1f\\x85]+', 'u');

// ---- the functions -------------------------------------------------------------
// Each entry builds valid arguments (or breaks one), calls, and checks a result.
const FUNCTIONS = {
  dot(g) {
    const n = g.int(1, 6);
    const args = maybeBreak(
      g,
      [ok(randomNumbers(g, n)), ok(randomNumbers(g, n))],
      [(h) => brokenVector(h, n), (h) => brokenVector(h, n)],
    );
    return { args, call: (x, y) => a.dot(x, y), check: (r, [x, y]) => assert.ok(close(r, refDot(x, y))) };
  },
  dotScores(g) {
    const n = g.int(1, 5);
    const d = g.int(1, 5);
    const args = maybeBreak(
      g,
      [ok(randomNumbers(g, d)), ok(matrixForm(g, n, d))],
      [(h) => brokenVector(h, d), (h) => brokenMatrix(h, n, d)],
    );
    return {
      args,
      call: (q, k) => a.dotScores(q, k),
      check: (r, [q, k]) => asRows(k).forEach((row, i) => assert.ok(close(r[i], refDot(q, row)))),
    };
  },
  softmax(g) {
    const n = g.int(1, 8);
    const args = maybeBreak(
      g,
      [ok(randomNumbers(g, n).map((x) => x * 100))],
      [(h) => brokenVector(h, n, { sizeMatters: false })],
    );
    return {
      args,
      call: (x) => a.softmax(x),
      check: (r, [x]) => refSoftmax(x).forEach((w, i) => assert.ok(close(r[i], w, 1e-12))),
    };
  },
  logSoftmax(g) {
    const n = g.int(1, 8);
    const args = maybeBreak(g, [ok(randomNumbers(g, n))], [(h) => brokenVector(h, n, { sizeMatters: false })]);
    return {
      args,
      call: (x) => a.logSoftmax(x),
      check: (r, [x]) => refSoftmax(x).forEach((w, i) => assert.ok(close(r[i], Math.log(w), 1e-12))),
    };
  },
  naiveSoftmax(g) {
    const n = g.int(1, 8);
    const args = maybeBreak(g, [ok(randomNumbers(g, n))], [(h) => brokenVector(h, n, { sizeMatters: false })]);
    return {
      args,
      call: (x) => a.naiveSoftmax(x),
      check: (r, [x]) => refSoftmax(x).forEach((w, i) => assert.ok(close(r[i], w, 1e-12))),
    };
  },
  weightedSum(g) {
    const n = g.int(1, 5);
    const d = g.int(1, 5);
    const args = maybeBreak(
      g,
      [ok(randomNumbers(g, n)), ok(matrixForm(g, n, d))],
      [(h) => brokenVector(h, n), (h) => brokenMatrix(h, n, d)],
    );
    return {
      args,
      call: (w, v) => a.weightedSum(w, v),
      check: (r, [w, v]) => refMatmul([w], asRows(v))[0].forEach((x, i) => assert.ok(close(r[i], x))),
    };
  },
  scaleRows(g) {
    const n = g.int(1, 5);
    const d = g.int(1, 5);
    const args = maybeBreak(
      g,
      [ok(randomNumbers(g, n)), ok(matrixForm(g, n, d))],
      [(h) => brokenVector(h, n), (h) => brokenMatrix(h, n, d)],
    );
    return {
      args,
      call: (w, v) => a.scaleRows(w, v),
      check: (r, [w, v]) =>
        assertMatrixClose(
          r,
          asRows(v).map((row, i) => row.map((x) => x * w[i])),
          'scaleRows',
        ),
    };
  },
  matmul(g) {
    const [m, k, n] = [g.int(1, 6), g.int(1, 6), g.int(1, 6)];
    const args = maybeBreak(
      g,
      [ok(matrixForm(g, m, k)), ok(matrixForm(g, k, n))],
      [(h) => brokenMatrix(h, m, k), (h) => brokenMatrix(h, k, n)],
    );
    return {
      args,
      call: (x, y) => a.matmul(x, y),
      check: (r, [x, y]) => assertMatrixClose(r, refMatmul(asRows(x), asRows(y)), 'matmul'),
    };
  },
  attentionScores(g) {
    const [nq, nk, d] = [g.int(1, 5), g.int(1, 5), g.int(1, 5)];
    const scaled = g.chance(0.5);
    const args = maybeBreak(
      g,
      [ok(matrixForm(g, nq, d)), ok(matrixForm(g, nk, d)), ok({ scaled })],
      [(h) => brokenMatrix(h, nq, d), (h) => brokenMatrix(h, nk, d), (h) => brokenOptions(h, ['scaled'])],
    );
    return {
      args,
      call: (q, k, o) => a.attentionScores(q, k, o),
      check: (r, [q, k]) => {
        const kt = asRows(k)[0].map((_, j) => asRows(k).map((row) => row[j]));
        const want = refMatmul(asRows(q), kt).map((row) => row.map((x) => (scaled ? x / Math.sqrt(d) : x)));
        assertMatrixClose(r, want, 'attentionScores');
      },
    };
  },
  scaledDotProductAttention(g) {
    const [nq, nk, d, dv] = [g.int(1, 5), g.int(1, 5), g.int(1, 5), g.int(1, 4)];
    const causal = nq === nk && g.chance(0.3);
    const mask = g.chance(0.3)
      ? Array.from({ length: nq }, () => Array.from({ length: nk }, () => g.int(0, 1)))
      : undefined;
    const args = maybeBreak(
      g,
      [ok(matrixForm(g, nq, d)), ok(matrixForm(g, nk, d)), ok(matrixForm(g, nk, dv)), ok({ causal, mask })],
      [
        (h) => brokenMatrix(h, nq, d),
        (h) => brokenMatrix(h, nk, d),
        (h) => brokenMatrix(h, nk, dv),
        (h) =>
          h.pick([
            () => brokenOptions(h, ['causal', 'mask']),
            () => badType({ causal: 'yes' }),
            () => badValue({ mask: Array.from({ length: nq }, () => Array.from({ length: nk }, () => 0.5)) }),
          ])(),
      ],
    );
    return {
      args,
      call: (q, k, v, o) => a.scaledDotProductAttention(q, k, v, o),
      check: (r, [, , v]) => {
        assertRowsAreWeights(r.weights, 'weights');
        assertMatrixClose(r.output, refMatmul(asRows(r.weights), asRows(v)), 'output = weights · V');
        if (causal) for (let i = 0; i < nq; i++) for (let j = i + 1; j < nk; j++) assert.equal(r.weights.get(i, j), 0);
      },
    };
  },
  multiHeadAttention(g) {
    const heads = g.int(1, 3);
    const dModel = heads * g.int(1, 2);
    const [nq, nk] = [g.int(1, 4), g.int(1, 4)];
    const W = () => matrixForm(g, dModel, dModel);
    const b = () => randomNumbers(g, dModel);
    const options = { heads, Wq: W(), Wk: W(), Wv: W(), Wo: W(), bq: b(), bk: b(), bv: b(), bo: b() };
    const args = maybeBreak(
      g,
      [ok(matrixForm(g, nq, dModel)), ok(matrixForm(g, nk, dModel)), ok(matrixForm(g, nk, dModel)), ok(options)],
      [
        (h) => brokenMatrix(h, nq, dModel),
        (h) => brokenMatrix(h, nk, dModel),
        (h) => brokenMatrix(h, nk, dModel),
        (h) =>
          h.pick([
            () => brokenOptions(h, Object.keys(options)),
            () => badType({ ...options, heads: '2' }),
            () => badValue({ ...options, heads: h.pick([0, -1, 1.5, 2 ** 32 + 1, 1e308, NaN, dModel + 1]) }),
            () => {
              const broken = brokenMatrix(h, dModel, dModel);
              return { kind: broken.kind, value: { ...options, [h.pick(['Wq', 'Wk', 'Wv', 'Wo'])]: broken.value } };
            },
          ])(),
      ],
    );
    return {
      args,
      call: (q, k, v, o) => a.multiHeadAttention(q, k, v, o),
      check: (r) => {
        assert.equal(r.weights.length, heads);
        r.weights.forEach((w, i) => assertRowsAreWeights(w, `head ${i}`));
        assert.ok(r.output.data.every(Number.isFinite));
      },
    };
  },
  concatScores(g) {
    const [n, h, at] = [g.int(1, 4), g.int(1, 4), g.int(1, 4)];
    const args = maybeBreak(
      g,
      [ok(matrixForm(g, n, h)), ok(randomNumbers(g, h)), ok(matrixForm(g, 2 * h, at)), ok(randomNumbers(g, at))],
      [
        (x) => brokenMatrix(x, n, h),
        (x) => brokenVector(x, h),
        (x) => brokenMatrix(x, 2 * h, at),
        (x) => brokenVector(x, at),
      ],
    );
    return {
      args,
      call: (e, s, w1, w2) => a.concatScores(e, s, w1, w2),
      check: (r, [e, s, w1, w2]) =>
        asRows(e).forEach((hi, i) => {
          const hidden = refMatmul([hi.concat(s)], asRows(w1))[0].map(Math.tanh);
          assert.ok(close(r[i], refDot(hidden, w2)));
        }),
    };
  },
  concatAttention(g) {
    const [n, h, at] = [g.int(1, 4), g.int(1, 4), g.int(1, 4)];
    const args = maybeBreak(
      g,
      [ok(matrixForm(g, n, h)), ok(randomNumbers(g, h)), ok(matrixForm(g, 2 * h, at)), ok(randomNumbers(g, at))],
      [
        (x) => brokenMatrix(x, n, h),
        (x) => brokenVector(x, h),
        (x) => brokenMatrix(x, 2 * h, at),
        (x) => brokenVector(x, at),
      ],
    );
    return {
      args,
      call: (e, s, w1, w2) => a.concatAttention(e, s, w1, w2),
      check: (r) => {
        const sum = Array.from(r.weights).reduce((p, q) => p + q, 0);
        assert.ok(close(sum, 1, 1e-12), `weights sum to ${sum}`);
      },
    };
  },
  tokenize(g) {
    const pieces = ['a', ' ', '\t', '\u00a0', '\u2028', 'é', '\uD800', '\uDC00', '😀', 'word', '\n'];
    const text = Array.from({ length: g.int(0, 12) }, () => g.pick(pieces)).join('');
    const notString = WRONG_TYPES.filter((make) => typeof make() !== 'string');
    const args = g.chance(0.3) ? [badType(g.pick(notString)())] : [ok(text)];
    return {
      args,
      call: (s) => a.tokenize(s),
      check: (r, [s]) => {
        const want = s.toWellFormed().split(PYTHON_WHITESPACE).filter(Boolean);
        assert.deepEqual(r, want);
      },
    };
  },
  RandomState(g) {
    const seed = g.int(0, 2 ** 32 - 1);
    const method = g.pick(['randn', 'rand', 'randint']);
    const [rows, cols] = [g.int(1, 4), g.int(1, 4)];
    const broken = g.int(0, 3);
    const args = [
      broken === 0 ? g.pick([badType('1'), badValue(-1), badValue(2 ** 32), badValue(1.5), badValue(NaN)]) : ok(seed),
      broken === 1
        ? g.pick([badType('2'), badValue(-3), badValue(2 ** 40)]) /* 0 rows: NumPy's empty draw */
        : ok(rows),
      broken === 2 ? g.pick([badType(null), badValue(0.5), badValue(Infinity)]) : ok(cols),
    ];
    return {
      args,
      call: (s, r, c) => {
        const rs = new a.RandomState(s);
        try {
          return method === 'randint' ? rs.randint(0, 10, r, c) : rs[method](r, c);
        } finally {
          rs.delete();
        }
      },
      check: (m) => {
        assert.equal(m.rows * m.cols, rows * cols);
        assert.ok(m.data.every(Number.isFinite));
      },
      name: 'RandomState',
    };
  },
  Matrix(g) {
    const [rows, cols] = [g.int(0, 3), g.int(0, 3)];
    const choice = g.int(0, 5);
    const args = [
      choice === 0
        ? g.pick([badType('2'), badType(null)])
        : choice === 1
          ? g.pick([badValue(1.5), badValue(-1), badValue(2 ** 53)])
          : ok(rows),
      ok(cols),
      choice === 2
        ? g.pick([badType('abcd'), badType([1, 2])])
        : choice === 3
          ? badValue(new Float64Array(rows * cols + 1))
          : ok(new Float64Array(rows * cols)),
    ];
    return {
      args,
      call: (r, c, d) => {
        const m = new a.Matrix(r, c, d);
        if (r > 0 && c > 0) {
          assert.throws(() => m.get(0, c), RangeError); // out of range never reads a neighbour
          assert.throws(() => m.get(r, 0), RangeError);
        }
        return m;
      },
      check: (m) => assert.equal(m.data.length, rows * cols),
    };
  },
  createTrainableAttention(g) {
    const inFeatures = g.int(1, 6);
    const outFeatures = g.int(1, 6);
    const options = g.pick([
      () => ok({ inFeatures, outFeatures, seed: g.int(0, 1000) }),
      () => brokenOptions(g, ['inFeatures', 'outFeatures', 'seed']),
      () => badType({ inFeatures: String(inFeatures) }),
      () => badValue({ inFeatures: g.pick([0, -1, 1.5, NaN, 2 ** 40]) }),
      () => badValue({ seed: g.pick([-1, 2 ** 33, NaN]) }),
    ])();
    const n = g.int(1, 4);
    return {
      args: [options],
      name: 'createTrainableAttention|TrainableAttention',
      call: (o) => a.createTrainableAttention(o).forward(matrixForm(g, n, inFeatures), matrixForm(g, n, inFeatures)),
      check: (r) => assertRowsAreWeights(r.weights, 'weights'),
    };
  },
  createAdditiveAttention(g) {
    const inFeatures = g.int(1, 6);
    const options = g.pick([
      () => ok({ inFeatures, hiddenFeatures: g.int(1, 6), seed: g.int(0, 1000) }),
      () => brokenOptions(g, ['inFeatures', 'hiddenFeatures', 'seed']),
      () => badType({ hiddenFeatures: [3] }),
      () => badValue({ hiddenFeatures: g.pick([0, 1e9, -2]) }),
    ])();
    return {
      args: [options],
      name: 'createAdditiveAttention|AdditiveAttention',
      call: (o) => a.createAdditiveAttention(o).forward(matrixForm(g, 2, inFeatures), matrixForm(g, 3, inFeatures)),
      check: (r) => assertRowsAreWeights(r.weights, 'weights'),
    };
  },
  embeddingsFromBinary(g) {
    const good = embeddingsBytes;
    const args = [
      g.pick([
        () => ok(good),
        () => badType(g.pick(WRONG_TYPES)()),
        () => badType(Array.from(good.slice(0, 10))),
        () => badValue(good.slice(0, g.int(0, good.length - 1))),
        () => {
          const bytes = good.slice();
          // A size field changed (count, dim, word bytes, info bytes). (Flipping the encoding
          // field from float32 to int16 or int12 can give another valid file of the same size.)
          bytes[g.int(12, 27)] ^= 1 << g.int(0, 7);
          return badValue(bytes);
        },
      ])(),
    ];
    return {
      args,
      call: (b) => {
        const t = a.embeddingsFromBinary(b);
        try {
          return Array.from(t.vector('b'));
        } finally {
          t.delete();
        }
      },
      check: (v) => assert.deepEqual(v, [3, 4]),
    };
  },
  Seq2SeqTrainer(g) {
    const options = {
      task: g.pick(['dates', 'reverse', 'sort']),
      hidden: g.int(1, 6),
      embedding: g.int(1, 4),
      batch: g.int(1, 3),
    };
    const opt = g.pick([
      () => ok(options),
      () => brokenOptions(g, Object.keys(options)),
      () => badType({ ...options, hidden: '8' }),
      () => badType({ ...options, task: 7 }),
      () => badValue({ ...options, task: 'shuffle' }),
      () => badValue({ ...options, attention: 'luong' }),
      () => badValue({ ...options, hidden: g.pick([0, 257, 2 ** 31, 1.5, NaN]) }),
      () => badValue({ ...options, learningRate: g.pick([0, -1, 2, NaN, Infinity]) }),
      () => badValue({ ...options, seed: g.pick([-1, 2 ** 32, 0.5]) }),
    ])();
    const input = g.pick([
      () => ok(options.task === 'dates' ? '21 November 2026' : '123'),
      () => badType(g.pick([null, 12, ['1']])),
      () => badValue(''),
      () => badValue('9'.repeat(g.int(41, 100))),
      () => badValue('21 nov\u00e9 2026'),
      () => badValue('\uD800'),
    ])();
    const steps = g.pick([() => ok(g.int(1, 2)), () => badType('1'), () => badValue(g.pick([0, -1, 1.5, 1e9, NaN]))])();
    return {
      args: [opt, input, steps],
      call: (o, text, n) => {
        const t = new a.Seq2SeqTrainer(o);
        try {
          const { loss } = t.train(n);
          const copy = a.Seq2SeqTrainer.load(t.save());
          const first = t.translate(text);
          const second = copy.translate(text);
          copy.delete();
          return { loss, first, second };
        } finally {
          t.delete();
        }
      },
      check: (r) => {
        assert.ok(Number.isFinite(r.loss) && r.loss > 0, `loss ${r.loss}`);
        for (const translation of [r.first, r.second]) {
          // (The checkpoint keeps float32 weights, so the copy's numbers differ in the last digits.)
          assert.equal(typeof translation.output, 'string');
          assertRowsAreWeights(translation.attention, 'translation attention');
        }
      },
      name: 'Seq2SeqTrainer',
    };
  },
  TransformerTrainer(g) {
    const options = {
      task: g.pick(['dates', 'reverse', 'sort']),
      layers: 1,
      heads: g.pick([1, 2]),
      dModel: 4,
      dFF: g.int(1, 8),
      batch: g.int(1, 3),
    };
    const opt = g.pick([
      () => ok(options),
      () => brokenOptions(g, Object.keys(options)),
      () => badType({ ...options, layers: '1' }),
      () => badValue({ ...options, dModel: g.pick([3, 0, 1e9, -2, 1.5]) }),
      () => badValue({ ...options, heads: 3 }), // does not divide d_model
      () => badValue({ ...options, schedule: 'cosine' }),
      () => badValue({ ...options, labelSmoothing: g.pick([1, -0.1, NaN]) }),
    ])();
    const input = g.pick([
      () => ok(options.task === 'dates' ? '21 November 2026' : '123'),
      () => badType(g.pick([null, 12, ['1']])),
      () => badValue(''),
      () => badValue('9'.repeat(g.int(41, 100))),
      () => badValue('\uD800'),
    ])();
    return {
      args: [opt, input],
      call: (o, text) => {
        const t = new a.TransformerTrainer(o);
        try {
          const { losses } = t.train(1);
          const copy = a.TransformerTrainer.load(t.save());
          const translation = t.translate(text);
          copy.delete();
          return { losses, translation };
        } finally {
          t.delete();
        }
      },
      check: (r) => {
        assert.ok(r.losses.every((l) => Number.isFinite(l) && l > 0));
        const { encoderSelf, decoderSelf, cross, output, ...perLayer } = r.translation;
        assert.equal(typeof output, 'string');
        for (const layers of [encoderSelf, decoderSelf, cross])
          for (const heads of layers) heads.forEach((m, h) => assertRowsAreWeights(m, `head ${h}`));
        // The queries and keys the maps came from, and their projections' x, W and b: finite,
        // one Matrix per layer of each use.
        for (const perUse of Object.values(perLayer))
          for (const [use, layers] of Object.entries(perUse))
            layers.forEach((m, l) => assert.ok(m.data.every(Number.isFinite), `${use} layer ${l}`));
      },
      name: 'TransformerTrainer',
    };
  },
  'Seq2SeqTrainer.load'(g) {
    const bytes = g.pick([
      () => badType(g.pick(WRONG_TYPES)()),
      () => badType(Array.from(checkpoint.slice(0, 8))),
      () => badValue(new Uint8Array(0)),
      () => badValue(checkpoint.slice(0, g.int(1, checkpoint.length - 1))),
      () => {
        const b = checkpoint.slice();
        b[g.int(0, b.length - 1)] ^= 1 << g.int(0, 7); // magic, version, sizes, weights or checksum
        return badValue(b);
      },
      () => ok(checkpoint.slice().buffer),
    ])();
    return {
      args: [bytes],
      call: (b) => {
        const t = a.Seq2SeqTrainer.load(b);
        try {
          return t.steps;
        } finally {
          t.delete();
        }
      },
      check: (steps) => assert.equal(steps, 1),
    };
  },
  Embeddings(g) {
    const method = g.pick(['has', 'vector', 'lookup', 'toBinary']);
    const arg = {
      has: () =>
        g.pick([() => ok(g.pick(['a', 'B', 'zz', '\uD800', ''])), () => badType(g.pick(WRONG_TYPES.slice(2))())]),
      vector: () => g.pick([() => ok(g.pick(['a', 'b', 'nope'])), () => badType(g.pick([null, 3, ['a']]))]),
      lookup: () =>
        g.pick([
          () => ok(['a', 'zz', 'b'].slice(0, g.int(0, 3))),
          () => badType('a'),
          () => badType(['a', 3]),
          // eslint-disable-next-line no-sparse-arrays
          () => badType([, 'x']),
        ]),
      toBinary: () =>
        g.pick([
          () => ok({ encoding: g.pick(['float32', 'int16', 'int12']) }),
          () => badValue({ encoding: g.pick(['toString', '__proto__', 'constructor', 'float64', 'int8']) }),
          () => badType({ encodings: 'int16' }),
          () => badType({ info: 5 }),
        ]),
    }[method]()();
    return {
      args: [arg],
      call: (x) => sharedTable[method](x),
      check: (r, [x]) => {
        if (method === 'has') assert.equal(r, x.toLowerCase() === 'a' || x.toLowerCase() === 'b');
        if (method === 'vector') assert.deepEqual(r && Array.from(r), { a: [1, 2], b: [3, 4] }[x]);
        if (method === 'lookup') assert.deepEqual(r.missing, x.includes('zz') ? ['zz'] : []);
        if (method === 'toBinary') assert.ok(r instanceof Uint8Array && r.length > 28);
      },
      name: 'Embeddings',
    };
  },
  // Last, so the functions above keep their random cases.
  rotaryEmbedding(g) {
    const [T, d] = [g.int(1, 4), 2 * g.int(1, 3)];
    // Positions always given, so a matrix of another shape is always wrong (rows, or an odd width).
    const positions = Array.from({ length: T }, () => g.int(0, 1000));
    const options = { positions, pairing: g.pick(['half', 'interleaved']), base: g.pick([10000, 500]) };
    const args = maybeBreak(
      g,
      [ok(matrixForm(g, T, d)), ok(options)],
      [
        (h) => brokenMatrix(h, T, d), // another shape: rows that disagree with positions
        (h) =>
          h.pick([
            () => brokenOptions(h, Object.keys(options)),
            () => badType({ ...options, pairing: 1 }),
            () => badValue({ ...options, pairing: 'pairs' }),
            () => badValue({ ...options, positions: positions.concat([1]) }),
            () => badValue({ ...options, positions: positions.map(() => h.pick([-1, 1.5, 2 ** 31, NaN])) }),
            () => badValue({ ...options, base: h.pick([1, 0, -5, NaN, Infinity]) }),
            () => badValue({ ...options, scaling: { rope_type: 'linear', factor: h.pick([0.5, 0, NaN]) } }),
            () => badValue({ ...options, scaling: { rope_type: 'yarn', factor: 2 } }),
            () => badType({ ...options, scaling: { rope_type: 'llama3', factor: 8 } }),
          ])(),
      ],
    );
    return {
      args,
      call: (x, o) => a.rotaryEmbedding(x, o),
      check: (r, [x]) => {
        // A rotation keeps each pair's length, so each row's norm.
        const rows = asRows(x);
        assert.equal(r.rows, rows.length);
        rows.forEach((row, i) => {
          // Norms of rows scaled by their largest entry (huge inputs would overflow hypot).
          const scale = Math.max(...row.map(Math.abs)) || 1;
          const norm = (xs) => Math.hypot(...xs.map((x) => x / scale));
          const [got, want] = [norm(Array.from(r.data.slice(i * r.cols, (i + 1) * r.cols))), norm(row)];
          assert.ok(close(got, want, 1e-12), `row ${i}: norm ${got}, want ${want} (× ${scale})`);
        });
      },
    };
  },
  onlineSoftmaxAttention(g) {
    const [nq, nk, d, dv] = [g.int(1, 5), g.int(1, 5), g.int(1, 5), g.int(1, 4)];
    const options = { blockSize: g.int(1, 6), causal: g.chance(0.5) };
    const args = maybeBreak(
      g,
      [ok(matrixForm(g, nq, d)), ok(matrixForm(g, nk, d)), ok(matrixForm(g, nk, dv)), ok(options)],
      [
        (h) => brokenMatrix(h, nq, d),
        (h) => brokenMatrix(h, nk, d),
        (h) => brokenMatrix(h, nk, dv),
        (h) =>
          h.pick([
            () => brokenOptions(h, Object.keys(options)),
            () => badType({ ...options, blockSize: '2' }),
            () => badType({ ...options, causal: 1 }),
            () => badValue({ ...options, blockSize: h.pick([0, -1, 1.5, 2 ** 31, NaN, Infinity]) }),
          ])(),
      ],
    );
    return {
      args,
      call: (q, k, v, o) => a.onlineSoftmaxAttention(q, k, v, o),
      check: (r, [q, k, v]) => {
        const want = a.scaledDotProductAttention(q, k, v, { causal: options.causal }).output;
        assertMatrixClose(r.output, asRows(want), 'output = scaledDotProductAttention output', 1e-12);
        assert.equal(r.max.cols, Math.ceil(asRows(k).length / options.blockSize));
        assert.ok(r.sum.data.every((s) => s === 0 || s >= 1)); // ℓ counts exp(0) = 1 for the maximum
      },
    };
  },
};

const sharedTable = await a.loadEmbeddings('a 1 2\nb 3 4\n');
const embeddingsBytes = sharedTable.toBinary();
const checkpoint = (() => {
  const t = new a.Seq2SeqTrainer({ hidden: 3, embedding: 2, batch: 2, seed: 5 });
  t.train(1);
  const bytes = t.save();
  t.delete();
  return bytes;
})();

function expectedClass(args) {
  const kinds = new Set(args.map((x) => x.kind));
  if (kinds.has('large') && kinds.size <= 2 && [...kinds].every((k) => k === 'ok' || k === 'large')) return ['either']; // an overflow error or a correct result
  if (kinds.has('type') && kinds.has('value')) return [TypeError, RangeError];
  if (kinds.has('type')) return [TypeError];
  if (kinds.has('value')) return [RangeError];
  return [];
}

test(`property: ${CASES_PER_FUNCTION} seeded random cases for each of ${Object.keys(FUNCTIONS).length} exported functions and classes`, (t) => {
  const g = generator(SEED);
  const counts = { cases: 0, results: 0, clearErrors: 0, traps: 0, nonErrors: 0, overflows: 0, largeResults: 0 };
  const failures = [];
  for (const [name, make] of Object.entries(FUNCTIONS)) {
    for (let i = 0; i < CASES_PER_FUNCTION; i++) {
      const spec = make(g);
      const values = spec.args.map((x) => x.value);
      const expected = expectedClass(spec.args);
      const where = `${name} case ${i} (${spec.args.map((x) => x.kind).join(', ')})`;
      counts.cases++;
      let result;
      let thrown;
      try {
        result = spec.call(...values);
      } catch (error) {
        thrown = error;
      }
      try {
        if (thrown === undefined) {
          counts.results++;
          if (expected.length > 0 && expected[0] !== 'either')
            throw new Error(`returned a result for ${spec.args.map((x) => x.kind)} arguments`);
          if (expected[0] === 'either') counts.largeResults++;
          spec.check(result, values);
        } else if (!(thrown instanceof Error)) {
          counts.nonErrors++;
          throw new Error(`threw a non-Error: ${String(thrown)}`);
        } else if (thrown instanceof WebAssembly.RuntimeError || /Aborted|memory access/.test(thrown.message)) {
          counts.traps++;
          throw new Error(`wasm trap: ${thrown.message}`);
        } else {
          const prefix = new RegExp(`^(${spec.name ?? name})(\\.\\w+)?: `);
          if (!prefix.test(thrown.message)) throw new Error(`message does not name the function: ${thrown.message}`);
          if (expected.length === 0) throw new Error(`valid arguments threw ${thrown.name}: ${thrown.message}`);
          if (expected[0] === 'either') {
            if (!(thrown instanceof RangeError) || !/overflows float(64|32)/.test(thrown.message))
              throw new Error(`huge inputs threw ${thrown.name}: ${thrown.message}`);
            counts.overflows++;
            counts.clearErrors++;
            continue;
          }
          if (!expected.some((E) => thrown.constructor === E))
            throw new Error(
              `threw ${thrown.name} (${thrown.message}), expected ${expected.map((E) => E.name).join(' or ')}`,
            );
          counts.clearErrors++;
        }
      } catch (problem) {
        failures.push(`${where}: ${problem.message}`);
      }
    }
  }
  t.diagnostic(
    `cases ${counts.cases}, correct results ${counts.results}, clear errors ${counts.clearErrors} ` +
      `(overflow errors ${counts.overflows}; huge inputs with a result ${counts.largeResults}), ` +
      `wasm traps ${counts.traps}, non-Error throws ${counts.nonErrors}`,
  );
  assert.equal(a.dot([5, 1, 20], [3, 12, 45]), 927);
  const byFunction = {};
  for (const f of failures) byFunction[f.split(' ')[0]] = (byFunction[f.split(' ')[0]] ?? 0) + 1;
  const firstOfEach = Object.keys(byFunction).map((fn) => failures.find((f) => f.startsWith(`${fn} `)));
  assert.deepEqual({ byFunction, firstOfEach }, { byFunction: {}, firstOfEach: [] });
  assert.equal(counts.traps, 0);
  assert.equal(counts.nonErrors, 0);
});
