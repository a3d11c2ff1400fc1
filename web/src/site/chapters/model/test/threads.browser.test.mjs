// Where the model chapter's model runs: in a worker on the site over http and
// from file:// (a Blob worker made of the page's own data scripts), and in the
// elements' lesson-worker.js with the module and the classic elements script;
// and on how many threads: the cores on the site served as npm start serves it (dist/
// with COOP and COEP: the worker imports the package's threaded module), with the
// one-thread site's numbers; one everywhere else.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { FILE_URL, openPage, SITE_DIR, startBrowser, waitUntil } from '../../../../../../tests/browser/harness.mjs';
import { serve } from '../../../../../../scripts/serve.mjs';

const ISOLATED = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

let env;
let hostDir;
let host;
let isolated;
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
  isolated = await serve({ root: join(SITE_DIR, '..'), headers: ISOLATED });
});
after(async () => {
  await env?.close();
  if (host) await new Promise((ok) => host.server.close(ok));
  if (isolated) await new Promise((ok) => isolated.server.close(ok));
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
  const { modelThread: thread, modelFamily: family, modelThreads: threads } = await data();
  return { thread, family, threads };
}

/** The next-token table's rows of the explained demo. */
const nextRows = (page, selector) =>
  page.locator(`${selector} .model-next tbody tr`).evaluateAll((rows) => rows.map((r) => r.textContent));

for (const [name, url, selector] of [
  ['the site over http', () => `${env.url}#chapter=model`, '#chapter-model'],
  ['the site from file://', () => `${FILE_URL}#chapter=model`, '#chapter-model'],
  ['the module elements', () => `${host.url}module.html`, 'attention-lesson article'],
  ['the classic elements', () => `${host.url}classic.html`, 'attention-lesson article'],
]) {
  test(`${name}: the demo opens and runs in a worker`, async () => {
    const page = await openPage(env.browser, url(), { waitForReady: false });
    try {
      assert.deepEqual(await explained(page, selector), { thread: 'worker', family: 'gpt2', threads: '1' });
      assert.ok(page.workers().length >= 1, 'a worker runs');
      assert.deepEqual(page.errors, []);
    } finally {
      await page.context().close();
    }
  });
}

test("the site served as npm start serves it (COOP, COEP): the demo runs on threads, with one thread's numbers", async () => {
  const one = await openPage(env.browser, `${env.url}#chapter=model`, { waitForReady: false });
  const two = await openPage(env.browser, `${isolated.url}site/index.html#chapter=model`, { waitForReady: false });
  try {
    assert.deepEqual(await explained(one, '#chapter-model'), { thread: 'worker', family: 'gpt2', threads: '1' });
    // threads: 'auto', the machine's cores (2 here; at most 8)
    const cores = await two.evaluate(() => Math.min(8, navigator.hardwareConcurrency));
    assert.ok(cores > 1, 'a machine with two cores or more');
    assert.deepEqual(await explained(two, '#chapter-model'), {
      thread: 'worker',
      family: 'gpt2',
      threads: String(cores),
    });
    assert.equal(await two.evaluate(() => globalThis.crossOriginIsolated), true);
    assert.match(await two.textContent('#chapter-model .model-status'), new RegExp(`running on ${cores} threads`));
    const rows = await nextRows(one, '#chapter-model');
    assert.equal(rows.length, 8);
    assert.deepEqual(await nextRows(two, '#chapter-model'), rows);
    assert.deepEqual(one.errors, []);
    assert.deepEqual(two.errors, []);
  } finally {
    await one.context().close();
    await two.context().close();
  }
});
