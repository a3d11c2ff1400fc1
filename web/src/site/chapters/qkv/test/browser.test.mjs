// End to end: the "Q/K/V attention from scratch" chapter in Debian's chromium.
// Expected numbers are NumPy's, read from tests/fixtures/qkv.txt (made by
// tests/fixtures/make_qkv.py), or worked out by hand in this file.
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
  tableValues,
  useBrowser,
} from '../../../../../../tests/browser/harness.mjs';

const ref = loadFixture('qkv.txt');
const CANVASES = 10; // words, W_Q, W_K, W_V, Q, K, V, scores, weights, output

const env = useBrowser();

const outputs = (page) => page.$$eval('#chapter-qkv pre.output', (nodes) => nodes.map((n) => n.textContent));
const entry = (page, matrix, row, col) =>
  page.getByRole('textbox', { name: `${matrix}, ${row}, column ${col}`, exact: true });
const printed = (x) => x.toFixed(8).replace(/0+$/, '');

async function checkFixtureCase(page, i) {
  const text = (await outputs(page)).join('\n');
  const W = ref.get(`case${i}.W_Q`).data;
  assert.ok(text.includes(`W_Q = array([[${W[0]}, ${W[1]}, ${W[2]}],`), `W_Q of case${i} is missing`);
  for (const x of ref.get(`case${i}.output`).data)
    assert.ok(text.includes(printed(x)), `output ${printed(x)} of case${i} is missing`);
}

test("loads over http with no console errors, paints every canvas, shows the example's numbers", async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=qkv`);
  const text = (await outputs(page)).join('\n');
  assert.match(text, /W_Q = array\(\[\[2, 0, 2\],\n {13}\[2, 0, 0\],\n {13}\[2, 1, 2\]\]\)/);
  assert.match(
    text,
    /scores = array\(\[\[ 8, {2}2, 10, {2}2\],\n {16}\[ 4, {2}0, {2}4, {2}0\],\n {16}\[12, {2}2, 14, {2}2\],\n {16}\[10, {2}4, 14, {2}3\]\]\)/,
  );
  assert.match(
    text,
    /attention = array\(\[\[0\.98522025, 1\.74174051, 0\.75652026\],\n {19}\[0\.90965265, 1\.40965265, 0\.5 {7}\],/,
  );
  await checkFixtureCase(page, 0);
  const painted = await paintedPixels(page, '#chapter-qkv canvas');
  assert.equal(painted.length, CANVASES);
  painted.forEach((count, i) => assert.ok(count > 300, `canvas ${i} has only ${count} painted pixels`));
  const credits = await page.$$eval('#chapter-qkv .credit a', (links) => links.map((a) => a.href));
  assert.ok(credits.includes('https://github.com/neqkir/attention-mechanism'));
  assert.ok(credits.includes('https://machinelearningmastery.com/the-attention-mechanism-from-scratch/'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('loads from file:// with no console errors', async () => {
  const page = await openPage(env.browser, `${FILE_URL}#chapter=qkv`);
  await checkFixtureCase(page, 0);
  const painted = await paintedPixels(page, '#chapter-qkv canvas');
  painted.forEach((count, i) => assert.ok(count > 300, `canvas ${i} is blank`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("editing a word recomputes and repaints: word_4 = word_1 gets word_1's output row", async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=qkv`);
  const outputCanvas = '#chapter-qkv section.step:nth-of-type(6) canvas';
  const before = await canvasHash(page, outputCanvas);
  await entry(page, 'word vectors', 'word_4', 1).fill('1');
  await entry(page, 'word vectors', 'word_4', 3).fill('0');
  const text = (await outputs(page)).join('\n');
  // word_4 = [1, 0, 0]: Q row 4 = W_Q row 1 = [2, 0, 2], and K row 4 = [2, 2, 2].
  assert.match(text, /Q = array\(\[\[2, 0, 2\],\n {11}\[2, 0, 0\],\n {11}\[4, 0, 2\],\n {11}\[2, 0, 2\]\]\)/);
  // Scores by hand: q1 = [2,0,2] against keys [2,2,2], [0,2,1], [2,4,3], [2,2,2] -> 8, 2, 10, 8.
  assert.match(text, /scores = array\(\[\[ 8, {2}2, 10, {2}8\],/);
  const rows = text.split('attention = ')[1];
  const [first, , , fourth] = rows.split('\n').map((l) => l.replace(/[[\]()a-z= ]/g, ''));
  assert.equal(fourth.replace(/,$/, ''), first.replace(/,$/, ''), 'word_1 and word_4 should get the same output');
  assert.notEqual(await canvasHash(page, outputCanvas), before, 'output heatmap was not repainted');
  assert.match(await page.evaluate(() => location.hash), /X=1,0,0;0,1,0;1,1,0;1,0,0/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("another seed draws NumPy's matrices for that seed (fixture cases 1-3)", async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=qkv`);
  for (const i of [1, 2, 3]) {
    const seed = ref.get(`case${i}.seed`).data[0];
    await page.getByRole('textbox', { name: 'seed', exact: true }).fill(String(seed));
    await checkFixtureCase(page, i);
    const W = ref.get(`case${i}.W_V`).data;
    assert.equal(await entry(page, 'W_V', 'row 3', 3).inputValue(), String(W[8]), 'the editor shows the new draw');
  }
  assert.match(await page.evaluate(() => location.hash), /seed=4294967295/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('edited weights go into the URL and a permalink restores them', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=qkv`);
  await entry(page, 'W_V', 'row 3', 3).fill('5');
  // V row 4 = word_4 . W_V = W_V row 3 = [0, 0, 5]
  assert.match(
    (await outputs(page))[2],
    /V = array\(\[\[1, 1, 0\],\n {11}\[0, 1, 1\],\n {11}\[1, 2, 1\],\n {11}\[0, 0, 5\]\]\)/,
  );
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /WV=1,1,0;0,1,1;0,0,5/);
  const again = await openPage(env.browser, `${env.url}${hash}`);
  assert.equal(await entry(again, 'W_V', 'row 3', 3).inputValue(), '5');
  assert.match((await outputs(again))[2], /\[0, 0, 5\]\]\)/);
  // Drawing again with the seed replaces the edits and drops them from the URL.
  await again.getByRole('button', { name: 'draw again with this seed' }).click();
  await checkFixtureCase(again, 0);
  assert.doesNotMatch(await again.evaluate(() => location.hash), /WV=/);
  assert.deepEqual([...page.errors, ...again.errors], []);
  await page.context().close();
  await again.context().close();
});

test('words can be added and removed; every heatmap follows', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=qkv`);
  await page.getByRole('button', { name: '+ add a word' }).click();
  let text = (await outputs(page)).join('\n');
  assert.match(text, /words = array\(\[\[1, 0, 0\],\n(.*\n){3} {15}\[0, 1, 0\]\]\)/); // the new word cycles one-hot: [0, 1, 0]
  const weightsCanvas = '#chapter-qkv section.step:nth-of-type(5) canvas';
  const fiveByFive = await canvasHash(page, weightsCanvas);
  for (let i = 0; i < 4; i++) await page.getByRole('button', { name: '− remove the last word' }).click();
  text = (await outputs(page)).join('\n');
  assert.match(text, /scores = array\(\[\[8\]\]\)/); // q1 . k1 = [2,0,2] . [2,2,2]
  assert.match(text, /weights = array\(\[\[1\.\]\]\)/);
  assert.notEqual(await canvasHash(page, weightsCanvas), fiveByFive);
  assert.equal(await page.getByRole('button', { name: '− remove the last word' }).isDisabled(), true);
  const painted = await paintedPixels(page, '#chapter-qkv canvas');
  painted.forEach((count, i) => assert.ok(count > 100, `canvas ${i} has only ${count} painted pixels`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a typo marks the entry invalid and keeps the last good numbers', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=qkv`);
  await entry(page, 'word vectors', 'word_2', 2).fill('1..');
  assert.equal(await entry(page, 'word vectors', 'word_2', 2).getAttribute('aria-invalid'), 'true');
  await page.getByRole('textbox', { name: 'seed', exact: true }).fill('-3');
  assert.equal(await page.getByRole('textbox', { name: 'seed', exact: true }).getAttribute('aria-invalid'), 'true');
  await checkFixtureCase(page, 0);
  // A fractional entry turns the words into a float array, printed as NumPy prints floats.
  await entry(page, 'word vectors', 'word_2', 2).fill('0.5');
  assert.match((await outputs(page))[0], /words = array\(\[\[1\. , 0\. , 0\. \],\n {15}\[0\. , 0\.5, 0\. \],/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the contents bar lists the chapter', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=qkv`);
  const links = await page.$$eval('#contents a', (as) => as.map((a) => a.textContent));
  assert.ok(links.includes('Bahdanau additive attention') && links.includes('Q/K/V attention from scratch'));
  assert.equal(
    await page.$eval('#contents a[aria-current="page"]', (a) => a.textContent),
    'Q/K/V attention from scratch',
  );
  await page.context().close();
});

test('usable at phone width: the chapter does not overflow the page horizontally', async () => {
  for (const chapter of ['qkv', 'bahdanau']) {
    const page = await openPage(env.browser, `${env.url}#chapter=${chapter}`, {
      viewport: { width: 390, height: 844 },
    });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${chapter}: page is ${overflow}px wider than the screen`);
    await page.context().close();
  }
});

test('both chapters work as <attention-lesson> elements on a host page, never touching its URL', async () => {
  const hostDir = mkdtempSync(join(tmpdir(), 'attention-lab-lessons-'));
  for (const dir of ['lib', 'elements', 'classic', 'site'])
    cpSync(join(SITE_DIR, '..', dir), join(hostDir, dir), { recursive: true });
  writeFileSync(
    join(hostDir, 'index.html'),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="elements/attention-lab-elements.js"></script>
<h1>Course page</h1>
<attention-lesson chapter="bahdanau"></attention-lesson>
<attention-lesson chapter="qkv"></attention-lesson>`,
  );
  const host = await serve({ root: hostDir });
  try {
    const page = await openPage(env.browser, host.url, { waitForReady: false });
    await page.waitForSelector('attention-lesson[chapter="qkv"] article[data-chapter="qkv"]');
    await page.waitForSelector('attention-lesson[chapter="bahdanau"] article[data-chapter="bahdanau"]');
    assert.match(await page.locator('attention-lesson[chapter="bahdanau"] article').textContent(), /\[5\.92373433\]/);
    assert.match(
      await page.locator('attention-lesson[chapter="qkv"] article').textContent(),
      /0\.98522025, 1\.74174051, 0\.75652026/,
    );
    await page.getByRole('textbox', { name: 'seed', exact: true }).nth(1).fill('0'); // the Q/K/V lesson's seed
    const text = await page.locator('attention-lesson[chapter="qkv"] article').textContent();
    for (const x of ref.get('case1.output').data) assert.ok(text.includes(printed(x)), `output ${printed(x)} missing`);
    assert.equal(await page.evaluate(() => location.hash), '', 'a lesson never writes the host page URL');
    const painted = await paintedPixels(page, 'attention-lesson canvas');
    assert.equal(painted.length, CANVASES + 11);
    painted.forEach((count, i) => assert.ok(count > 100, `canvas ${i} is blank`));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await new Promise((ok) => host.server.close(ok));
    rmSync(hostDir, { recursive: true, force: true });
  }
});

test('provenance: a score outlines its query and key rows and shows q·k; a weight shows its softmax row', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=qkv`);
  const figure = (label) => `#chapter-qkv figure.heatmap:has(canvas[aria-label^="${label}"])`;
  await page.focus(`${figure('scores Q·Kᵀ')} canvas`);
  await page.keyboard.press('ArrowRight'); // S[1][2]
  assert.match(
    await page.textContent(`${figure('scores Q·Kᵀ')} .heatmap-story`),
    /^S\[1\]\[2\] = q1 · k2 = \d+·\d+ \+ \d+·\d+ \+ \d+·\d+ = \d+$/,
  );
  const sources = await page.$$eval('#chapter-qkv figure.heatmap.is-source canvas', (cs) =>
    cs.map((c) => c.getAttribute('aria-label').split(':')[0]),
  );
  assert.deepEqual(sources, ['queries Q, one row per word', 'keys K, one row per word']);
  await page.focus(`${figure('attention weights')} canvas`);
  assert.match(
    await page.textContent(`${figure('attention weights')} .heatmap-story`),
    /^A\[1\]\[1\] = .*, over row 1 of S\/√3$/,
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('formulas: Q, K, V, S, α and the output are coloured like their figures and light them up, also at 390 px', async () => {
  for (const width of [1280, 390]) {
    const page = await openPage(env.browser, `${env.url}#chapter=qkv`, { viewport: { width, height: 900 } });
    const step3 = page.locator('#chapter-qkv section.step').nth(2);
    const q = step3.locator('.formula .sym-Q').first();
    assert.ok(await q.evaluate((n) => n.classList.contains('sym-pal-orange')), 'Q is coloured like its orange figure');
    await q.hover();
    const lit = await step3
      .locator('figure.heatmap.linked canvas')
      .evaluateAll((cs) => cs.map((c) => c.getAttribute('aria-label')));
    assert.equal(lit.length, 1);
    assert.match(lit[0], /^queries Q/);
    // The output formula is set in parts (one per line on a phone): its symbols keep their links.
    const step6 = page.locator('#chapter-qkv section.step').nth(5);
    const o = step6.locator('.formula .sym-output').last();
    assert.ok(await o.evaluate((n) => n.classList.contains('sym-pal-blue')));
    await o.dispatchEvent('mouseover'); // (a pointer over it: the links are delegated from the chapter)
    assert.equal(await step6.locator('figure.heatmap.linked').count(), 1);
    await o.dispatchEvent('mouseout');
    await step6.locator('figure.heatmap canvas').hover();
    assert.ok((await step6.locator('.formula .sym-output.linked').count()) >= 1);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('an overflowing word: Q/K/V shows the error in step 3 and greys the steps after it, never old numbers as current', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=qkv`);
  await entry(page, 'word vectors', 'word_1', 1).fill('1e308');
  const steps = page.locator('#chapter-qkv section.step');
  const state = await steps.evaluateAll((ss) =>
    ss.map((s) => (s.classList.contains('step-failed') ? 'failed' : s.classList.contains('stale') ? 'stale' : 'live')),
  );
  assert.deepEqual(state, ['live', 'live', 'failed', 'stale', 'stale', 'stale']);
  assert.match(await steps.nth(2).locator('.step-error-text').textContent(), /^matmul: .* overflows float64/);
  assert.equal(await steps.nth(2).locator('.figures').isVisible(), false, 'the old Q, K, V are not shown');
  await entry(page, 'word vectors', 'word_1', 1).fill('1');
  assert.equal(await page.locator('#chapter-qkv .step-error').count(), 0);
  assert.equal(await page.locator('#chapter-qkv section.step.stale').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('one indexing convention: Q[2][3] is row word_2, column "3" on the axis and word_2, column 3 in the editor', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=qkv`);
  // word_2 = [0, 1, 5]: Q[2][3] = 0·W_Q[1][3] + 1·W_Q[2][3] + 5·W_Q[3][3] = 0 + 0 + 5·2 = 10.
  await entry(page, 'word vectors', 'word_2', 3).fill('5');
  const figure = '#chapter-qkv section.step:nth-of-type(3) figure.heatmap';
  await page.focus(`${figure} canvas`);
  for (const key of ['ArrowDown', 'ArrowRight', 'ArrowRight']) await page.keyboard.press(key);
  assert.match(await page.textContent(`${figure} .heatmap-readout`), /^word_2, 3: 10$/);
  assert.equal(await page.textContent(`${figure} .heatmap-story`), 'Q[2][3] = x2 · W_Q[:, 3] = 0·2 + 1·0 + 5·2 = 10');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('drag handles on every entry; "Try: W_K = W_Q" claims symmetric scores only once they are', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=qkv`);
  // 4 words × 3, three 3 × 3 projections, the seed.
  assert.equal(await page.locator('#chapter-qkv .scrubbable .scrub').count(), 12 + 27 + 1);
  const trySame = page
    .locator('#chapter-qkv p.experiment')
    .filter({ has: page.getByRole('button', { name: 'Try: W_K = W_Q' }) });
  assert.doesNotMatch(await trySame.textContent(), /scores in step 4 are symmetric/);
  await trySame.getByRole('button').click();
  assert.equal(await entry(page, 'W_K', 'row 1', 3).inputValue(), '2', 'the editor shows W_Q’s row 1');
  const scores = (await tableValues(page.locator('#chapter-qkv section.step:nth-of-type(4) figure.heatmap'))).map(
    Number,
  );
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) assert.equal(scores[4 * i + j], scores[4 * j + i]);
  assert.match(await trySame.textContent(), /the scores in step 4 are symmetric: S\[i\]\[j\] = S\[j\]\[i\]/);
  // An edit that breaks the symmetry takes the claim away.
  await entry(page, 'W_K', 'row 1', 1).fill('0');
  assert.doesNotMatch(await trySame.textContent(), /are symmetric/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
