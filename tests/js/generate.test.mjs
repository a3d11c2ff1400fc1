// m.generate / m.generateIds (web/src/api/model/causal_model.js, the core's KV
// cache) on GPT-2 and every rotary fixture (tests/fixtures/<family>/): greedy
// generation equals the argmax loop over runIds with full recomputation (ids
// identical; each step's attention rows equal the last rows of runIds' maps
// within 1e-6 absolute; pModel equals runIds' probability within 1e-6); a
// sampled token's p equals softmax(logits / temperature) of runIds' logits,
// computed here in float64 and renormalised over the candidates (1e-5); seeds
// repeat; topK 1 and a tiny topP are greedy; stop ids, abort, deletion, every
// bad option; BERT has no generate.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../dist/lib/index.js';
import { bertFiles } from './bert-files.js';
import { fixtureFiles } from './gpt2-files.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const ROTARY = ['llama', 'qwen2', 'qwen3', 'gemma3'];
const FAMILIES = ['gpt2', ...ROTARY];

/** A fixture folder's Hugging Face files (not make.py, expected.txt or model-* variants). */
function folder(family) {
  if (family === 'gpt2') return fixtureFiles();
  const names = readdirSync(join(ROOT, family)).filter(
    (n) => !['make.py', 'expected.txt', '__pycache__', 'README.md'].includes(n) && !n.startsWith('model-'),
  );
  return Object.fromEntries(names.map((n) => [n, new Uint8Array(readFileSync(join(ROOT, family, n)))]));
}

const a = await loadAttention();
const positionsOf = (m) => m.config.n_positions ?? m.config.max_position_embeddings;
const vocabOf = (m) => m.config.vocab_size;
const PROMPT = [5, 17, 42];

/** The next token's greedy choice and its last attention rows by full recomputation. */
function fullStep(m, context) {
  const r = m.runIds(context, { k: 1, logits: true });
  const T = context.length;
  const rows = r.attentions.map((heads) => heads.map((map) => map.data.slice((T - 1) * T, T * T)));
  return { id: r.next[0].id, p: r.next[0].p, logits: r.logits, rows };
}

function maxRowDifference(got, want) {
  let worst = 0;
  want.forEach((heads, l) =>
    heads.forEach((row, h) => {
      assert.equal(got[l][h].length, row.length, `layer ${l} head ${h}: row length`);
      assert.ok(got[l][h] instanceof Float32Array);
      for (let j = 0; j < row.length; j++) worst = Math.max(worst, Math.abs(got[l][h][j] - row[j]));
    }),
  );
  return worst;
}

/** softmax(logits / temperature) over `ids` (all when null), in float64. */
function tempered(logits, temperature, ids = null) {
  const over = ids ?? Array.from(logits, (_, i) => i);
  const max = Math.max(...over.map((i) => logits[i]));
  const w = new Map(over.map((i) => [i, Math.exp((logits[i] - max) / temperature)]));
  const sum = [...w.values()].reduce((s, x) => s + x, 0);
  return (id) => (w.get(id) ?? 0) / sum;
}

for (const family of FAMILIES) {
  test(`${family}: greedy generate equals the argmax loop over runIds, rows and all`, async () => {
    const m = await a.openModel(folder(family));
    try {
      const maxTokens = positionsOf(m) - PROMPT.length;
      const seen = [];
      const g = await m.generateIds(PROMPT, { maxTokens, temperature: 0, stop: [], onToken: (s) => seen.push(s) });
      assert.equal(g.ids.length, maxTokens);
      assert.equal(g.stopReason, 'maxTokens');
      assert.deepEqual(g.promptIds, PROMPT);
      assert.deepEqual(seen, g.steps, 'onToken saw every step');
      let worst = 0;
      let worstP = 0;
      const context = [...PROMPT];
      g.steps.forEach((step, i) => {
        const want = fullStep(m, context);
        assert.equal(step.id, want.id, `step ${i}`);
        assert.equal(g.ids[i], step.id);
        assert.equal(step.p, 1, 'greedy: the point mass');
        worstP = Math.max(worstP, Math.abs(step.pModel - want.p));
        worst = Math.max(worst, maxRowDifference(step.attentions, want.rows));
        context.push(step.id);
      });
      assert.ok(worst <= 1e-6, `attention rows differ by ${worst}`);
      assert.ok(worstP <= 1e-6, `pModel differs by ${worstP}`);
      assert.deepEqual(
        g.tokens,
        g.ids.map((id) => m.tokenizer.tokenText(id)),
      );
      assert.equal(g.text, m.tokenizer.decode(g.ids));
      console.log(
        `${family}: ${maxTokens} greedy steps, rows within ${worst.toExponential(1)}, pModel ${worstP.toExponential(1)}`,
      );
      // generate(text) is generateIds of its tokens
      const text = m.tokenizer.decode(PROMPT);
      assert.deepEqual(m.tokenizer.encode(text).ids, PROMPT);
      const fromText = await m.generate(text, { maxTokens: 3, temperature: 0, stop: [] });
      assert.deepEqual(fromText.ids, g.ids.slice(0, 3));
    } finally {
      m.delete();
    }
  });
}

test('sampling: p is the tempered, truncated softmax of the logits; seeds repeat; topK 1 and tiny topP are greedy', async () => {
  for (const family of ['gpt2', 'gemma3']) {
    const m = await a.openModel(folder(family));
    try {
      const maxTokens = positionsOf(m) - PROMPT.length;
      const greedy = await m.generateIds(PROMPT, { maxTokens, temperature: 0, stop: [] });
      const sample = (options) => m.generateIds(PROMPT, { maxTokens, stop: [], ...options });
      const hot = { temperature: 3 };
      const first = await sample({ ...hot, seed: 7 });
      assert.deepEqual((await sample({ ...hot, seed: 7 })).ids, first.ids, 'the same seed repeats');
      assert.notDeepEqual((await sample({ ...hot, seed: 8 })).ids, first.ids, 'another seed differs');
      assert.deepEqual((await sample({ temperature: 1, topK: 1 })).ids, greedy.ids, 'topK 1 is greedy');
      assert.deepEqual((await sample({ temperature: 1, topP: 1e-9 })).ids, greedy.ids, 'a tiny topP is greedy');
      for (const options of [hot, { temperature: 0.7, topK: 5 }, { temperature: 1.5, topP: 0.6 }]) {
        const s = await sample({ ...options, seed: 3 });
        const context = [...PROMPT];
        let worst = 0;
        for (const step of s.steps) {
          const { logits } = fullStep(m, context);
          const ranked = Array.from(logits, (x, i) => [x, i]).sort((p, q) => q[0] - p[0] || p[1] - q[1]);
          let ids = options.topK ? ranked.slice(0, options.topK).map((e) => e[1]) : null;
          if (options.topP) {
            const all = tempered(logits, options.temperature);
            let mass = 0;
            ids = [];
            for (const [, id] of ranked) {
              ids.push(id);
              mass += all(id);
              if (mass >= options.topP) break;
            }
          }
          if (ids) assert.ok(ids.includes(step.id), `${JSON.stringify(options)}: ${step.id} is a candidate`);
          worst = Math.max(worst, Math.abs(step.p - tempered(logits, options.temperature, ids)(step.id)));
          worst = Math.max(worst, Math.abs(step.pModel - tempered(logits, 1)(step.id)));
          context.push(step.id);
        }
        assert.ok(worst <= 1e-5, `${family} ${JSON.stringify(options)}: p differs by ${worst}`);
      }
    } finally {
      m.delete();
    }
  }
});

test('stop ids end generation with stopReason "stop"; the default is the EOS id of config.json', async () => {
  const m = await a.openModel(folder('gpt2'));
  const greedy = await m.generateIds(PROMPT, { maxTokens: 6, temperature: 0, stop: [] });
  const at = greedy.ids.findIndex((id, i) => greedy.ids.indexOf(id) === i && i >= 2);
  const g = await m.generateIds(PROMPT, { maxTokens: 6, stop: [greedy.ids[at]] });
  assert.equal(g.stopReason, 'stop');
  assert.deepEqual(g.ids, greedy.ids.slice(0, at + 1));
  m.delete();
  // config.json's eos_token_id is the default stop
  const config = JSON.parse(new TextDecoder().decode(folder('gpt2')['config.json']));
  config.eos_token_id = greedy.ids[at];
  const eos = await a.openModel(
    fixtureFiles('model.safetensors', { 'config.json': new TextEncoder().encode(JSON.stringify(config)) }),
  );
  const d = await eos.generateIds(PROMPT, { maxTokens: 6 });
  assert.equal(d.stopReason, 'stop');
  assert.deepEqual(d.ids, greedy.ids.slice(0, at + 1));
  eos.delete();
});

test("generation_config.json's eos_token_id and do_sample / temperature are the rotary defaults", async () => {
  const files = folder('llama');
  const m = await a.openModel(files);
  const greedy = await m.generateIds(PROMPT, { maxTokens: 8, stop: [] });
  const eos = greedy.ids.find((id, i) => i >= 2 && greedy.ids.indexOf(id) === i);
  assert.deepEqual(
    (await m.generateIds(PROMPT, { maxTokens: 8, stop: [] })).ids,
    greedy.ids,
    'do_sample false: greedy',
  );
  m.delete();
  const generation = { eos_token_id: [eos], do_sample: true, temperature: 2 };
  const sampled = await a.openModel({
    ...files,
    'generation_config.json': new TextEncoder().encode(JSON.stringify(generation)),
  });
  const d = await sampled.generateIds(PROMPT, { maxTokens: 8 });
  const want = await sampled.generateIds(PROMPT, { maxTokens: 8, temperature: 2, seed: 0, stop: [eos] });
  assert.ok(d.steps[0].p < 1, 'sampled, not greedy');
  assert.deepEqual(d.ids, want.ids);
  assert.deepEqual(
    d.steps.map((s) => s.p),
    want.steps.map((s) => s.p),
  );
  sampled.delete();
});

test('abort and delete between steps reject cleanly; another call in onToken does not disturb the cache', async () => {
  const m = await a.openModel(folder('llama'));
  const greedy = await m.generateIds(PROMPT, { maxTokens: 8, temperature: 0, stop: [] });
  const controller = new AbortController();
  let steps = 0;
  await assert.rejects(
    m.generateIds(PROMPT, {
      maxTokens: 8,
      stop: [],
      signal: controller.signal,
      onToken: () => {
        if (++steps === 2) controller.abort();
      },
    }),
    (e) => e.name === 'AbortError',
  );
  assert.equal(steps, 2);
  const reason = new Error('stopped by the reader');
  await assert.rejects(m.generateIds(PROMPT, { signal: AbortSignal.abort(reason) }), (e) => e === reason);
  // runIds and another generate inside onToken: the cache is rebuilt, the result unchanged
  let inner = null;
  const g = await m.generateIds(PROMPT, {
    maxTokens: 8,
    stop: [],
    onToken: (s) => {
      m.runIds([1, 2, 3, 4]);
      if (inner === null) inner = m.generateIds([9, 9], { maxTokens: 2, stop: [] });
      assert.ok(s.attentions.length > 0);
    },
  });
  assert.deepEqual(g.ids, greedy.ids);
  await inner;
  assert.deepEqual((await m.generateIds(PROMPT, { maxTokens: 8, stop: [] })).ids, greedy.ids, 'works after all that');
  await assert.rejects(
    m.generateIds(PROMPT, { maxTokens: 8, onToken: () => m.delete() }),
    (e) => e instanceof TypeError && /LlamaModel\.generateIds: this LlamaModel was deleted/.test(e.message),
  );
  await assert.rejects(m.generate('a'), /was deleted/);
});

test('every bad option is a TypeError or RangeError naming it; the model keeps working', async () => {
  const m = await a.openModel(folder('gpt2'));
  const P = positionsOf(m);
  const V = vocabOf(m);
  const cases = [
    [{ maxTokens: 0 }, RangeError, 'options.maxTokens'],
    [{ maxTokens: 1.5 }, RangeError, 'options.maxTokens'],
    [{ maxTokens: '3' }, TypeError, 'options.maxTokens'],
    [{ maxTokens: P - PROMPT.length + 1 }, RangeError, `the prompt's 3 tokens + options.maxTokens = ${P - 2}`],
    [{ temperature: -1 }, RangeError, 'options.temperature'],
    [{ temperature: NaN }, RangeError, 'options.temperature'],
    [{ temperature: Infinity }, RangeError, 'options.temperature'],
    [{ temperature: '1' }, TypeError, 'options.temperature'],
    [{ topK: 0 }, RangeError, 'options.topK'],
    [{ topK: V + 1 }, RangeError, 'options.topK'],
    [{ topK: 2.5 }, RangeError, 'options.topK'],
    [{ topK: '3' }, TypeError, 'options.topK'],
    [{ topP: 0 }, RangeError, 'options.topP'],
    [{ topP: 1.5 }, RangeError, 'options.topP'],
    [{ topP: NaN }, RangeError, 'options.topP'],
    [{ topP: '0.5' }, TypeError, 'options.topP'],
    [{ seed: -1 }, RangeError, 'options.seed'],
    [{ seed: 2 ** 32 }, RangeError, 'options.seed'],
    [{ seed: 0.5 }, RangeError, 'options.seed'],
    [{ stop: 3 }, TypeError, 'options.stop'],
    [{ stop: [V] }, RangeError, 'options.stop[0]'],
    [{ stop: [1, 'x'] }, TypeError, 'options.stop[1]'],
    [{ signal: {} }, TypeError, 'options.signal'],
    [{ onToken: 5 }, TypeError, 'options.onToken'],
    [{ maxToken: 3 }, TypeError, "unknown option 'maxToken'"],
  ];
  for (const [options, ErrorClass, name] of cases) {
    await assert.rejects(
      m.generateIds(PROMPT, options),
      (e) => e instanceof ErrorClass && e.message.startsWith('Gpt2Model.generateIds: ') && e.message.includes(name),
      JSON.stringify(options),
    );
  }
  await assert.rejects(
    m.generate('x', 'fast'),
    (e) => e instanceof TypeError && /Gpt2Model\.generate: options/.test(e.message),
  );
  await assert.rejects(m.generate(5), (e) => e instanceof TypeError && /Gpt2Model\.generate: text/.test(e.message));
  await assert.rejects(m.generateIds([V]), (e) => e instanceof RangeError && /ids\[0\]/.test(e.message));
  await assert.rejects(m.generateIds(Array(P).fill(1)), /options\.maxTokens/);
  const g = await m.generateIds(PROMPT, { maxTokens: 2 });
  assert.equal(g.ids.length <= 2, true);
  m.delete();
});

test('BERT does not predict next tokens: no generate', async () => {
  const m = await a.openModel(bertFiles());
  assert.equal(m.generate, undefined);
  assert.equal(m.generateIds, undefined);
  m.delete();
});
