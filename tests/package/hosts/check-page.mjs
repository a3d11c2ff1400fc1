// What every host page must show in Chromium: the Basics lesson's scores, the
// GloVe lesson's vectors (loaded: its words' numbers), the NMT lesson's
// translation, KaTeX fonts that load, one API module shared with the page's own
// code (when the page has some), and no console error.
import assert from 'node:assert/strict';
import { openPage } from '../../browser/harness.mjs';

export const BASICS_SCORES = /array\(\[927\., 397\., 148\., 929\.\]\)/;
// "Saturday 21/11/26", the NMT lesson's default input (web/src/site/chapters/nmt/test/browser.test.mjs).
export const NMT_OUTPUT = '2026-11-21';

/**
 * @param {import('playwright-core').Browser} browser
 * @param {string} url the page
 * @param {{shared?: boolean, nmt?: boolean, glove?: boolean, fonts?: boolean}} expect
 * @param {{setup?: (context: object) => Promise<void>, extra?: (page: object) => Promise<void>}} [hooks]
 *   setup: before the page loads (init scripts); extra: more checks, before the console's
 */
export async function checkHostPage(
  browser,
  url,
  { shared = true, nmt = true, glove = true, fonts = true } = {},
  { setup, extra } = {},
) {
  const page = await openPage(browser, setup ? 'about:blank' : url, { waitForReady: false });
  try {
    if (setup) {
      await setup(page.context());
      await page.goto(url);
    }
    const basics = page.locator('attention-lesson article[data-chapter="basics"]');
    await basics.waitFor();
    assert.match(await basics.textContent(), BASICS_SCORES);
    if (glove) {
      const glove = page.locator('attention-lesson article[data-chapter="glove"]');
      await page.locator('attention-lesson article[data-chapter="glove"][data-loaded="true"]').waitFor();
      // Step 4 prints the sentences' vectors: numbers from the shipped file.
      assert.match(await glove.locator('section.step:nth-of-type(4) pre.output').textContent(), /^array\(\[\[ *-?\d/);
    }
    if (nmt) {
      const nmt = page.locator(`attention-lesson article[data-chapter="nmt"][data-nmt-output="${NMT_OUTPUT}"]`);
      await nmt.waitFor();
      // The model runs in the package's worker (the host found and started it), not the fallback.
      assert.doesNotMatch(await nmt.locator('.nmt-status').textContent(), /main thread/);
    }
    if (fonts) {
      const loaded = await page.evaluate(async () => {
        await document.fonts.ready;
        return [...document.fonts].filter((f) => f.family.includes('KaTeX') && f.status === 'loaded').length;
      });
      assert.ok(loaded > 0, 'KaTeX fonts found and loaded');
    }
    if (shared) {
      await page.waitForSelector('body[data-shared]');
      assert.equal(await page.getAttribute('body', 'data-shared'), 'true', 'one API module, one wasm instance');
      // The heatmap the page's own code filled with the API's result.
      assert.equal(await page.locator('attention-heatmap#h canvas').evaluate((c) => c.dataset.painted), 'true');
    }
    await extra?.(page);
    assert.deepEqual(page.errors, []);
  } catch (error) {
    error.message += `\nconsole: ${page.errors.join('\n')}`;
    throw error;
  } finally {
    await page.context().close();
  }
}
