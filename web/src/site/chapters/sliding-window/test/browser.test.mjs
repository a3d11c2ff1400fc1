// End to end: the sliding-window chapter in Debian's chromium. Expected numbers
// are NumPy's (tests/fixtures/sliding_window.txt, made by
// tests/fixtures/make_sliding_window.py) or worked out by hand in this file.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadFixture } from '../../../../../../tests/js/fixtures.js';
import {
  canvasHash,
  FILE_URL,
  openPage,
  paintedPixels,
  tableValues,
  useBrowser,
} from '../../../../../../tests/browser/harness.mjs';

const ref = loadFixture('sliding_window.txt'); // case0: seed 3, 10 tokens, window 3, 3 layers (the defaults)
const CANVASES = 3 + 2 + 2; // Q, K, V; scores, weights; M, M^L
const env = useBrowser();
const ROOT = '#chapter-sliding-window';
const stepText = (page, n) => page.locator(`${ROOT} section.step:nth-of-type(${n})`).textContent();
const figure = (label) => `${ROOT} figure.heatmap:has(canvas[aria-label^="${label}"])`;
const numbers = async (locator) => (await tableValues(locator)).map(Number);

test('loads with no console errors, paints every canvas, shows NumPy’s weights and M^L', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=sliding-window`);
  const weights = await numbers(page.locator(figure('windowed attention weights')));
  assert.equal(weights.length, 100);
  ref.get('case0.weights').data.forEach((w, k) => {
    // The table prints four significant digits.
    assert.ok(
      Math.abs(weights[k] - w) <= Math.max(Math.abs(w), 1e-3) * 1e-3,
      `A entry ${k}: ${weights[k]} against ${w}`,
    );
  });
  const reach = await numbers(page.locator(figure('reach after L layers')));
  assert.deepEqual(reach, Array.from(ref.get('case0.reach').data));
  // By hand: 10 − 3·(3 − 1) = 4.
  assert.match(await stepText(page, 2), /token 10 can hold information from token 4 on/);
  assert.match(await stepText(page, 1), /query 10 sees keys 8 to 10;/);
  const painted = await paintedPixels(page, `${ROOT} canvas`);
  assert.equal(painted.length, CANVASES);
  painted.forEach((count, i) => assert.ok(count > 100, `canvas ${i} has only ${count} painted pixels`));
  const credits = await page.$$eval(`${ROOT} .credit a`, (links) => links.map((a) => a.href));
  assert.deepEqual(credits, [
    'https://arxiv.org/abs/2004.05150',
    'https://arxiv.org/abs/2310.06825',
    'https://arxiv.org/abs/2408.00118',
    'https://arxiv.org/abs/2309.17453',
  ]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('loads from file:// with no console errors', async () => {
  const page = await openPage(env.browser, `${FILE_URL}#chapter=sliding-window`);
  assert.match(await stepText(page, 2), /token 10 can hold information from token 4 on/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the Try buttons: just enough layers reach token 1; a window of 1 keeps every token to itself; the URL follows', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=sliding-window`);
  const before = await canvasHash(page, `${figure('reach after L layers')} canvas`);
  await page.getByRole('button', { name: 'Try: just enough layers to reach token 1' }).click();
  // ⌈(10 − 1) / (3 − 1)⌉ = 5 layers.
  assert.match(await stepText(page, 2), /After 5 layers of window 3, token 10 can hold information from token 1 on/);
  assert.notEqual(await canvasHash(page, `${figure('reach after L layers')} canvas`), before);
  assert.match(await page.evaluate(() => location.hash), /L=5/);
  await page.getByRole('button', { name: 'Try: a window of 1' }).click();
  assert.match(await stepText(page, 1), /every weight on the diagonal is 1 and the output is V itself/);
  assert.match(await stepText(page, 2), /token 10 can hold information from token 10 on/);
  assert.match(await page.evaluate(() => location.hash), /W=1/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('typing a window redraws the weights and the reach', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=sliding-window`);
  const before = await canvasHash(page, `${figure('windowed attention weights')} canvas`);
  await page.getByRole('textbox', { name: 'window W', exact: true }).fill('5');
  assert.match(await stepText(page, 1), /query 10 sees keys 6 to 10;/);
  // 10 − 3·(5 − 1) < 1: token 1.
  assert.match(await stepText(page, 2), /token 10 can hold information from token 1 on/);
  assert.notEqual(await canvasHash(page, `${figure('windowed attention weights')} canvas`), before);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a malformed or oversized permalink falls back to bounded inputs and still renders', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=sliding-window&n=999&W=0&L=99&seed=zz`);
  // 24 tokens, window 1, 8 layers: nothing travels.
  assert.match(await stepText(page, 2), /After 8 layers of window 1, token 24 can hold information from token 24 on/);
  const painted = await paintedPixels(page, `${ROOT} canvas`);
  painted.forEach((count, i) => assert.ok(count > 100, `canvas ${i} is blank`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a cell of M^L explains itself as a row of M times a column of the previous power, outlining M', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=sliding-window`);
  await page.focus(`${figure('reach after L layers')} canvas`);
  await page.keyboard.press('ArrowRight'); // M³[1][2]
  await page.keyboard.press('ArrowLeft'); // M³[1][1]
  assert.match(await page.textContent(`${figure('reach after L layers')} .heatmap-story`), /^M³\[1\]\[1\] .*= 1$/);
  const sources = await page.$$eval(`${ROOT} figure.heatmap.is-source canvas`, (cs) =>
    cs.map((c) => c.getAttribute('aria-label').split(':')[0]),
  );
  assert.deepEqual(sources, ['the window M as 0 and 1']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
