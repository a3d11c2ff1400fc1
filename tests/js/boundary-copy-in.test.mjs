// Issue 27, "heap corruption" and "out-of-bounds traps": arrays whose reported
// size is not their real size, buffers resized or detached between the check
// and the copy, and public fields replaced after construction. Each call must
// give the right result or throw a TypeError/RangeError naming the function,
// and never write outside its own buffers: the canaries (boundary-canaries.js)
// are unchanged after every case.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { makeCanaries } from './boundary-canaries.js';

const a = await loadAttention();
const canaries = await makeCanaries(a);
after(() => canaries.delete());

/** A Float64Array/Float32Array subclass whose `length` says 4, holding `real` entries. */
const lyingF64 = (real) =>
  new (class extends Float64Array {
    get length() {
      return 4;
    }
  })(real).fill(0.5);
const lyingF32 = (real) =>
  new (class extends Float32Array {
    get length() {
      return 4;
    }
  })(real).fill(0.5);
const BIG = 400000;
const eye = { rows: 2, cols: 2, data: new Float64Array([1, 0, 0, 1]) };
const liar = () => ({ rows: 2, cols: 2, data: lyingF64(BIG) });

/** Runs `call`: it must throw an Error of `ErrorClass` starting with `fn`, then the canaries must hold. */
function refused(call, ErrorClass, fn) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof ErrorClass, `${error?.constructor?.name}: ${error?.message}`);
    assert.ok(error.message.startsWith(fn), error.message);
    return true;
  });
  canaries.check(fn);
}

test('a {rows, cols, data} whose Float64Array says length 4 but holds 400,000 is refused everywhere', () => {
  const ones = new a.Matrix(2, 2, new Float64Array([1, 1, 1, 1]));
  refused(() => a.matmul(liar(), eye), RangeError, 'matmul');
  refused(() => a.attentionScores(liar(), eye), RangeError, 'attentionScores');
  refused(() => a.scaledDotProductAttention(eye, eye, liar()), RangeError, 'scaledDotProductAttention');
  refused(() => a.scaledDotProductAttention(eye, eye, eye, { mask: liar() }), RangeError, 'scaledDotProductAttention');
  refused(
    () => a.multiHeadAttention(eye, eye, eye, { heads: 1, Wq: liar(), Wk: eye, Wv: eye, Wo: eye }),
    RangeError,
    'multiHeadAttention',
  );
  refused(() => a.dotScores([1, 2], liar()), RangeError, 'dotScores');
  refused(() => a.dot(lyingF64(BIG), [1, 2, 3, 4]), RangeError, 'dot');
  refused(() => new a.Matrix(2, 2, lyingF64(BIG)), RangeError, 'Matrix');
  refused(() => a.matmul(ones, ones, { out: { rows: 2, cols: 2, data: lyingF64(1) } }), RangeError, 'matmul');
});

test('the float32 path and concatScores refuse a lying Float32Array', () => {
  const liar32 = { rows: 2, cols: 2, data: lyingF32(BIG) };
  const eye32 = { rows: 2, cols: 2, data: new Float32Array([1, 0, 0, 1]) };
  refused(() => a.matmul(liar32, eye32), RangeError, 'matmul');
  refused(() => a.attentionScores(liar32, eye32, { precision: 'float32' }), RangeError, 'attentionScores');
  refused(() => a.scaledDotProductAttention(eye32, eye32, liar32), RangeError, 'scaledDotProductAttention');
  refused(
    () => a.concatScores(eye, [1, 2], { rows: 4, cols: 1, data: lyingF64(BIG) }, [1]),
    RangeError,
    'concatScores',
  );
});

test("a resizable buffer grown by another argument's getter between the check and the copy: only the checked entries are read", () => {
  const buffer = new ArrayBuffer(32, { maxByteLength: 8 * BIG });
  const tracking = new Float64Array(buffer); // follows the buffer's length
  tracking.set([1, 2, 3, 4]);
  let reads = 0;
  const growing = {
    rows: 2,
    cols: 2,
    get data() {
      if (++reads === 1) buffer.resize(8 * BIG); // read after `tracking` was measured
      return new Float64Array([1, 0, 0, 1]);
    },
  };
  const product = a.matmul({ rows: 2, cols: 2, data: tracking }, growing);
  assert.deepEqual(Array.from(product.data), [1, 2, 3, 4]);
  assert.equal(buffer.byteLength, 8 * BIG);
  canaries.check('matmul with a growing buffer');
});

test("a buffer detached by another argument's getter mid-call is a RangeError, not a read of freed memory", () => {
  const buffer = new ArrayBuffer(32);
  new Float64Array(buffer).set([1, 2, 3, 4]);
  let reads = 0;
  const detaching = {
    rows: 2,
    cols: 2,
    get data() {
      if (++reads === 1) structuredClone(buffer, { transfer: [buffer] });
      return new Float64Array([1, 0, 0, 1]);
    },
  };
  refused(
    () => a.attentionScores({ rows: 2, cols: 2, data: new Float64Array(buffer) }, detaching),
    RangeError,
    'attentionScores',
  );
});

test("options.out: a subclass's own set() never receives a view of the wasm heap", () => {
  let received;
  class Spy extends Float64Array {
    set(source, offset) {
      received = source;
      super.set(source, offset);
    }
  }
  const out = new a.Matrix(2, 2, new Spy(4));
  a.matmul(eye, { rows: 2, cols: 2, data: new Float64Array([1, 2, 3, 4]) }, { out });
  assert.deepEqual(Array.from(out.data), [1, 2, 3, 4]);
  assert.equal(received, undefined);
  canaries.check('matmul into a Spy');
});

test('SharedArrayBuffer-backed inputs are copied once, exactly their entries', () => {
  const shared = new Float64Array(new SharedArrayBuffer(8 * 6));
  shared.set([1, 2, 3, 4, 99, 99]);
  const m = a.matmul({ rows: 2, cols: 2, data: shared.subarray(0, 4) }, eye);
  assert.deepEqual(Array.from(m.data), [1, 2, 3, 4]);
  canaries.check('matmul of shared memory');
});

test('createAdditiveAttention: params cannot be replaced or reshaped, so forward copies what was checked', () => {
  const att = a.createAdditiveAttention({ inFeatures: 3, hiddenFeatures: 4, seed: 1 });
  const x = [
    [1, 2, 3],
    [4, 5, 6],
  ];
  const before = att.forward(x, x).scores;
  assert.throws(() => {
    att.params.Ws.weight.data = new Float64Array(BIG);
  }, TypeError);
  assert.throws(() => {
    att.params.Ws.weight = { rows: 1, cols: 4, data: new Float64Array(BIG) };
  }, TypeError);
  assert.throws(() => {
    att.params = {};
  }, TypeError);
  assert.deepEqual(att.forward(x, x).scores, before);
  canaries.check('AdditiveAttention.forward');
});

test('createTrainableAttention: weight.rows = 1 or a replaced data cannot reach forward (was: memory access out of bounds)', () => {
  const att = a.createTrainableAttention({ inFeatures: 3, outFeatures: 2, seed: 1 });
  const x = [
    [1, 2, 3],
    [4, 5, 6],
  ];
  const before = att.forward(x, x).output;
  assert.throws(() => {
    att.params.Wq.weight.rows = 1;
  }, TypeError);
  assert.throws(() => {
    att.params.Wq.weight.data = new Float64Array(BIG);
  }, TypeError);
  assert.throws(() => {
    att.inFeatures = 1;
  }, TypeError);
  assert.deepEqual(att.forward(x, x).output, before);
  canaries.check('TrainableAttention.forward');
});
