// End to end: the QK-norm chapter in Debian's chromium. Expected numbers are
// NumPy's, read from tests/fixtures/qk_norm.txt (tests/fixtures/make_qk_norm.py).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadFixture } from '../../../../../../tests/js/fixtures.js';
import { canvasHash, openPage, paintedPixels, useBrowser } from '../../../../../../tests/browser/harness.mjs';

const ref = loadFixture('qk_norm.txt');
const CANVASES = 12; // Q0, Q, K0, K, logits, weights, curve, Q̂, K̂, Ŝ, Â, curve
const env = useBrowser();

const outputs = (page) => page.$$eval('#chapter-qk-norm pre.output', (nodes) => nodes.map((n) => n.textContent));
const printed = (x) => x.toFixed(8).replace(/0+$/, '').replace(/\.$/, '.');
/** Every entry of fixture `key` appears in `text` as NumPy prints it (8 decimals). */
function assertPrinted(text, key) {
  const values = ref.get(key).data;
  for (const x of values) assert.ok(text.includes(printed(x)), `${key}: ${printed(x)} is missing`);
  return values.length;
}

test('loads with no console errors, paints every canvas, prints NumPy’s logits, credits the papers', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=qk-norm`);
  const text = (await outputs(page)).join('\n');
  assert.ok(text.includes('rs = np.random.RandomState(3)'));
  assert.equal(assertPrinted(text.split('norm_logits = array')[0], 'case0.logits'), 25);
  assert.equal(assertPrinted(text.split('norm_logits = array')[1], 'case0.normLogits'), 25);
  const painted = await paintedPixels(page, '#chapter-qk-norm canvas');
  assert.equal(painted.length, CANVASES);
  painted.forEach((count, i) => assert.ok(count > 300, `canvas ${i} has only ${count} painted pixels`));
  const credits = await page.$$eval('#chapter-qk-norm .credit a', (links) => links.map((a) => a.href));
  assert.ok(credits.includes('https://arxiv.org/abs/2302.05442'), 'Dehghani et al. 2023');
  assert.ok(credits.includes('https://arxiv.org/abs/1910.07467'), 'Zhang & Sennrich 2019');
  const opened = page.locator('#chapter-qk-norm .opened-model');
  assert.equal(await opened.getAttribute('data-opened'), 'none');
  assert.match(await opened.textContent(), /Open a model in the chapter “Open a real model”/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('s = 4 multiplies the logits by 16 and leaves the QK-norm logits as they were (fixture case 1)', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=qk-norm`);
  const logits = '#chapter-qk-norm canvas[aria-label^="logits S"]';
  const normed = '#chapter-qk-norm canvas[aria-label^="logits Ŝ"]';
  const [before, normBefore] = [await canvasHash(page, logits), await canvasHash(page, normed)];
  await page.getByRole('textbox', { name: 'size s', exact: true }).fill('4');
  await page.waitForFunction(() => /s=4/.test(location.hash));
  const text = (await outputs(page)).join('\n');
  assertPrinted(text.split('norm_logits = array')[0], 'case1.logits');
  assertPrinted(text.split('norm_logits = array')[1], 'case1.normLogits');
  assert.notEqual(await canvasHash(page, logits), before, 'the logits were not repainted');
  assert.equal(await canvasHash(page, normed), normBefore, 'the QK-norm logits should look the same');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a cell of Q̂ explains its RMS by keyboard; a malformed permalink falls back and still renders', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=qk-norm&d=5&n=x&s=1e99&g=`);
  assert.equal(await page.locator('#chapter-qk-norm select').inputValue(), '16');
  assert.equal(await page.getByRole('textbox', { name: 'size s', exact: true }).inputValue(), '16');
  const figure = page.locator('#chapter-qk-norm figure.heatmap', {
    has: page.locator('canvas[aria-label^="normalised queries"]'),
  });
  await figure.scrollIntoViewIfNeeded();
  await figure.locator('canvas').focus();
  await page.keyboard.press('ArrowRight');
  assert.match(await figure.locator('.heatmap-story').textContent(), /^rms\(q1\) = √\(.*\) = [\d.]+; Q̂\[1\]\[2\] = /);
  const painted = await paintedPixels(page, '#chapter-qk-norm canvas');
  painted.forEach((count, i) => assert.ok(count > 300, `canvas ${i} is blank`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
