// End to end: the flash chapter in Debian's chromium. Expected numbers are
// NumPy's (tests/fixtures/flash.txt, made by tests/fixtures/make_flash.py) or
// worked out by hand in this file.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { serve } from '../../../../../../scripts/serve.mjs';
import { loadFixture } from '../../../../../../tests/js/fixtures.js';
import {
  canvasHash,
  FILE_URL,
  openPage,
  paintedPixels,
  SITE_DIR,
  useBrowser,
} from '../../../../../../tests/browser/harness.mjs';

const ref = loadFixture('flash.txt');
const CANVASES = 3 + 1 + 2 + 2 + 1; // Q, K, V; scores; m, ℓ; the two outputs; the memory chart
const env = useBrowser();
const ROOT = '#chapter-flash';
const stepText = (page, n) => page.locator(`${ROOT} section.step:nth-of-type(${n})`).textContent();
const figure = (label) => `${ROOT} figure.heatmap:has(canvas[aria-label^="${label}"])`;

/** Step 2's walk: [m, ℓ, O/ℓ] per block. */
async function walk(page) {
  const text = await page.locator(`${ROOT} section.step:nth-of-type(2) pre.output`).textContent();
  return [...text.matchAll(/m = (\S+), ℓ = (\S+)\n +O\/ℓ = \[([^\]]+)\]/g)].map((m) => [
    Number(m[1]),
    Number(m[2]),
    m[3].split(', ').map(Number),
  ]);
}
const near = (got, want, digits) => Math.abs(got - want) <= Math.max(Math.abs(want), 1e-300) * 10 ** (1 - digits);

test('loads with no console errors, paints every canvas, shows NumPy’s m, ℓ and output and the bit-level comparison', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=flash`);
  const rows = await walk(page);
  const [m, l, out] = ['max', 'sum', 'output'].map((k) => ref.get(`case0.${k}`).data); // seed 5, 8 tokens, blocks of 3
  assert.equal(rows.length, 3);
  rows.forEach(([mb, lb], b) => {
    assert.ok(near(mb, m[b], 4), `m after block ${b + 1}: ${mb} against NumPy ${m[b]}`); // printed to 4 digits
    assert.ok(near(lb, l[b], 4), `ℓ after block ${b + 1}: ${lb} against NumPy ${l[b]}`);
  });
  rows[2][2].forEach((x, k) => assert.ok(near(x, out[k], 4), `output entry ${k + 1}`));
  const bits = await page.locator(`${ROOT} section.step:nth-of-type(3) pre.output`).textContent();
  const online = [...bits.matchAll(/online (\S+)\n +0x/g)].map((x) => Number(x[1]));
  online.forEach((x, k) => assert.ok(Math.abs(x - out[k]) <= 1e-13, `17 digits of entry ${k + 1}`));
  assert.match(
    await stepText(page, 3),
    /of 32 entries are the same 64 bits|All 32 entries of the two outputs are the same 64 bits/,
  );
  assert.match(await stepText(page, 1), /3 blocks of 3 keys \(the last one 2\); live: block 2, keys 4 to 6\./);
  // Step 4 by hand: N = 4,096, B = 3: full 4096² + 4096·4 = 16,793,600; online 4096·(4 + 2 + 3) = 36,864.
  assert.match(await stepText(page, 4), /full 16,793,600\n +\(64\.1 MiB in float32\)\n +online 36,864\n/);
  const painted = await paintedPixels(page, `${ROOT} canvas`);
  assert.equal(painted.length, CANVASES);
  painted.forEach((count, i) => assert.ok(count > 100, `canvas ${i} has only ${count} painted pixels`));
  const credits = await page.$$eval(`${ROOT} .credit a`, (links) => links.map((a) => a.href));
  assert.deepEqual(credits, ['https://arxiv.org/abs/1805.02867', 'https://arxiv.org/abs/2205.14135']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('loads from file:// with no console errors', async () => {
  const page = await openPage(env.browser, `${FILE_URL}#chapter=flash`);
  assert.equal((await walk(page)).length, 3);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('one block for all keys: m is the row maximum, ℓ the softmax denominator; m and ℓ are redrawn and the URL follows', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=flash`);
  const before = await canvasHash(page, `${figure('running maximum m')} canvas`);
  await page.getByRole('button', { name: 'Try: one block for all keys' }).click();
  const rows = await walk(page);
  assert.equal(rows.length, 1);
  const S = ref.get('case0.scaled').data.slice(0, 8);
  assert.ok(near(rows[0][0], Math.max(...S), 4), 'm of query 1 is its largest scaled score');
  assert.match(await stepText(page, 2), /One block: m of query 1 is /);
  assert.notEqual(await canvasHash(page, `${figure('running maximum m')} canvas`), before);
  assert.match(await page.evaluate(() => location.hash), /B=8/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('causal: a query sees only the keys up to itself; the output still matches NumPy', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=flash&c=1&q=4`);
  const rows = await walk(page);
  const [m, l] = ['max', 'sum'].map((k) => ref.get(`case1.${k}`).data); // the same draws, causal
  rows.forEach(([mb, lb], b) => {
    assert.ok(near(mb, m[3 * 3 + b], 4), `m[4][${b + 1}]`);
    assert.ok(near(lb, l[3 * 3 + b], 4), `ℓ[4][${b + 1}]`);
  });
  assert.match(
    await page.locator(`${ROOT} section.step:nth-of-type(2) pre.output`).textContent(),
    /block 3 \(keys 1–4\)/,
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a malformed or oversized permalink falls back to bounded inputs and still renders', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=flash&n=999&B=0&q=77&b=-1&N=1e15&seed=zz`);
  assert.equal((await walk(page)).length, 16); // 16 tokens, blocks of 1
  const painted = await paintedPixels(page, `${ROOT} canvas`);
  painted.forEach((count, i) => assert.ok(count > 100, `canvas ${i} is blank`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('ℓ explains itself from the scores of its block and the maxima, which it outlines', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=flash`);
  await page.focus(`${figure('running sum ℓ')} canvas`);
  await page.keyboard.press('ArrowRight'); // ℓ[1][2]
  assert.match(
    await page.textContent(`${figure('running sum ℓ')} .heatmap-story`),
    /^ℓ\[1\]\[2\] = ℓ\[1\]\[1\]·e\^\(m\[1\]\[1\] − m\[1\]\[2\]\) \+ Σ over block 2 of e\^\(score − m\[1\]\[2\]\) = /,
  );
  const sources = await page.$$eval(`${ROOT} figure.heatmap.is-source canvas`, (cs) =>
    cs.map((c) => c.getAttribute('aria-label').split(':')[0]),
  );
  assert.deepEqual(sources, [
    'scaled scores, the live block of keys drawn',
    'running maximum m, per query after each block',
  ]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('both modern-attention chapters work as <attention-lesson> elements on a host page, never touching its URL', async () => {
  const hostDir = mkdtempSync(join(tmpdir(), 'attention-lab-flash-'));
  for (const dir of ['lib', 'elements', 'classic', 'site'])
    cpSync(join(SITE_DIR, '..', dir), join(hostDir, dir), { recursive: true });
  writeFileSync(
    join(hostDir, 'index.html'),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="elements/attention-lab-elements.js"></script>
<h1>Course page</h1>
<attention-lesson chapter="kv-cache"></attention-lesson>
<attention-lesson chapter="flash"></attention-lesson>`,
  );
  const host = await serve({ root: hostDir });
  try {
    const page = await openPage(env.browser, host.url, { waitForReady: false });
    const flash = page.locator('attention-lesson[chapter="flash"] article[data-chapter="flash"]');
    const kv = page.locator('attention-lesson[chapter="kv-cache"] article[data-chapter="kv-cache"]');
    await flash.locator('pre.output').first().waitFor();
    await kv.locator('pre.output').first().waitFor();
    assert.match(await kv.textContent(), /in all 64 bits of every entry/);
    assert.match(await flash.textContent(), /3 blocks of 3 keys/);
    await page.getByRole('textbox', { name: 'block size', exact: true }).fill('1');
    assert.match(await flash.textContent(), /8 blocks of 1 key;/);
    assert.equal(await page.evaluate(() => location.hash), '', 'a lesson never writes the host page URL');
    const painted = await paintedPixels(page, 'attention-lesson canvas');
    assert.equal(painted.length, CANVASES + 17);
    painted.forEach((count, i) => assert.ok(count > 100, `canvas ${i} is blank`));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await new Promise((ok) => host.server.close(ok));
    rmSync(hostDir, { recursive: true, force: true });
  }
});
