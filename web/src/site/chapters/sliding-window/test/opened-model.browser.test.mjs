// The model opened in the chapter "Open a real model" reaches step 3 through
// lesson-kit/opened-model.js: the demo GPT-2's heads measured for a sink, each
// cell explained from the weights it averages; step 4's cut caches against the full context.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openChapter, tableValues, useBrowser } from '../../../../../../tests/browser/harness.mjs';

const env = useBrowser();
const ROOT = '#chapter-sliding-window';
const STEP3 = `${ROOT} section.step:nth-of-type(3)`;
const figure = (label) => `${ROOT} figure.heatmap:has(canvas[aria-label^="${label}"])`;

test('without a model, step 3 says where to open one; with the demo GPT-2 it measures every head against the even spread', async () => {
  const page = await openChapter(env, 'sliding-window');
  assert.match(
    await page.locator(`${STEP3} .opened-model`).textContent(),
    /^Open a model in the chapter “Open a real model”/,
  );
  await page.evaluate(() => (location.hash = '#chapter=model'));
  await page.waitForSelector('#chapter-model[data-model-explained="true"]');
  await page.evaluate(() => (location.hash = '#chapter=sliding-window'));
  const opened = page.locator(`${STEP3} .opened-model[data-opened="shown"]`);
  await opened.waitFor();
  const summary = await opened.locator('p.worked').textContent();
  const [, T, sinks, heads, even] = summary.match(
    /^gpt2 model, (\d+) tokens \(the model chapter’s sentence\): (\d+) of (\d+) heads put at least 0\.2 and 2× the even spread \((\S+)\) on token 1/,
  );
  // The even spread by hand: the mean of 1/i over i = 2 … T.
  let base = 0;
  for (let i = 2; i <= Number(T); i++) base += 1 / i;
  assert.ok(Math.abs(Number(even) - base / (Number(T) - 1)) <= 1e-4, `even spread ${even}`);
  // Each mean is the mean of its row of weights on token 1 (both printed to 4 digits).
  const means = (await tableValues(page.locator(figure('mean weight on token 1')))).map(Number);
  const weights = (await tableValues(page.locator(figure('weight on token 1')))).map(Number);
  assert.equal(means.length, Number(heads));
  const q = Number(T) - 1;
  means.forEach((m, k) => {
    const row = weights.slice(k * q, (k + 1) * q);
    const mean = row.reduce((s, w) => s + w, 0) / q;
    assert.ok(Math.abs(mean - m) <= 1e-3, `head ${k + 1}: ${m} against the mean of its weights ${mean}`);
  });
  assert.equal(Number(sinks), means.filter((m) => m >= 0.2 && m >= 2 * Number(even)).length);
  await page.focus(`${figure('mean weight on token 1')} canvas`);
  await page.keyboard.press('ArrowRight');
  assert.match(
    await page.textContent(`${figure('mean weight on token 1')} .heatmap-story`),
    /^first\[L1 H2\] = mean over queries 2 … \d+ of A\[i\]\[1\] = \(.*\) \/ \d+ = \S+; an even spread gives the mean of 1\/i = /,
  );
  assert.equal(await page.locator(`${ROOT} figure.heatmap.is-source`).count(), 1);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('with questions on, step 3 asks whether some head is a sink before showing the measure', async () => {
  const page = await openChapter(env, 'model', { predict: true });
  await page.evaluate(() => (location.hash = '#chapter=sliding-window'));
  await page.locator(`${STEP3} .opened-model[data-opened="shown"]`).waitFor({ state: 'attached' });
  const section = page.locator(STEP3);
  const box = section.locator(':scope > .predict');
  assert.match(await box.textContent(), /Does some head of this model put at least 0\.2 and 2× the even spread/);
  assert.equal(await section.locator('.opened-model').evaluate((n) => getComputedStyle(n).visibility), 'hidden');
  await box.scrollIntoViewIfNeeded();
  await box.locator('.predict-choice').first().click();
  assert.match(await box.locator('.predict-verdict').textContent(), /^(Right: |Not this time ).*\d+ of \d+ heads do; /);
  assert.equal(await section.locator('.opened-model').evaluate((n) => getComputedStyle(n).visibility), 'visible');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('step 4 compares the demo model’s next token with a cut cache; with no first tokens kept the two cut caches agree', async () => {
  const page = await openChapter(env, 'model');
  await page.evaluate(() => (location.hash = '#chapter=sliding-window'));
  const section = page.locator(`${ROOT} section.step:nth-of-type(4)`);
  await section.locator('.opened-model[data-opened="shown"]').waitFor();
  const rows = async () => {
    const text = await section.locator('.opened-model pre.output').textContent();
    return [...text.matchAll(/^(.+?) +(\d+) tokens +top-1 (".*") \(p (\S+)\) +TV to full (\S+)$/gm)].map((m) => ({
      name: m[1],
      kept: Number(m[2]),
      top: m[3],
      tv: Number(m[5]),
    }));
  };
  const before = await rows();
  assert.deepEqual(
    before.map((r) => [r.name, r.kept]),
    [
      ['full context', 64],
      ['last 16', 16],
      ['first 4 + last 16', 20],
    ],
  );
  assert.equal(before[0].tv, 0);
  before.slice(1).forEach((r) => assert.ok(r.tv > 0 && r.tv <= 1, `${r.name}: TV ${r.tv}`));
  await page.getByRole('button', { name: 'Try: keep no first tokens' }).click();
  await section.locator('.opened-model pre.output', { hasText: 'first 0 + last 16' }).waitFor();
  const after = await rows();
  assert.deepEqual(after[2].tv, after[1].tv);
  assert.equal(after[2].top, after[1].top);
  assert.match(await page.evaluate(() => location.hash), /cs=0/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
