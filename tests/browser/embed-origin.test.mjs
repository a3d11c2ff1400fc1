// Issue 27: an embed link whose origin= key is not an http(s) origin
// (`&origin=javascript:`) has the opaque origin "null", which postMessage
// refuses by throwing; the chapter threw that page error on every resize and
// never reported its height. It must fall back to the embedding page's origin.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { serve } from '../../scripts/serve.mjs';
import { HANG_GUARD_MS, useBrowser } from './harness.mjs';

const env = useBrowser();

test('embed mode with origin=javascript: reports its height to the embedding page, without page errors', async () => {
  const hostDir = mkdtempSync(join(tmpdir(), 'attention-lab-origin-'));
  const host = await serve({ root: hostDir });
  try {
    writeFileSync(
      join(hostDir, 'index.html'),
      `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<iframe src="${env.url}#chapter=basics&embed=1&origin=javascript:" style="width:100%;border:0;height:100px"></iframe>
<script>
window.messages = [];
addEventListener('message', (e) => {
  if (e.data && e.data.type === 'attention-lab:resize') {
    window.messages.push({ origin: e.origin, height: e.data.height });
    document.querySelector('iframe').style.height = e.data.height + 'px';
  }
});
</script>`,
    );
    const context = await env.browser.newContext();
    context.setDefaultTimeout(HANG_GUARD_MS);
    // Every frame records its uncaught errors (the iframe's are not the host page's pageerror events).
    await context.addInitScript(() => {
      window.__errors = [];
      addEventListener('error', (e) => window.__errors.push(String(e.message)));
    });
    const page = await context.newPage();
    await page.goto(host.url);
    await page.waitForFunction(() => window.messages.length > 0, null);
    const [first] = await page.evaluate(() => window.messages);
    assert.equal(first.origin, new URL(env.url).origin);
    assert.ok(first.height > 0);
    // A resize after load: the chapter reports again, still without throwing.
    await page.evaluate(() => {
      document.querySelector('iframe').style.width = '60%';
    });
    await page.waitForFunction(() => window.messages.length > 1, null);
    const frame = page.frames().find((f) => f.url().startsWith(env.url));
    assert.deepEqual(await frame.evaluate(() => window.__errors), []);
    await context.close();
  } finally {
    await new Promise((ok) => host.server.close(ok));
  }
});
