// The model opened in the chapter "Open a real model" reaches this chapter (and
// the RoPE chapter) through lesson-kit/opened-model.js: the demo GPT-2's head
// shows here with its RMS and logits, explained; RoPE says why it has nothing to turn.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openChapter, useBrowser } from '../../../../../../tests/browser/harness.mjs';

const env = useBrowser();

test('the demo model opened in the model chapter shows its q and logits here; RoPE explains why it turns nothing', async () => {
  const page = await openChapter(env, 'model'); // the demo GPT-2, its head explained
  await page.evaluate(() => (location.hash = '#chapter=qk-norm'));
  const opened = page.locator('#chapter-qk-norm .opened-model[data-opened="shown"]');
  await opened.waitFor();
  assert.match(
    await opened.textContent(),
    /^Layer 1, head 1 of this gpt2 model \(the first \d+ tokens\): the RMS of q per token runs from /,
  );
  assert.match(await opened.textContent(), /This family has no QK-norm/);
  const logits = opened.locator('figure.heatmap', { has: page.locator('canvas[aria-label^="the model’s logits"]') });
  await logits.locator('canvas').focus();
  await page.keyboard.press('ArrowRight');
  assert.match(await logits.locator('.heatmap-story').textContent(), /^S\[1\]\[2\] .*= QKᵀ\[1\]\[2\] .*\/ √\d+ = /);
  assert.ok((await page.locator('#chapter-qk-norm figure.heatmap.is-source').count()) > 0, 'q outlined as a source');
  await page.evaluate(() => (location.hash = '#chapter=rope'));
  const refused = page.locator('#chapter-rope .opened-model[data-opened="refused"]');
  await refused.waitFor();
  assert.match(await refused.textContent(), /The gpt2 model open now adds learned position vectors/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('with questions on, the opened model’s head asks which token’s query has the largest RMS before showing it', async () => {
  const page = await openChapter(env, 'model', { predict: true });
  await page.evaluate(() => (location.hash = '#chapter=qk-norm'));
  await page.locator('#chapter-qk-norm .opened-model[data-opened="shown"]').waitFor({ state: 'attached' });
  const section = page.locator('#chapter-qk-norm section.step', { has: page.locator('.opened-model') });
  const box = section.locator(':scope > .predict');
  assert.match(await box.textContent(), /Which token’s query has the largest RMS in this head\?/);
  assert.equal(await box.getAttribute('data-state'), 'asking');
  assert.equal(await section.locator('.opened-model').evaluate((n) => getComputedStyle(n).visibility), 'hidden');
  await box.scrollIntoViewIfNeeded();
  await box.locator('.predict-choice').first().click();
  assert.match(await box.locator('.predict-verdict').textContent(), /^(Right: |Not this time ).*the largest RMS is /);
  assert.equal(await section.locator('.opened-model').evaluate((n) => getComputedStyle(n).visibility), 'visible');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
