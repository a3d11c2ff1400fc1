// End to end: the RoPE chapter in Debian's chromium. Expected numbers are
// NumPy's, read from tests/fixtures/rope.txt (tests/fixtures/make_rope.py).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadFixture } from '../../../../../../tests/js/fixtures.js';
import {
  canvasHash,
  openPage,
  paintedPixels,
  tableValues,
  useBrowser,
} from '../../../../../../tests/browser/harness.mjs';

const ref = loadFixture('rope.txt');
const CANVASES = 9; // q, q turned, θ, the wavelength chart, k, k turned, scores, half, interleaved
const env = useBrowser();

const figure = (page, label) =>
  page.locator('#chapter-rope figure.heatmap', { has: page.locator(`canvas[aria-label^="${label}"]`) });
/** The values table of a heatmap as numbers. */
const values = async (page, label) =>
  (await tableValues(figure(page, label))).map((t) => Number(t.replace('\u2212', '-')));
/** Each value of the table is NumPy's within 1e-12 (relative to max(1, |x|)). */
function assertShown(got, want, label) {
  assert.equal(got.length, want.length, `${label}: ${got.length} cells`);
  Array.from(want).forEach((x, i) =>
    assert.ok(Math.abs(got[i] - x) <= 1e-12 * Math.max(1, Math.abs(x)), `${label}[${i}]: ${got[i]}, NumPy ${x}`),
  );
}
const fixture = (key) => ref.get(key).data;

test('loads with no console errors, paints every canvas, shows NumPy’s rotations and scores, credits the paper', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=rope`);
  const painted = await paintedPixels(page, '#chapter-rope canvas');
  assert.equal(painted.length, CANVASES);
  painted.forEach((count, i) => assert.ok(count > 100, `canvas ${i} has only ${count} painted pixels`));
  assertShown(await values(page, 'q turned'), fixture('case0.qRot'), 'qRot');
  assertShown(await values(page, 'scores q_m'), fixture('case0.scores'), 'scores');
  assertShown(await values(page, 'q at position m, interleaved'), fixture('case0.qInterleaved'), 'interleaved');
  assert.equal(await page.locator('#chapter-rope .rope-dial').count(), 4);
  const credits = await page.$$eval('#chapter-rope .credit a', (links) => links.map((a) => a.href));
  assert.ok(credits.includes('https://arxiv.org/abs/2104.09864'), 'Su et al. 2021');
  assert.match(await page.locator('#chapter-rope .opened-model').textContent(), /Open a Llama-style model/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Llama 3.1’s settings change the frequencies and the rotations (fixture case 1); moving both positions keeps the score', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=rope`);
  const turned = '#chapter-rope canvas[aria-label^="q turned"]';
  const before = await canvasHash(page, turned);
  await page.getByRole('button', { name: 'Try: Llama 3.1’s settings' }).click();
  await page.waitForFunction(() => /rs=llama3/.test(location.hash));
  const theta = await values(page, 'frequencies');
  assertShown(theta.slice(4), fixture('case1.theta'), 'scaled θ');
  assertShown(await values(page, 'q turned'), fixture('case1.qRot'), 'qRot');
  assert.notEqual(await canvasHash(page, turned), before, 'q turned was not repainted');
  await page.getByRole('button', { name: 'Try: move both by 100' }).click();
  await page.waitForFunction(() => /m=105/.test(location.hash) && /n=102/.test(location.hash));
  const said = await page.locator('#chapter-rope .experiment').filter({ hasText: 'move both' }).textContent();
  assert.match(said, /: the same score\.$/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a rotated cell explains its pair by keyboard; a malformed permalink falls back and still renders', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=rope&d=7&m=-3&T=1000&rs=yarn&base=abc`);
  assert.equal(await page.locator('#chapter-rope select[aria-label="head size d"]').inputValue(), '8');
  const turned = figure(page, 'q turned');
  await turned.scrollIntoViewIfNeeded();
  await turned.locator('canvas').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  assert.match(
    await turned.locator('.heatmap-story').textContent(),
    /^Q′\[2\]\[2\] = .*; position 1, pair 2 \(coordinates 2 and 6\) turns by 1·θ2 = 1·0\.1 = 0\.1 rad/,
  );
  const painted = await paintedPixels(page, '#chapter-rope canvas');
  painted.forEach((count, i) => assert.ok(count > 100, `canvas ${i} is blank`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
