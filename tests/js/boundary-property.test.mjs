// Seeded property test of the JS -> wasm boundary (issue 27): nothing a caller
// passes or mutates may make a call write outside its own buffers. Each case
// builds valid arguments for one operation, computes the clean result, then
// calls again with one hostility applied:
//
//   liar-long / liar-short  a Float64Array/Float32Array subclass whose `length` lies
//   grow / shrink / detach  a getter of another argument resizes or detaches this
//                           argument's buffer after it was measured
//   shared                  the data lives in a SharedArrayBuffer
//   pollute                 a key on Object.prototype (option names and 'foo')
//   mutate                  a Matrix whose rows or data were replaced after construction
//   spy-out                 options.out whose data's class overrides set()
//   delete                  a getter deletes the object whose method is running
//   none                    a valid call
//
// Allowed outcomes per hostility: the clean result exactly, or a TypeError /
// RangeError whose message starts with the function's name. Never a trap
// (WebAssembly.RuntimeError), never a non-Error throw; and the canaries
// (boundary-canaries.js) are unchanged: after every case a GloVe table still
// finds "teacher" with its vector and dot/dotScores give the notebook's
// numbers; after every third, also a RandomState stream goes on as NumPy's and
// two trainers save the same bytes (a corruption stays, so it is still seen).
// Object.prototype is always cleaned in `finally`. PROPERTY_SEED=n replays another run.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { makeCanaries } from './boundary-canaries.js';
import { generator } from './seeded.js';

const a = await loadAttention();
const canaries = await makeCanaries(a);
after(() => canaries.delete());
const SEED = Number(process.env.PROPERTY_SEED ?? 27027);
const CASES = 5000;
// Every case: dot, dotScores, the GloVe table; every third (and the last) also the RandomState
// stream (the NumPy fixture covers ~2,000 checks) and the trainers' checkpoints.
const FULL_CHECK_EVERY = 3;

// ---- argument forms ----------------------------------------------------------------
// A "slot" is one matrix argument: { rows, cols, numbers, form } turned into a value by
// build(); hostilities replace or wrap what build() makes.
const numbersFor = (g, n) => Array.from({ length: n }, () => g.int(-40, 40) / 8);

function build(slot, type = Float64Array) {
  const data = type.from(slot.numbers);
  switch (slot.form) {
    case 'rows':
      return Array.from({ length: slot.rows }, (_, r) => slot.numbers.slice(r * slot.cols, (r + 1) * slot.cols));
    case 'matrix':
      return new a.Matrix(slot.rows, slot.cols, data);
    default:
      return { rows: slot.rows, cols: slot.cols, data };
  }
}

const lying = (Base, length, real) =>
  new (class extends Base {
    get length() {
      return length;
    }
  })(real);

// ---- operations: clean arguments and the call --------------------------------------
// args(g) returns { slots, extra } (slots: matrix arguments; extra: other arguments) and
// call(values, extra) runs the operation on built values.
const matrixSlot = (g, rows, cols, forms = ['object', 'matrix', 'rows']) => ({
  rows,
  cols,
  numbers: numbersFor(g, rows * cols),
  form: g.pick(forms),
});

const OPERATIONS = [
  {
    fn: 'matmul',
    args: (g) => {
      const [m, k, n] = [g.int(1, 4), g.int(1, 4), g.int(1, 4)];
      return { slots: [matrixSlot(g, m, k), matrixSlot(g, k, n)], options: { m, n } };
    },
    call: ([x, y], options) => a.matmul(x, y, options),
  },
  {
    fn: 'attentionScores',
    args: (g) => {
      const d = g.int(1, 4);
      return { slots: [matrixSlot(g, g.int(1, 4), d), matrixSlot(g, g.int(1, 4), d)] };
    },
    call: ([q, k], options) => a.attentionScores(q, k, options),
  },
  {
    fn: 'scaledDotProductAttention',
    args: (g) => {
      const [nq, n, d, dv] = [g.int(1, 4), g.int(1, 4), g.int(1, 4), g.int(1, 4)];
      return { slots: [matrixSlot(g, nq, d), matrixSlot(g, n, d), matrixSlot(g, n, dv)] };
    },
    call: ([q, k, v], options) => a.scaledDotProductAttention(q, k, v, options),
  },
  {
    fn: 'multiHeadAttention',
    args: (g) => {
      const heads = g.int(1, 2);
      const d = heads * g.int(1, 2);
      const n = g.int(1, 3);
      const square = () => matrixSlot(g, d, d);
      return {
        slots: [matrixSlot(g, n, d), matrixSlot(g, n, d), matrixSlot(g, n, d), square(), square(), square(), square()],
        heads,
      };
    },
    call: ([q, k, v, Wq, Wk, Wv, Wo], options, { heads }) =>
      a.multiHeadAttention(q, k, v, { heads, Wq, Wk, Wv, Wo, ...options }),
  },
  {
    fn: 'dotScores',
    args: (g) => {
      const d = g.int(1, 4);
      return { slots: [matrixSlot(g, 1, d, ['object']), matrixSlot(g, g.int(1, 4), d)] };
    },
    vectorSlots: [0], // passed as its data alone
    call: ([q, k]) => a.dotScores(q.data ?? q, k),
  },
  {
    fn: 'concatScores',
    args: (g) => {
      const [n, h, k] = [g.int(1, 3), g.int(1, 3), g.int(1, 3)];
      return {
        slots: [
          matrixSlot(g, n, h),
          matrixSlot(g, 1, h, ['object']),
          matrixSlot(g, 2 * h, k),
          matrixSlot(g, 1, k, ['object']),
        ],
      };
    },
    call: ([enc, dec, W1, w2]) => a.concatScores(enc, dec, W1, w2),
  },
  {
    fn: 'Matrix',
    args: (g) => ({ slots: [matrixSlot(g, g.int(1, 4), g.int(1, 4), ['object'])] }),
    call: ([m]) => new a.Matrix(m.rows, m.cols, m.data),
  },
];

// ---- results as plain data -------------------------------------------------------------
function plain(value) {
  if (ArrayBuffer.isView(value)) return { type: value.constructor.name, values: Array.from(value) };
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

// ---- hostilities ----------------------------------------------------------------------
const POLLUTION_KEYS = [
  'causal',
  'mask',
  'precision',
  'scaled',
  'bq',
  'bo',
  'out',
  'heads',
  'foo',
  'seed',
  'encoding',
  'inFeatures',
  'hidden',
  'layers',
  'limit',
  'vocabulary',
  'dModel',
  'rows',
  'cols',
  'data',
];
const POLLUTION_VALUES = [true, 1, 7, 'float32', 'int12', [[0, 1]], [5, 5], null, { rows: 1, cols: 1, data: [1] }];

/** The slot to attack: one whose built value has a typed `data` (object or Matrix form). */
const typedSlots = (slots) => slots.map((s, i) => [s, i]).filter(([s]) => s.form !== 'rows');

/**
 * Applies hostility `kind` to the built `values` (in place). Returns what the call may give:
 * 'equal' (the clean result), 'error' (a TypeError/RangeError), or 'either'.
 */
function applyHostility(g, kind, op, slots, values, cleanup) {
  const targets = typedSlots(slots);
  if (targets.length === 0 && kind !== 'pollute' && kind !== 'none') return 'equal';
  const [slot, i] = targets.length ? g.pick(targets) : [null, -1];
  const n = slot ? slot.rows * slot.cols : 0;
  /** Installs a getter for `data` on another argument that runs `effect` on its first read. */
  const onOtherRead = (effect) => {
    const others = values
      .map((v, j) => j)
      .filter((j) => j !== i && !Array.isArray(values[j]) && !(values[j] instanceof a.Matrix));
    if (others.length === 0) return false;
    const j = g.pick(others);
    const data = values[j].data;
    let done = false;
    values[j] = {
      rows: values[j].rows,
      cols: values[j].cols,
      get data() {
        if (!done) {
          done = true;
          effect();
        }
        return data;
      },
    };
    return true;
  };
  const setData = (data) => {
    if (values[i] instanceof a.Matrix) values[i] = { rows: slot.rows, cols: slot.cols, data };
    else values[i].data = data;
  };
  switch (kind) {
    case 'liar-long': {
      const data = lying(Float64Array, n, n + g.int(1, 100000));
      data.set(slot.numbers);
      setData(data);
      return 'error';
    }
    case 'liar-short': {
      setData(lying(g.pick([Float64Array, Float32Array]), n, g.int(0, n - 1)));
      return 'error';
    }
    case 'grow':
    case 'shrink': {
      const buffer = new ArrayBuffer(8 * n, { maxByteLength: 8 * (n + 100000) });
      const tracking = new Float64Array(buffer);
      tracking.set(slot.numbers);
      setData(tracking);
      const moved = onOtherRead(() => buffer.resize(kind === 'grow' ? 8 * (n + 100000) : 0));
      return moved ? 'either' : 'equal';
    }
    case 'detach': {
      const data = Float64Array.from(slot.numbers);
      setData(data);
      return onOtherRead(() => structuredClone(data.buffer, { transfer: [data.buffer] })) ? 'either' : 'equal';
    }
    case 'shared': {
      const data = new Float64Array(new SharedArrayBuffer(8 * (n + 3)));
      data.set(slot.numbers);
      setData(data.subarray(0, n));
      return 'equal';
    }
    case 'mutate': {
      const m = new a.Matrix(slot.rows, slot.cols, Float64Array.from(slot.numbers));
      if (!op.vectorSlots?.includes(i) && g.next() < 0.5) m.rows = slot.rows + g.int(1, 1000);
      else m.data = new Float64Array(n + g.int(1, 100000));
      values[i] = m;
      return 'error';
    }
    case 'pollute': {
      const key = g.pick(POLLUTION_KEYS);
      if (!Object.hasOwn(Object.prototype, key)) {
        Object.prototype[key] = g.pick(POLLUTION_VALUES);
        cleanup.push(() => delete Object.prototype[key]);
      }
      return 'equal';
    }
    default:
      return 'equal';
  }
}

const KINDS = ['liar-long', 'liar-short', 'grow', 'shrink', 'detach', 'shared', 'mutate', 'pollute', 'pollute', 'none'];

/** Classifies what `run` did: { result } or { error }; throws at once for a trap or a non-Error. */
function outcome(run) {
  try {
    return { result: run() };
  } catch (error) {
    assert.ok(error instanceof Error, `a non-Error was thrown: ${String(error)}`);
    assert.ok(!(error instanceof WebAssembly.RuntimeError), `a wasm trap: ${error.message}`);
    return { error };
  }
}

function checkOutcome(got, expected, allowed, fn, label) {
  if (got.error) {
    assert.ok(allowed !== 'equal', `${label}: threw ${got.error.constructor.name}: ${got.error.message}`);
    assert.ok(
      got.error instanceof TypeError || got.error instanceof RangeError,
      `${label}: ${got.error.constructor.name}: ${got.error.message}`,
    );
    assert.ok(got.error.message.startsWith(fn), `${label}: message does not start with ${fn}: ${got.error.message}`);
    return got.error instanceof TypeError ? 'TypeError' : 'RangeError';
  }
  assert.ok(allowed !== 'error', `${label}: returned where an error was due`);
  assert.deepEqual(plain(got.result), expected, `${label}: a different result`);
  return 'result';
}

/** Cases on wasm-backed objects: a getter deletes the object mid-call; must be our TypeError. */
function deleteCase(g) {
  if (g.next() < 0.5) {
    const rs = new a.RandomState(g.int(0, 1000));
    const got = outcome(() =>
      rs.randn(2, 2, {
        get out() {
          rs.delete();
          return undefined;
        },
      }),
    );
    assert.equal(got.error?.message, 'RandomState.randn: this RandomState was deleted');
    return 'TypeError';
  }
  const table = a.embeddingsFromBinary(gloveBinary);
  const tokens = ['the'];
  Object.defineProperty(tokens, 1, {
    enumerable: true,
    get() {
      table.delete();
      return 'of';
    },
  });
  const got = outcome(() => table.lookup(tokens));
  assert.equal(got.error?.message, 'Embeddings.lookup: this Embeddings was deleted');
  return 'TypeError';
}

/** options.out whose data's class overrides set(): the result lands, the override never sees the heap. */
function spyOutCase(g) {
  const [m, k, n] = [g.int(1, 3), g.int(1, 3), g.int(1, 3)];
  const x = build(matrixSlot(g, m, k, ['object']));
  const y = build(matrixSlot(g, k, n, ['object']));
  let received;
  const Spy = class extends Float64Array {
    set(source, offset) {
      received = source;
      super.set(source, offset);
    }
  };
  const out = new a.Matrix(m, n, new Spy(m * n));
  const want = plain(a.matmul(x, y).data.slice());
  a.matmul(x, y, { out });
  assert.deepEqual(Array.from(out.data), want.values);
  assert.equal(received, undefined, 'a subclass set() received a view of the heap');
  return 'result';
}

const gloveText = 'the 1 2\nof 3 4\nteacher 5 6\n';
const source = await a.loadEmbeddings(gloveText);
const gloveBinary = source.toBinary();
source.delete();

test(`${CASES} hostile calls: zero corrupted canaries, zero traps, zero non-Error throws`, (t) => {
  const g = generator(SEED);
  const counts = { result: 0, TypeError: 0, RangeError: 0 };
  const byKind = {};
  for (let c = 0; c < CASES; c++) {
    const special = g.next();
    let seen;
    let kind;
    const cleanup = [];
    try {
      if (special < 0.04) {
        kind = 'delete';
        seen = deleteCase(g);
      } else if (special < 0.08) {
        kind = 'spy-out';
        seen = spyOutCase(g);
      } else {
        const op = g.pick(OPERATIONS);
        const { slots, ...extra } = op.args(g);
        const expected = plain(
          op.call(
            slots.map((s) => build(s)),
            undefined,
            extra,
          ),
        );
        kind = g.pick(KINDS);
        const values = slots.map((s) => build(s));
        const allowed = applyHostility(g, kind, op, slots, values, cleanup);
        const got = outcome(() => op.call(values, undefined, extra));
        seen = checkOutcome(got, expected, allowed, op.fn, `case ${c} (${op.fn}, ${kind}, seed ${SEED})`);
      }
    } finally {
      for (const undo of cleanup) undo();
    }
    counts[seen]++;
    byKind[kind] = (byKind[kind] ?? 0) + 1;
    canaries.check(`case ${c} (${kind})`, { full: c % FULL_CHECK_EVERY === 0 || c === CASES - 1 });
  }
  assert.equal(Object.keys(Object.prototype).length, 0, 'Object.prototype was left polluted');
  t.diagnostic(`seed ${SEED}: ${CASES} cases, ${JSON.stringify(counts)}; by hostility ${JSON.stringify(byKind)}`);
  assert.equal(counts.result + counts.TypeError + counts.RangeError, CASES);
});
