// The training engine shared by the NMT and trained-Transformer chapters
// (web/src/site/lesson-kit/nmt-engine.js), driven as the worker drives it: its
// messages for both models (ready, translation, progress, pause, errors).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { createEngine } from '../../web/src/site/lesson-kit/nmt-engine.js';

/** An engine whose posted messages are collected; `next(type)` waits for the next one of a type. */
function harness() {
  const messages = [];
  const waiting = [];
  const post = (m) => {
    messages.push(m);
    for (const w of waiting.splice(0)) {
      if (w.type === m.type) w.resolve(m);
      else waiting.push(w);
    }
  };
  const engine = createEngine(loadAttention, post, { chunk: 2 });
  const next = (type) => new Promise((resolve) => waiting.push({ type, resolve }));
  return { engine, messages, next };
}

const tiny = { task: 'reverse', layers: 1, heads: 2, dModel: 8, dFF: 16, batch: 4 };

test('transformer: ready (with the positional encoding), translation maps for every layer and head, training, pause', async () => {
  const { engine, next, messages } = harness();
  const ready = next('ready');
  const translated = next('translation');
  await engine({ type: 'init', model: 'transformer', options: tiny, input: '123' });
  const r = await ready;
  assert.equal(r.model, 'transformer');
  assert.equal(r.options.heads, 2);
  assert.equal(r.positionalEncoding.cols, 8);
  const t = await translated;
  assert.equal(t.input, '123');
  for (const use of ['encoderSelf', 'decoderSelf', 'cross']) {
    assert.equal(t[use].length, 1, `${use}: one layer`);
    assert.equal(t[use][0].length, 2, `${use}: two heads`);
  }
  assert.equal(t.encoderSelf[0][0].rows, 3);
  assert.equal(t.cross[0][1].cols, 3);
  assert.equal(t.cross[0][1].rows, t.output.length + 1);
  const progress = next('progress');
  await engine({ type: 'start' });
  const p = await progress;
  assert.ok(p.steps >= 2 && Number.isFinite(p.loss) && p.loss > 0, JSON.stringify(p));
  assert.ok(p.trainingSeconds > 0);
  const paused = next('progress');
  await engine({ type: 'pause' });
  const q = await paused;
  assert.ok(q.accuracy >= 0 && q.accuracy <= 1);
  await engine({ type: 'stop' });
  assert.equal(messages.filter((m) => m.type === 'error').length, 0);
});

test('rnn (the default model): translation has one attention map; a bad input is a translation-error, not an error', async () => {
  const { engine, next } = harness();
  const translated = next('translation');
  await engine({ type: 'init', options: { task: 'reverse', hidden: 8, embedding: 4, batch: 4 }, input: '12' });
  const t = await translated;
  assert.equal(t.attention.cols, 2);
  assert.ok(!('cross' in t));
  const failed = next('translation-error');
  await engine({ type: 'translate', input: '1x' });
  const e = await failed;
  assert.equal(e.input, '1x');
  assert.match(e.message, /translate/);
  await engine({ type: 'stop' });
});

test('bad options come back as an error message naming the option', async () => {
  const { engine, next } = harness();
  const error = next('error');
  await engine({ type: 'init', model: 'transformer', options: { heads: 0 }, input: '1' });
  assert.match((await error).message, /heads/);
});

test('start with `until` trains to exactly that step, pauses by itself, and gives the model a fresh trainer has after as many steps', async () => {
  const { engine, next, messages } = harness();
  const options = { task: 'reverse', hidden: 8, embedding: 4, batch: 4, seed: 3 };
  const ready = next('ready');
  await engine({ type: 'init', options, input: '123' });
  await ready;
  const isPause = (m) => m.type === 'progress' && m.paused;
  await engine({ type: 'start', until: 7 }); // 7 steps in slices of 2: 2, 2, 2, 1
  while (!messages.some(isPause)) await next('progress');
  const paused = messages.find(isPause);
  assert.equal(paused.steps, 7);
  assert.ok(paused.accuracy >= 0 && paused.accuracy <= 1);
  const progress = messages.filter((m) => m.type === 'progress' && !m.paused).map((m) => m.steps);
  assert.deepEqual(progress, [2, 4, 6, 7], 'no step past `until`');
  // The same model as a trainer trained 7 steps in one call: the same held-out accuracy and translation.
  const translated = next('translation');
  await engine({ type: 'translate', input: '1234' });
  const viaEngine = await translated;
  const api = await loadAttention();
  const direct = new api.Seq2SeqTrainer(options);
  try {
    direct.train(7);
    assert.equal(direct.evaluate(200), paused.accuracy);
    assert.deepEqual(Array.from(direct.translate('1234').attention.data), Array.from(viaEngine.attention.data));
  } finally {
    direct.delete();
  }
  await engine({ type: 'stop' });
});

test('transformer: each translation carries the baseline, the same options and seed untrained, also after training', async () => {
  const { engine, next, messages } = harness();
  const options = { ...tiny, seed: 5 };
  const first = next('translation');
  await engine({ type: 'init', model: 'transformer', options, input: '1234' });
  const before = await first;
  const isPause = (m) => m.type === 'progress' && m.paused;
  await engine({ type: 'start', until: 4 });
  while (!messages.some(isPause)) await next('progress');
  const paused = messages.findIndex(isPause);
  const after = messages.slice(paused).find((m) => m.type === 'translation') ?? (await next('translation'));
  const api = await loadAttention();
  const fresh = new api.TransformerTrainer(options); // the reference: a trainer nobody trained
  try {
    const r = fresh.translate('1234');
    for (const message of [before, after]) {
      assert.equal(message.baseline.output, r.output);
      for (const use of ['encoderSelf', 'decoderSelf', 'cross']) {
        r[use].forEach((heads, layer) =>
          heads.forEach((m, head) =>
            assert.deepEqual(
              Array.from(message.baseline[use][layer][head].data),
              Array.from(m.data),
              `${use} ${layer} ${head}`,
            ),
          ),
        );
      }
    }
    // The trained model's own maps moved away from it.
    assert.notDeepEqual(Array.from(after.cross[0][0].data), Array.from(r.cross[0][0].data));
  } finally {
    fresh.delete();
  }
  await engine({ type: 'stop' });
});
