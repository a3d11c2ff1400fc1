// The model reader and its wasm module (dist/lib/model/, cpp/model_bindings.cpp)
// load on the first openModel call, not with the page. In the site (classic
// scripts), the API injects the data script attention-lab-model.js from beside
// itself: a classic script loads from file:// too, where import() of a module
// is refused. The tiny fixture GPT-2 opened there gives the NumPy logits
// (tests/fixtures/gpt2/make.py, 2e-5 as in tests/js/gpt2.test.mjs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadFixture, maxDifference } from '../js/fixtures.js';
import { FILE_URL, openPage, useBrowser } from './harness.mjs';

const env = useBrowser();
const ref = loadFixture('gpt2/expected.txt');
const fixture = (name) => Array.from(readFileSync(new URL(`../fixtures/gpt2/${name}`, import.meta.url)));
const FILES = Object.fromEntries(['config.json', 'model.safetensors', 'tokenizer.json'].map((n) => [n, fixture(n)]));

async function openFixtureModel(url) {
  const page = await openPage(env.browser, url);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  const loadedBefore = requests.length;
  const before = await page.evaluate(() => [...document.scripts].some((s) => /attention-lab-model/.test(s.src)));
  assert.equal(before, false, 'the GPT-2 reader is not part of the page load');
  const logits = await page.evaluate(
    async ({ files, ids }) => {
      const a = await globalThis.attentionLabData['attention-lab'].loadAttention();
      const bytes = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, new Uint8Array(v)]));
      const m = await a.openModel(bytes);
      const r = m.runIds(ids, { logits: true });
      m.delete();
      return Array.from(r.logits);
    },
    { files: FILES, ids: Array.from(ref.get('seq1.ids').data) },
  );
  const modelRequests = requests.slice(loadedBefore).filter((u) => u.endsWith('attention-lab-model.js'));
  assert.equal(modelRequests.length, 1, 'openModel loads attention-lab-model.js once');
  assert.ok(maxDifference(logits, ref.get('seq1.logits').data) <= 2e-5);
  assert.deepEqual(page.errors, []);
  await page.context().close();
}

test('site from file://: openModel loads the GPT-2 data script and matches NumPy', () => openFixtureModel(FILE_URL));
test('site over http: openModel loads the GPT-2 data script and matches NumPy', () => openFixtureModel(env.url));
