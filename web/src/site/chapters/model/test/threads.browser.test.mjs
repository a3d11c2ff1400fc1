// Where the model chapter's model runs: in a worker on the site over http and
// from file:// (a Blob worker made of the page's own data scripts), and in the
// elements' lesson-worker.js with the module and the classic elements script.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { FILE_URL, openPage, SITE_DIR, startBrowser, waitUntil } from '../../../../../../tests/browser/harness.mjs';
import { serve } from '../../../../../../scripts/serve.mjs';

let env;
let hostDir;
let host;
before(async () => {
  env = await startBrowser();
  hostDir = mkdtempSync(join(tmpdir(), 'attention-lab-model-threads-'));
  for (const dir of ['lib', 'elements', 'classic', 'site'])
    cpSync(join(SITE_DIR, '..', dir), join(hostDir, 'dist', dir), { recursive: true });
  const lesson = (script) =>
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">${script}\n<attention-lesson chapter="model"></attention-lesson>`;
  writeFileSync(
    join(hostDir, 'module.html'),
    lesson('<script type="module" src="dist/elements/attention-lab-elements.js"></script>'),
  );
  writeFileSync(
    join(hostDir, 'classic.html'),
    lesson('<script src="dist/classic/attention-lab-elements.js"></script>'),
  );
  host = await serve({ root: hostDir });
});
after(async () => {
  await env?.close();
  if (host) await new Promise((ok) => host.server.close(ok));
  rmSync(hostDir, { recursive: true, force: true });
});

/** The model article's data once the demo is explained (the lessons' articles are in shadow roots: a locator). */
async function explained(page, selector) {
  const root = page.locator(selector);
  await root.waitFor();
  const data = () => root.evaluate((r) => ({ ...r.dataset }));
  await waitUntil(
    async () => (await data()).modelExplained === 'true',
    async () => JSON.stringify(await data()),
  );
  const { modelThread: thread, modelFamily: family } = await data();
  return { thread, family };
}

for (const [name, url, selector] of [
  ['the site over http', () => `${env.url}#chapter=model`, '#chapter-model'],
  ['the site from file://', () => `${FILE_URL}#chapter=model`, '#chapter-model'],
  ['the module elements', () => `${host.url}module.html`, 'attention-lesson article'],
  ['the classic elements', () => `${host.url}classic.html`, 'attention-lesson article'],
]) {
  test(`${name}: the demo opens and runs in a worker`, async () => {
    const page = await openPage(env.browser, url(), { waitForReady: false });
    try {
      assert.deepEqual(await explained(page, selector), { thread: 'worker', family: 'gpt2' });
      assert.ok(page.workers().length >= 1, 'a worker runs');
      assert.deepEqual(page.errors, []);
    } finally {
      await page.context().close();
    }
  });
}
