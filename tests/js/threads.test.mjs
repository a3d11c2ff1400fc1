// openModel's and loadAttention's `threads` option in Node: checked like every
// option (TypeError for a wrong type, RangeError for a wrong value, naming the
// function and options.threads), and, Node being no cross-origin isolated page,
// one thread whatever is asked (m.threads), with the same logits as NumPy's
// reference (2e-5, tests/js/gpt2.test.mjs). The threaded module itself runs in
// Chromium: tests/browser/threads.test.mjs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { fixtureFiles } from './gpt2-files.js';
import { loadFixture, maxDifference } from './fixtures.js';

const a = await loadAttention({ trainers: false });
const ref = loadFixture('gpt2/expected.txt');
const ids = Array.from(ref.get('seq1.ids').data);

test('bad options.threads: TypeError or RangeError naming the function and option', async () => {
  const cases = [
    [0, RangeError],
    [17, RangeError],
    [1.5, RangeError],
    [NaN, RangeError],
    ['two', RangeError],
    ['', RangeError],
    [true, TypeError],
    [null, TypeError],
    [{}, TypeError],
    [2n, TypeError],
  ];
  for (const [threads, Kind] of cases) {
    await assert.rejects(a.openModel(fixtureFiles(), { threads }), (e) => {
      assert.ok(e instanceof Kind, `${String(threads)}: ${e}`);
      assert.match(e.message, /^openModel: options\.threads /);
      return true;
    });
    await assert.rejects(loadAttention({ threads }), (e) => {
      assert.ok(e instanceof Kind, `${String(threads)}: ${e}`);
      assert.match(e.message, /^loadAttention: options\.threads /);
      return true;
    });
  }
  // The module still works after them.
  const m = await a.openModel(fixtureFiles());
  assert.equal(m.threads, 1);
  m.delete();
});

test("Node gets one thread for threads: 2, 16 and 'auto', with NumPy's logits", async () => {
  assert.equal(globalThis.crossOriginIsolated, undefined);
  for (const threads of [2, 16, 'auto']) {
    const m = await a.openModel(fixtureFiles(), { threads });
    assert.equal(m.threads, 1);
    const { logits } = m.runIds(ids, { logits: true });
    assert.ok(maxDifference(logits, ref.get('seq1.logits').data) <= 2e-5);
    m.delete();
  }
  // loadAttention's threads is openModel's default; it too gives one thread here.
  await loadAttention({ trainers: false, threads: 4 });
  const m = await a.openModel(fixtureFiles());
  assert.equal(m.threads, 1);
  m.delete();
});
