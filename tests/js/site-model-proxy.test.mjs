// The model chapter's proxy (lesson-kit/model-proxy.js) over its host
// (lesson-kit/model-host.js), here on the same thread (the page's fallback, the
// same messages a worker gets): the proxy answers what the model answers, its
// errors are the model's classes and messages, options' callbacks and signals
// travel, delete() ends it, and the host's source stands alone (the site's
// worker is made of it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { modelHost } from '../../web/src/site/lesson-kit/model-host.js';
import { openModelOffThread } from '../../web/src/site/lesson-kit/model-proxy.js';
import { fixtureFiles } from './gpt2-files.js';

const a = await loadAttention();
const ids = [5, 17, 40, 3];

test('the proxy answers as the model: config, family, run, runIds, tokenizer.encode, explainHead (matrices are Matrix)', async () => {
  const model = await a.openModel(fixtureFiles());
  const proxy = await openModelOffThread(a, {}, fixtureFiles());
  try {
    assert.equal(proxy.offThread, false, 'no worker here: on the page');
    assert.deepEqual(proxy.config, model.config);
    assert.equal(proxy.family, model.family);
    const want = model.runIds(ids, { k: 3, logits: true });
    const got = await proxy.runIds(ids, { k: 3, logits: true });
    assert.deepEqual(got.next, want.next);
    assert.deepEqual(Array.from(got.logits), Array.from(want.logits));
    assert.ok(got.attentions[1][0] instanceof a.Matrix);
    assert.deepEqual(Array.from(got.attentions[1][0].data), Array.from(want.attentions[1][0].data));
    assert.deepEqual((await proxy.tokenizer.encode('the cat')).ids, model.tokenizer.encode('the cat').ids);
    assert.deepEqual((await proxy.run('the cat')).tokens, model.run('the cat').tokens);
    const head = await proxy.explainHead('the cat sat', { layer: 1, head: 1 });
    const wantHead = await model.explainHead('the cat sat', { layer: 1, head: 1 });
    assert.ok(head.q instanceof a.Matrix);
    assert.deepEqual(Array.from(head.q.data), Array.from(wantHead.q.data));
  } finally {
    model.delete();
    proxy.delete();
  }
});

test('errors come back as the model’s class and message; the proxy keeps working', async () => {
  const model = await a.openModel(fixtureFiles());
  const proxy = await openModelOffThread(a, {}, fixtureFiles());
  try {
    for (const [args, ErrorClass] of [
      [[[1, 2], { k: 0 }], RangeError],
      [['not ids'], TypeError],
      [[[1, 2], { k: 'many' }], TypeError],
    ]) {
      let want;
      try {
        model.runIds(...args);
      } catch (error) {
        want = error;
      }
      assert.ok(want instanceof ErrorClass);
      await assert.rejects(proxy.runIds(...args), (error) => {
        assert.ok(error instanceof ErrorClass, `${error.name}: ${error.message}`);
        assert.equal(error.message, want.message);
        return true;
      });
    }
    assert.equal((await proxy.runIds(ids)).ids.length, ids.length);
    await assert.rejects(openModelOffThread(a, {}, { 'config.json': new Uint8Array(1) }), (error) => {
      assert.ok(error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError);
      assert.match(error.message, /^openModel: /);
      return true;
    });
  } finally {
    model.delete();
    proxy.delete();
  }
});

test('callbacks and signals of the options travel: onProgress reports, an abort rejects with AbortError', async () => {
  const seen = [];
  const proxy = await openModelOffThread(a, {}, fixtureFiles(), { onProgress: (p) => seen.push(p) });
  proxy.delete();
  assert.ok(seen.length > 0, 'progress reported');
  assert.ok(seen.every((p) => Number.isFinite(p.loaded) && Number.isFinite(p.total)));
  assert.equal(seen.at(-1).loaded, seen.at(-1).total);
  const controller = new AbortController();
  const opening = openModelOffThread(a, {}, fixtureFiles(), { signal: controller.signal });
  controller.abort();
  await assert.rejects(opening, { name: 'AbortError' });
});

test('delete() ends the model: later calls reject with a TypeError, a second delete does nothing', async () => {
  const proxy = await openModelOffThread(a, {}, fixtureFiles());
  assert.equal(proxy.deleted, false);
  proxy.delete();
  proxy.delete();
  assert.equal(proxy.deleted, true);
  await assert.rejects(proxy.runIds(ids), { name: 'TypeError', message: 'runIds: this model was deleted' });
});

test('the host stands alone: rebuilt from its source text it answers a call', async () => {
  const rebuilt = new Function(`return (${modelHost.toString()})`)();
  const posted = [];
  let third;
  const answered = new Promise((ok) => (third = ok));
  const handle = rebuilt(
    (m) => posted.push(m) === 3 && third(),
    () => Promise.resolve(a.openModel),
  );
  assert.equal(handle({ type: 'model:ping' }), true);
  assert.deepEqual(posted, [{ type: 'model:ready' }]);
  assert.equal(handle({ type: 'start' }), false, 'not a model message: left to the lesson worker');
  handle({ type: 'model:call', id: 1, method: 'openModel', args: [fixtureFiles()] });
  handle({ type: 'model:call', id: 2, method: 'runIds', args: [ids, { k: 2 }] });
  await answered;
  assert.equal(posted[1].type, 'model:result');
  assert.ok(posted[1].value.methods.includes('runIds') && posted[1].value.methods.includes('tokenizer.encode'));
  assert.equal(posted[2].type, 'model:result');
  assert.equal(posted[2].value.next.length, 2);
  assert.equal(posted[2].value.attentions[0][0].__attentionLab, 'matrix');
  handle({ type: 'model:call', id: 3, method: 'delete', args: [] });
});

test('generate through the proxy: the same tokens, onToken called per step, an abort ends it with AbortError', async () => {
  const model = await a.openModel(fixtureFiles());
  const proxy = await openModelOffThread(a, {}, fixtureFiles());
  try {
    const options = { maxTokens: 5, temperature: 0.8, seed: 7, stop: [] };
    const want = await model.generateIds([5, 17], options);
    const seen = [];
    const got = await proxy.generateIds([5, 17], { ...options, onToken: (step) => seen.push(step.id) });
    assert.deepEqual(got.ids, want.ids);
    assert.deepEqual(got.tokens, want.tokens);
    assert.equal(got.text, want.text);
    assert.deepEqual(seen, want.ids);
    const controller = new AbortController();
    const stopped = proxy.generateIds([5, 17], {
      maxTokens: 8,
      stop: [],
      signal: controller.signal,
      onToken: () => controller.abort(), // after the first token
    });
    await assert.rejects(stopped, { name: 'AbortError' });
    assert.equal((await proxy.runIds(ids)).ids.length, ids.length, 'the proxy keeps working');
  } finally {
    model.delete();
    proxy.delete();
  }
});
