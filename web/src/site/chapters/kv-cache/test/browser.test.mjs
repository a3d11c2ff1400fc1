// End to end: the KV-cache chapter in Debian's chromium. Expected numbers are
// NumPy's (tests/fixtures/kv_cache.txt, made by tests/fixtures/make_kv_cache.py)
// or worked out by hand in this file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadFixture } from '../../../../../../tests/js/fixtures.js';
import { canvasHash, FILE_URL, openPage, paintedPixels, useBrowser } from '../../../../../../tests/browser/harness.mjs';

const ref = loadFixture('kv_cache.txt');
// tokens, K and V caches; new token, q, weights, output; full weights and outputs;
// grouped K and V caches, 4 heads' weights, their output; and the cost chart.
const CANVASES = 3 + 4 + 2 + 2 + 4 + 1 + 1;
const env = useBrowser();
const ROOT = '#chapter-kv-cache';
const stepText = (page, n) => page.locator(`${ROOT} section.step:nth-of-type(${n})`).textContent();
const figure = (label) => `${ROOT} figure.heatmap:has(canvas[aria-label^="${label}"])`;

/** The cached row and the recomputed row as step 3 prints them (17 digits each). */
async function comparedRows(page) {
  const text = await page.locator(`${ROOT} section.step:nth-of-type(3) pre.output`).textContent();
  const cache = [...text.matchAll(/cache (\S+)\n +0x([0-9a-f]{16})/g)].map((m) => [Number(m[1]), m[2]]);
  const full = [...text.matchAll(/full {2}(\S+)\n +0x([0-9a-f]{16})/g)].map((m) => [Number(m[1]), m[2]]);
  return { cache, full, text };
}

test('loads with no console errors, paints every canvas, shows NumPy’s numbers and the two rows bit for bit', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=kv-cache`);
  const { cache, full, text } = await comparedRows(page);
  const want = ref.get('case0.fullOut').data.slice(6 * 4); // case0: seed 3, 4 + 3 tokens; row 7
  assert.equal(cache.length, 4);
  cache.forEach(([x], k) => assert.ok(Math.abs(x - want[k]) <= 1e-12, `entry ${k + 1}: ${x} against NumPy ${want[k]}`));
  cache.forEach(([, bits], k) => assert.equal(bits, full[k][1], `entry ${k + 1} bits`));
  assert.equal(text.match(/same bits/g).length, 4);
  assert.match(await stepText(page, 3), /in all 64 bits of every entry/);
  assert.match(
    await stepText(page, 1),
    /Rows in the cache: 4 after the prefill, 5 after step 1, 6 after step 2, 7 after step 3\. Rows computed: 4, 1, 1, 1\./,
  );
  // Step 4 by hand: d = 8, d_k = 4; token 7 cached 3·8·4 + 2·7·4 = 152, recomputed 3·7·8·4 + 7·8·4 = 896.
  assert.match(await stepText(page, 4), / {4}7 {6}152 {10}896 {3}5\.89×/);
  // Step 6 by hand: Qwen3-0.6B 2·28·8·128·2 = 114,688 bytes per token, 448.0 MiB at 4,096 tokens.
  const bytes = await stepText(page, 6);
  assert.match(bytes, /Qwen3-0\.6B28168128bfloat16114,688448\.0 MiB896\.0 MiB/);
  assert.match(bytes, /Open a model in the “Open a real model” chapter/);
  const painted = await paintedPixels(page, `${ROOT} canvas`);
  assert.equal(painted.length, CANVASES);
  painted.forEach((count, i) => assert.ok(count > 100, `canvas ${i} has only ${count} painted pixels`));
  const credits = await page.$$eval(`${ROOT} .credit a`, (links) => links.map((a) => a.href));
  assert.deepEqual(credits, ['https://arxiv.org/abs/1911.02150', 'https://arxiv.org/abs/2305.13245']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('loads from file:// with no console errors', async () => {
  const page = await openPage(env.browser, `${FILE_URL}#chapter=kv-cache`);
  assert.equal((await comparedRows(page)).cache.length, 4);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('one more decode step grows the cache by a row, leaves the cached rows as they were, and goes into the URL', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=kv-cache`);
  const before = await canvasHash(page, `${figure('K cache, one row per token')} canvas`);
  await page.getByRole('button', { name: 'Try: decode one more token' }).click();
  assert.match(
    await stepText(page, 1),
    /The cache grew from 7 to 8 rows, and its first 7 rows are the same bits as before/,
  );
  assert.match(await stepText(page, 1), /Rows computed: 4, 1, 1, 1, 1\./);
  assert.notEqual(await canvasHash(page, `${figure('K cache, one row per token')} canvas`), before);
  assert.match(await page.evaluate(() => location.hash), /s=4/);
  assert.equal(await page.getByRole('textbox', { name: 'decode steps', exact: true }).inputValue(), '4');
  assert.match(await stepText(page, 3), /o8 from the cache equals row 8 of the full recomputation in all 64 bits/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('grouped-query heads: one K/V head narrows the cache; every query head reads it', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=kv-cache`);
  const cacheCanvas = `${figure('K cache of the K/V heads')} canvas`;
  const wide = await page.$eval(cacheCanvas, (c) => c.width);
  await page.getByRole('button', { name: 'Try: multi-query: one K/V head' }).click();
  const text = await stepText(page, 5);
  assert.match(
    text,
    /query head 1 reads K\/V head 1; query head 2 reads K\/V head 1; query head 3 reads K\/V head 1; query head 4 reads K\/V head 1/,
  );
  assert.match(text, /Cached per token: 2 \+ 2 numbers \(4 query heads with their own K\/V would need 16\)/);
  assert.ok((await page.$eval(cacheCanvas, (c) => c.width)) < wide, 'the K cache got narrower');
  assert.match(await page.evaluate(() => location.hash), /g=1/);
  await page.getByRole('combobox', { name: 'query heads' }).selectOption('2');
  assert.equal(await page.locator(figure('query head 3’s weights')).count(), 0);
  await page.getByRole('combobox', { name: 'query heads' }).selectOption('4');
  assert.equal(await page.locator(figure('query head 3’s weights')).count(), 1);
  const order = await page.$$eval(`${ROOT} section.step:nth-of-type(5) canvas.heatmap-canvas`, (cs) =>
    cs.map((c) => c.getAttribute('aria-label').split(':')[0]),
  );
  assert.deepEqual(order.slice(2), [
    'query head 1’s weights',
    'query head 2’s weights',
    'query head 3’s weights',
    'query head 4’s weights',
    'the heads’ outputs side by side',
  ]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a malformed or oversized permalink falls back to bounded inputs and still renders', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=kv-cache&n=999&s=-2&h=3&g=9&ctx=1e12&seed=x`);
  assert.match(await stepText(page, 1), /Rows in the cache: 8 after the prefill, 9 after step 1\./);
  assert.equal((await comparedRows(page)).cache.length, 4);
  const painted = await paintedPixels(page, `${ROOT} canvas`);
  painted.forEach((count, i) => assert.ok(count > 100, `canvas ${i} is blank`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a weight of the decode step explains itself and outlines the K cache and its query', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=kv-cache`);
  await page.focus(`${figure('weights over the cached tokens')} canvas`);
  assert.match(
    await page.textContent(`${figure('weights over the cached tokens')} .heatmap-story`),
    /^a\[1\]\[1\] = .*, over row 1 of s\/√4; s\[1\]\[1\] = q\[1\] · k1 = /,
  );
  const sources = await page.$$eval(`${ROOT} figure.heatmap.is-source canvas`, (cs) =>
    cs.map((c) => c.getAttribute('aria-label').split(':')[0]),
  );
  assert.deepEqual(sources, ['K cache, one row per token', 'its query q']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the model opened in the model chapter shows its real cache here, the cached row equal to the recomputed one', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=model`);
  await page.waitForSelector('#chapter-model[data-model-explained="true"]');
  await page.evaluate(() => (location.hash = '#chapter=kv-cache'));
  await page.waitForSelector(`${ROOT}[data-opened-model="shown"]`);
  const text = await stepText(page, 7);
  assert.match(text, /Layer 1, head 1: \d+ tokens cached, \d+ numbers per key\./);
  assert.match(text, /equals the full recomputation’s last row in all 64 bits/);
  const painted = await paintedPixels(page, `${ROOT} section.step:nth-of-type(7) canvas`);
  assert.equal(painted.length, 3);
  painted.forEach((count, i) => assert.ok(count > 50, `canvas ${i} is blank`));
  await page.focus(`${figure('the last token’s weights over the real cache')} canvas`);
  assert.match(
    await page.textContent(`${figure('the last token’s weights over the real cache')} .heatmap-story`),
    /^a\[1\]\[1\] = .*, over row 1 of s\/√\d+; s\[1\]\[1\] = /,
  );
  assert.match(await stepText(page, 6), /The model opened in the “Open a real model” chapter: \d+ layers/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a BERT opened in the model chapter: no cache to show, and the reason said', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=model`);
  await page.waitForSelector('#chapter-model[data-model-explained="true"]');
  const bert = new URL('../../../../../../tests/fixtures/bert/', import.meta.url);
  const files = ['config.json', 'model.safetensors', 'vocab.txt'].map((name) => ({
    name,
    mimeType: 'application/octet-stream',
    buffer: readFileSync(new URL(name, bert)),
  }));
  await page.getByLabel('Or its files').setInputFiles(files);
  await page.waitForSelector('#chapter-model[data-model-family="bert"]');
  await page.getByRole('textbox', { name: 'sentence for the model' }).fill('the cat sat');
  await page.waitForSelector('#chapter-model[data-model-explained="true"]');
  await page.evaluate(() => (location.hash = '#chapter=kv-cache'));
  await page.waitForSelector(`${ROOT}[data-opened-model="none"]`);
  assert.match(await stepText(page, 7), /The opened BERT reads in both directions: .*nothing to keep/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
