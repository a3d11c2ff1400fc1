// Where a page's Content-Security-Policy forbids blob: workers, the model chapter
// cannot start its worker: the same proxy then runs the model on the page
// (lesson-kit/model-proxy.js), and the chapter opens, runs and explains the demo
// as before. The only console errors allowed are the policy's own refusal.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPage, SITE_DIR, startBrowser } from '../../../../../../tests/browser/harness.mjs';
import { serve } from '../../../../../../scripts/serve.mjs';

const POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; worker-src 'self'";
let env;
let site;
before(async () => {
  env = await startBrowser();
  site = await serve({ root: SITE_DIR, headers: { 'Content-Security-Policy': POLICY } });
});
after(async () => {
  await env?.close();
  if (site) await new Promise((ok) => site.server.close(ok));
});

test('no blob: workers allowed: the model runs on the page with the same API, and the demo is explained', async () => {
  const page = await openPage(env.browser, `${site.url}#chapter=model`);
  try {
    await page.waitForFunction(() => document.querySelector('#chapter-model')?.dataset.modelExplained === 'true');
    assert.equal(await page.$eval('#chapter-model', (r) => r.dataset.modelThread), 'page');
    assert.equal(await page.$eval('#chapter-model', (r) => r.dataset.modelFamily), 'gpt2');
    await page.getByRole('button', { name: 'Use the Llama demo' }).click();
    await page.waitForFunction(() => {
      const root = document.querySelector('#chapter-model');
      return root?.dataset.modelFamily === 'llama' && root.dataset.modelExplained === 'true';
    });
    const others = page.errors.filter((e) => !/Content Security Policy|worker-src/.test(e));
    assert.deepEqual(others, []);
  } finally {
    await page.context().close();
  }
});
