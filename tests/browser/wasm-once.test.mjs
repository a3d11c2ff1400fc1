// Each wasm binary at most once per page, workers included. A page that only
// draws heatmaps loads none: neither the API modules nor a wasm binary are
// requested, and nothing is compiled or instantiated, with the elements as an ES
// module or as the classic script (the same page with a lesson does load it, so
// the counters count what they claim to). The site's NMT worker, started from a
// Blob URL, holds no binary of its own: the page hands it its data scripts' values.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { FILE_URL, openPage, SITE_DIR, startBrowser } from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';

const BUILDS = {
  module: '<script type="module" src="dist/elements/attention-lab-elements.js"></script>',
  classic: '<script src="dist/classic/attention-lab-elements.js"></script>',
};
const HEATMAPS = `<attention-heatmap data="[[1,2],[3,4]]" row-labels='["a","b"]' col-labels='["x","y"]'></attention-heatmap>
<attention-heatmap data="[[0.5,0.5]]" label="weights"></attention-heatmap>`;

let env;
let hostDir;
let host;
before(async () => {
  env = await startBrowser();
  hostDir = mkdtempSync(join(tmpdir(), 'attention-lab-heatmap-only-'));
  for (const dir of ['lib', 'elements', 'classic', 'site'])
    cpSync(join(SITE_DIR, '..', dir), join(hostDir, 'dist', dir), { recursive: true });
  host = await serve({ root: hostDir });
});
after(async () => {
  await env?.close();
  if (host) await new Promise((ok) => host.server.close(ok));
  rmSync(hostDir, { recursive: true, force: true });
});

/** Opens `body` under `script`; resolves to { page, requests, wasmCalls() } once every heatmap painted. */
async function open(name, script, body, ready) {
  writeFileSync(
    join(hostDir, `${name}.html`),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">${script}\n${body}`,
  );
  const page = await openPage(env.browser, 'about:blank', { waitForReady: false });
  // Every way to compile or instantiate wasm, counted (the glue calls WebAssembly.instantiate).
  await page.context().addInitScript(() => {
    globalThis.wasmCalls = 0;
    for (const fn of ['compile', 'compileStreaming', 'instantiate', 'instantiateStreaming']) {
      const original = WebAssembly[fn];
      WebAssembly[fn] = function (...args) {
        globalThis.wasmCalls++;
        return original.apply(this, args);
      };
    }
  });
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await page.goto(`${host.url}${name}.html`);
  await page.waitForFunction(() =>
    [...document.querySelectorAll('attention-heatmap')].every(
      (h) => h.shadowRoot?.querySelector('canvas')?.dataset.painted === 'true',
    ),
  );
  if (ready) await page.locator(ready).waitFor();
  return { page, requests, wasmCalls: () => page.evaluate(() => globalThis.wasmCalls) };
}

const wasmFiles = (requests) => requests.filter((p) => /\.wasm(\.js)?$|_core\.mjs$|\/dist\/lib\//.test(p));

for (const [build, script] of Object.entries(BUILDS)) {
  test(`${build} elements: a page with only heatmaps requests no API module or wasm and instantiates none`, async () => {
    const { page, requests, wasmCalls } = await open(`heatmaps-${build}`, script, HEATMAPS);
    assert.deepEqual(wasmFiles(requests), []);
    assert.equal(await wasmCalls(), 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test(`${build} elements: with a lesson beside them, the wasm loads once (the counters see it)`, async () => {
    const { page, requests, wasmCalls } = await open(
      `lesson-${build}`,
      script,
      `${HEATMAPS}\n<attention-lesson chapter="basics"></attention-lesson>`,
      'attention-lesson article[data-chapter="basics"]',
    );
    const core = requests.filter((p) => p.endsWith('/attention_core.wasm.js'));
    assert.equal(core.length, 1, requests.join('\n'));
    assert.equal(await wasmCalls(), 1);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('the site: the NMT chapter trains in its Blob worker with the page’s wasm binaries, each downloaded once', async () => {
  assert.doesNotMatch(readFileSync(join(SITE_DIR, 'nmt-worker-source.js'), 'latin1'), /base64,(AGFzbQ|H4sI)/);
  for (const base of [env.url, FILE_URL]) {
    const page = await openPage(env.browser, 'about:blank', { waitForReady: false });
    const requests = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    const workers = [];
    page.on('worker', (worker) => workers.push(worker));
    await page.goto(`${base}#chapter=nmt`);
    const chapter = 'article[data-chapter="nmt"]';
    await page.locator(`${chapter}[data-nmt-output="2026-11-21"]`).waitFor();
    assert.doesNotMatch(await page.textContent(`${chapter} .nmt-status`), /main thread/, base);
    assert.equal(workers.length, 1, base);
    for (const name of ['attention_core', 'trainer_core'])
      assert.equal(requests.filter((p) => p.endsWith(`/${name}.wasm.js`)).length, 1, `${base}: ${name}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
