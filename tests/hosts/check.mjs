// What every host page of the hosts layer must show in Chromium: everything the
// consumer tests check (tests/package/hosts/check-page.mjs: Basics, GloVe vectors,
// the NMT translation, KaTeX fonts, the page's API shared with the elements, no
// console error), the model chapter running the GPT-2 folder of `model-src`,
// and each wasm binary instantiated once in the page. Resolves to the numbers of
// the report: bytes the page received and wasm instances.
import assert from 'node:assert/strict';
import { checkHostPage } from '../package/hosts/check-page.mjs';
import { MODEL_DIR } from './projects.mjs';

/** Counts every instantiation in the page, by the binary's size (the glue calls WebAssembly.instantiate). */
function countInstances() {
  globalThis.wasmInstances = [];
  for (const fn of ['instantiate', 'instantiateStreaming']) {
    const original = WebAssembly[fn];
    WebAssembly[fn] = function (source, ...rest) {
      const bytes = source?.byteLength ?? (source instanceof WebAssembly.Module ? 'module' : 'stream');
      globalThis.wasmInstances.push(`${fn}:${bytes}`);
      return original.call(this, source, ...rest);
    };
  }
}

/** The model lesson opens the host's folder and explains a sentence it reads. */
async function checkModel(page) {
  const lesson = page.locator('attention-lesson article[data-chapter="model"]');
  await lesson.waitFor();
  const state = (key, value) =>
    page.locator(`attention-lesson article[data-chapter="model"][data-model-source="own"][data-${key}="${value}"]`);
  // The fixture reads 12 tokens: the demo's sentence gets a message, a short one runs.
  await state('model-run', 'message').waitFor();
  await lesson.getByRole('textbox', { name: 'sentence for the model' }).fill(' the cat');
  await state('model-explained', 'true').waitFor();
  assert.match(await lesson.locator('.model-status').textContent(), new RegExp(`open: ${MODEL_DIR}`));
}

/**
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {object} expect as checkHostPage's
 * @returns {Promise<{bytes: number, instances: string[]}>}
 */
export async function checkHost(browser, url, expect = {}) {
  let report;
  await checkHostPage(browser, url, expect, {
    async setup(context) {
      await context.addInitScript(countInstances);
    },
    async extra(page) {
      await checkModel(page);
      const instances = await page.evaluate(() => globalThis.wasmInstances);
      assert.equal(new Set(instances).size, instances.length, `a binary instantiated twice: ${instances}`);
      const bytes = await page.evaluate(() =>
        performance
          .getEntriesByType('navigation')
          .concat(performance.getEntriesByType('resource'))
          .reduce((sum, e) => sum + (e.encodedBodySize || 0), 0),
      );
      report = { bytes, instances };
    },
  });
  return report;
}
