// Issue 27: no caller-controlled heap addresses, and a delete() done by a
// getter in the middle of a call is a TypeError naming the object (not
// Embind's "Cannot pass deleted object as a pointer of type ...").
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { makeCanaries } from './boundary-canaries.js';

const a = await loadAttention();
const canaries = await makeCanaries(a);
after(() => canaries.delete());

test('no wasm-backed object hands out its Embind object (whose methods take heap addresses)', async () => {
  const objects = [
    new a.RandomState(1),
    await a.loadEmbeddings('the 1 2\n'),
    new a.Seq2SeqTrainer(),
    new a.TransformerTrainer(),
  ];
  for (const object of objects) {
    const kind = object.constructor.name;
    assert.equal('raw' in object, false, `${kind}.raw`);
    object.delete();
  }
  // The RandomState of the issue: raw("x").randn({ data: 8, rows: 100000, cols: 1 }).
  const rs = new a.RandomState(0);
  assert.throws(() => rs.raw('x').randn({ data: 8, rows: 100000, cols: 1 }), TypeError);
  rs.delete();
  assert.equal(Object.keys(a).includes('rawOf'), false);
  canaries.check('raw');
});

/** `body(object)` where a getter deletes `object` mid-call: a TypeError "<Class>.<method>: this <Class> was deleted". */
function deletedMidCall(object, kind, method, call) {
  assert.throws(
    () => call(() => object.delete()),
    (error) => {
      assert.ok(error instanceof TypeError, `${error?.constructor?.name}: ${error?.message}`);
      assert.equal(error.message, `${kind}.${method}: this ${kind} was deleted`);
      return true;
    },
  );
  assert.equal(object.deleted, true);
  canaries.check(`${kind}.${method}`);
}

test('Embeddings.lookup: a token getter that deletes the table', async () => {
  const e = await a.loadEmbeddings('the 1 2\nof 3 4\n');
  deletedMidCall(e, 'Embeddings', 'lookup', (remove) => {
    const tokens = ['the'];
    Object.defineProperty(tokens, 1, {
      enumerable: true,
      get() {
        remove();
        return 'of';
      },
    });
    return e.lookup(tokens);
  });
});

test('Embeddings.toBinary: an options getter that deletes the table', async () => {
  const e = await a.loadEmbeddings('the 1 2\nof 3 4\n');
  deletedMidCall(e, 'Embeddings', 'toBinary', (remove) =>
    e.toBinary({
      get encoding() {
        remove();
        return 'float32';
      },
    }),
  );
  const f = await a.loadEmbeddings('the 1 2\n');
  deletedMidCall(f, 'Embeddings', 'toBinary', (remove) =>
    f.toBinary({
      get info() {
        remove();
        return 'x';
      },
    }),
  );
});

test('RandomState.randn: an options getter that deletes the generator', () => {
  const rs = new a.RandomState(3);
  deletedMidCall(rs, 'RandomState', 'randn', (remove) =>
    rs.randn(2, 2, {
      get out() {
        remove();
        return undefined;
      },
    }),
  );
});
