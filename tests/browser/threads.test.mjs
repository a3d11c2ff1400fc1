// The threaded model module (model_core_threads.mjs, cpp/ops/parallel.h) in
// Chromium on a cross-origin isolated page (COOP + COEP headers), against the
// page without them:
//  - isolated, threads: 2: m.threads is 2, only the threaded module and its
//    worker script load; the tiny fixture GPT-2 and Llama give NumPy's logits
//    (2e-5, as tests/js/gpt2.test.mjs and families.test.mjs);
//  - a GPT-2 large enough for the kernels to split (n_embd 256, 64 tokens:
//    each product and each head's attention cut in pieces) gives every
//    attention map and the logits on 2 threads exactly as on 1 (tolerance 0:
//    each output is computed by one thread, in the serial order), and as the
//    single-threaded module on the page without isolation; the pool's worker
//    ran pieces of it (a count the threaded module keeps);
//  - without isolation, threads: 2 silently runs one thread on model_core.mjs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';
import { gpt2Safetensors } from '../js/gpt2-files.js';
import { loadFixture, maxDifference } from '../js/fixtures.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ISOLATED = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
const PAGE = '<!doctype html><meta charset="utf-8"><title>threads</title>';

// The larger random GPT-2, served from memory at /models/wide/.
const WIDE = { n_layer: 2, n_head: 4, n_embd: 256, n_positions: 64, vocab_size: 262 };
let seed = 12345;
const wideWeights = gpt2Safetensors(WIDE, (name, values) => {
  const norm = /ln_/.test(name) && name.endsWith('weight');
  for (let i = 0; i < values.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    values[i] = norm ? 1 : (seed / 2 ** 32 - 0.5) * 0.2;
  }
});
const WIDE_FILES = {
  'config.json': Buffer.from(JSON.stringify({ model_type: 'gpt2', ...WIDE })),
  'model.safetensors': Buffer.from(wideWeights),
  'tokenizer.json': readFileSync(join(ROOT, 'tests/fixtures/gpt2/tokenizer.json')),
};

let browser, server, url;
test.before(async () => {
  const handle = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return true;
    }
    if (path === '/isolated.html' || path === '/plain.html') {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        ...(path === '/isolated.html' ? ISOLATED : {}),
      });
      res.end(PAGE);
      return true;
    }
    const file = /^\/models\/wide\/(.+)$/.exec(path)?.[1];
    if (file && WIDE_FILES[file]) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', ...ISOLATED }).end(WIDE_FILES[file]);
      return true;
    }
    return false;
  };
  ({ server, url } = await serve({ root: ROOT, headers: ISOLATED, handle }));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    headless: true,
  });
});
test.after(async () => {
  await browser?.close();
  await new Promise((ok) => server?.close(ok));
});

/** A page at `path`, its errors and the model modules it requested. */
async function open(path) {
  const page = await browser.newPage();
  const errors = [];
  const modules = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
  page.on('request', (r) => /model_core[\w.]*\.(mjs|js)$/.test(r.url()) && modules.push(r.url().split('/').pop()));
  await page.goto(new URL(path, url).href);
  return { page, errors, modules };
}

/** In the page: opens `folder` (URLs) with `threads`, runs `ids`; every map, logits, m.threads. */
const runFolder = ({ folder, files, threads, ids }) =>
  (async () => {
    const { loadAttention } = await import('/dist/lib/index.js');
    const a = await loadAttention({ trainers: false });
    const at = (f) => new URL(`${folder}/${f}`, location.href).href;
    const m = await a.openModel(Object.fromEntries(files.map((f) => [f, at(f)])), { threads });
    const r = m.runIds(ids, { logits: true });
    const out = {
      threads: m.threads,
      isolated: crossOriginIsolated,
      maps: r.attentions.map((layer) => layer.map((head) => Array.from(head.data))),
      logits: Array.from(r.logits),
    };
    m.delete();
    return out;
  })();

const GPT2_FILES = ['config.json', 'model.safetensors', 'tokenizer.json'];
const gpt2Ref = loadFixture('gpt2/expected.txt');
const llamaRef = loadFixture('llama/expected.txt');
const wideIds = Array.from({ length: 64 }, (_, i) => (i * 37 + 11) % 256);

test('isolated page, threads: 2: two threads, the threaded module only, NumPy logits, maps equal to one thread', async () => {
  const { page, errors, modules } = await open('/isolated.html');
  const gpt2 = await page.evaluate(runFolder, {
    folder: '/tests/fixtures/gpt2',
    files: GPT2_FILES,
    threads: 2,
    ids: Array.from(gpt2Ref.get('seq1.ids').data),
  });
  assert.equal(gpt2.isolated, true);
  assert.equal(gpt2.threads, 2);
  assert.ok(maxDifference(gpt2.logits, gpt2Ref.get('seq1.logits').data) <= 2e-5);
  const llama = await page.evaluate(runFolder, {
    folder: '/tests/fixtures/llama',
    files: ['config.json', 'model.safetensors', 'tokenizer.json', 'generation_config.json'],
    threads: 2,
    ids: Array.from(llamaRef.get('seq0.ids').data),
  });
  assert.equal(llama.threads, 2);
  assert.ok(maxDifference(llama.logits, llamaRef.get('seq0.logits').data) <= 2e-5);

  // Pieces the pool's worker ran (not the calling thread): the split really reached it.
  const onWorkers = () =>
    page.evaluate(async () => (await import('/dist/lib/model/core.js')).modelCore().piecesOnWorkers());
  const before = await onWorkers();
  const two = await page.evaluate(runFolder, { folder: '/models/wide', files: GPT2_FILES, threads: 2, ids: wideIds });
  assert.ok((await onWorkers()) > before, 'the worker ran pieces of the 2-thread pass');
  const one = await page.evaluate(runFolder, { folder: '/models/wide', files: GPT2_FILES, threads: 1, ids: wideIds });
  assert.equal(two.threads, 2);
  assert.equal(one.threads, 1);
  assert.equal(two.maps.length, WIDE.n_layer);
  assert.deepEqual(two.maps, one.maps);
  assert.deepEqual(two.logits, one.logits);
  // The one-thread module comes too, not instantiated: the reader imports it statically (model/modules.js).
  assert.deepEqual([...new Set(modules)].sort(), [
    'model_core.mjs',
    'model_core.wasm.js',
    'model_core_threads.mjs',
    'model_core_threads.wasm.js',
    'model_core_threads.worker.js',
  ]);
  assert.deepEqual(errors, []);

  // The page without isolation: one thread, the single-threaded module, the same numbers.
  const plain = await open('/plain.html');
  const single = await plain.page.evaluate(runFolder, {
    folder: '/models/wide',
    files: GPT2_FILES,
    threads: 2,
    ids: wideIds,
  });
  assert.equal(single.isolated, false);
  assert.equal(single.threads, 1);
  assert.deepEqual([...new Set(plain.modules)].sort(), ['model_core.mjs', 'model_core.wasm.js']);
  assert.deepEqual(single.maps, two.maps);
  assert.deepEqual(single.logits, two.logits);
  assert.deepEqual(plain.errors, []);
  await plain.page.close();
  await page.close();
});
