// The rope and qk-norm chapters as <attention-lesson> elements on a course
// author's page (dist/lib and dist/elements served together, as the package
// lays them out): both render their figures, and each lesson keeps its own inputs.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openPage, SITE_DIR, startBrowser } from '../../../../../../tests/browser/harness.mjs';
import { serve } from '../../../../../../scripts/serve.mjs';

let env;
let hostDir;
let host;
before(async () => {
  env = await startBrowser();
  hostDir = mkdtempSync(join(tmpdir(), 'attention-lab-rope-lesson-'));
  for (const dir of ['lib', 'elements', 'classic', 'site'])
    cpSync(join(SITE_DIR, '..', dir), join(hostDir, 'dist', dir), { recursive: true });
  host = await serve({ root: hostDir });
});
after(async () => {
  await env?.close();
  if (host) await new Promise((ok) => host.server.close(ok));
  rmSync(hostDir, { recursive: true, force: true });
});

test('two rope lessons and a qk-norm lesson on one page render, and an edit stays in its own lesson', async () => {
  writeFileSync(
    join(hostDir, 'modern.html'),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="dist/elements/attention-lab-elements.js"></script>
<attention-lesson chapter="rope"></attention-lesson>
<attention-lesson chapter="rope"></attention-lesson>
<attention-lesson chapter="qk-norm"></attention-lesson>`,
  );
  const page = await openPage(env.browser, `${host.url}modern.html`, { waitForReady: false });
  const lesson = (n) => page.locator('attention-lesson').nth(n);
  await lesson(1).locator('article[data-chapter="rope"]').waitFor();
  await lesson(2).locator('article[data-chapter="qk-norm"]').waitFor();
  const turned = (n) => lesson(n).locator('canvas[aria-label^="q turned"]');
  await turned(1).waitFor();
  const position = (n) => lesson(n).getByRole('textbox', { name: 'query position m', exact: true }).first();
  await position(0).fill('9');
  await lesson(0)
    .locator('.rope-dial text', { hasText: /^9 rad$/ })
    .waitFor(); // pair 1 turned by 9·1 rad
  assert.equal(await position(1).inputValue(), '5', 'the second lesson kept its own position');
  assert.equal(
    await lesson(1)
      .locator('.rope-dial text', { hasText: /^5 rad$/ })
      .count(),
    1,
  );
  assert.equal(await lesson(2).locator('canvas[aria-label^="logits S"]').getAttribute('data-painted'), 'true');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
