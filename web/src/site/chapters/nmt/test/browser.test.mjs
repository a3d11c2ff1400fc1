// End to end: the "Neural machine translation with attention" chapter in
// Debian's chromium. The shipped checkpoint loads in the worker and translates;
// typed input retranslates; bad input is explained in the reader's words; the worker
// trains (steps advance, loss curve painted) while the page stays responsive.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  canvasHash,
  FILE_URL,
  openPage,
  paintedPixels,
  SITE_DIR,
  tableValues,
  assertFormulaLinks,
  useBrowser,
} from '../../../../../../tests/browser/harness.mjs';
import { serve } from '../../../../../../scripts/serve.mjs';

const env = useBrowser();

const chapter = '#chapter-nmt';

async function waitForOutput(page, expected) {
  await page.waitForFunction(
    ([selector, want]) => document.querySelector(selector)?.dataset.nmtOutput === want,
    [chapter, expected],
  );
}

async function typeInput(page, text) {
  const box = page.getByRole('textbox', { name: 'input to translate' });
  await box.fill(text);
}

test('opens with the shipped checkpoint: translates, paints the attention plot and both heatmaps', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=nmt`);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.nmtReady === 'true', chapter);
  await waitForOutput(page, '2026-11-21'); // "Saturday 21/11/26"
  // The embeddings the GRUs read (inputs, drawn when a reader opens a state's arithmetic) are left out.
  const painted = await paintedPixels(page, `${chapter} figure:not([data-role="input"]) canvas.heatmap-canvas`);
  assert.equal(painted.length, 3, 'encoder outputs, decoder states, attention');
  painted.forEach((count, i) => assert.ok(count > 500, `heatmap ${i} has only ${count} painted pixels`));
  // The attention plot is labelled with the characters (also in its table).
  const table = await page.$$eval(`${chapter} table.heatmap-table caption`, (nodes) => nodes.map((n) => n.textContent));
  assert.ok(table.some((t) => t.startsWith('attention weights')));
  const status = await page.textContent(`${chapter} .nmt-status`);
  assert.match(status, /shipped checkpoint: dates, luong-general, hidden 64 · step \d+/);
  assert.match(status, /held-out exact match \d+(\.\d)?%/);
  assert.doesNotMatch(status, /main thread/, 'the model runs in the Web Worker');
  // Lesson text talks to learners: no developer commands (issue 24).
  assert.doesNotMatch(await page.textContent(chapter), /npm (run|test)|train-checkpoint/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('typed input retranslates and repaints; bad input shows a clear message', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=nmt`);
  await waitForOutput(page, '2026-11-21');
  const attentionCanvas = `${chapter} .nmt-attention canvas`;
  const before = await canvasHash(page, attentionCanvas);
  await typeInput(page, 'nov 5, 1999');
  await waitForOutput(page, '1999-11-05');
  assert.notEqual(await canvasHash(page, attentionCanvas), before);
  await typeInput(page, '2044 Aug 31st');
  await waitForOutput(page, '2044-08-31');
  await typeInput(page, '21 nov; 2026');
  await page.waitForSelector(`${chapter} .nmt-input-error:not([hidden])`);
  assert.match(await page.textContent(`${chapter} .nmt-input-error`), /The model cannot read “;” \(character 7\)/);
  await typeInput(page, '');
  await page.waitForFunction(
    (s) => document.querySelector(`${s} .nmt-input-error`).textContent === 'Type a date to translate.',
    chapter,
  );
  await typeInput(page, '1 January 2000');
  await waitForOutput(page, '2000-01-01');
  assert.ok(await page.$eval(`${chapter} .nmt-input-error`, (n) => n.hidden));
  assert.ok(page.url().includes('q=1'), 'the input is kept in the URL');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Reset trains from scratch in the worker: steps advance, loss curve painted, page responsive', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=nmt`);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.nmtReady === 'true', chapter);
  await page.selectOption(`${chapter} select[aria-label="score function"]`, 'luong-dot');
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.nmtSteps === '0', chapter);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.waitForFunction((s) => Number(document.querySelector(s)?.dataset.nmtSteps) >= 20, chapter);
  // While the worker trains, the page keeps handling input and the worker answers
  // translation requests between mini-batches.
  await typeInput(page, '3 aug 2025');
  await page.waitForFunction((s) => document.querySelector(s).dataset.nmtInput === '3 aug 2025', chapter);
  const stepsBefore = Number(await page.$eval(chapter, (root) => root.dataset.nmtSteps));
  await page.waitForFunction(
    ([s, n]) => Number(document.querySelector(s).dataset.nmtSteps) > n + 10,
    [chapter, stepsBefore],
  );
  assert.match(
    await page.textContent(`${chapter} .nmt-status`),
    /from scratch: dates, luong-dot, hidden 64 · step \d+ · loss \d\.\d{4}.*steps\/s · training…/,
  );
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.waitForFunction((s) => /paused/.test(document.querySelector(`${s} .nmt-status`).textContent), chapter);
  const painted = await paintedPixels(page, `${chapter} canvas.loss-curve`);
  assert.ok(painted[0] > 300, `loss curve has only ${painted[0]} painted pixels`);
  assert.ok(page.url().includes('score=luong-dot'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the reversal task trains from scratch and shows an anti-diagonal attention', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=nmt`);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.nmtReady === 'true', chapter);
  await page.selectOption(`${chapter} select[aria-label="task"]`, 'reverse');
  await page.waitForFunction(
    (s) => /from scratch: reverse/.test(document.querySelector(`${s} .nmt-status`).textContent),
    chapter,
  );
  assert.equal(await page.getByRole('textbox', { name: 'input to translate' }).inputValue(), '12345678');
  // Bounded by steps, not seconds: seed 0 trained to exactly step 300 (chapter's "pause at step";
  // the JS API reverses 12345678 from step 50 on, held-out exact match 0.9 at step 255).
  const pauseAt = page.getByRole('textbox', { name: 'pause at step (0 = never)' });
  await pauseAt.fill('300');
  await pauseAt.press('Tab');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.waitForFunction(
    (s) =>
      document.querySelector(s).dataset.nmtSteps === '300' &&
      /paused/.test(document.querySelector(`${s} .nmt-status`).textContent),
    chapter,
  );
  await waitForOutput(page, '87654321');
  assert.ok(page.url().includes('stop=300'), 'the pause step is kept in the URL');
  // Each output digit's largest weight is on the mirrored input position (from the heatmap's table).
  await tableValues(page.locator(`${chapter} figure.nmt-attention`));
  const peaks = await page.$$eval(`${chapter} .nmt-attention table tbody tr`, (rows) =>
    rows.map((tr) => {
      const cells = Array.from(tr.querySelectorAll('td'), (td) => Number(td.textContent));
      return cells.indexOf(Math.max(...cells));
    }),
  );
  assert.deepEqual(peaks, [7, 6, 5, 4, 3, 2, 1, 0]);
  assert.ok(page.url().includes('task=reverse'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('usable at phone width: the chapter does not overflow the page horizontally', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=nmt`, { viewport: { width: 390, height: 844 } });
  await waitForOutput(page, '2026-11-21');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await page.context().close();
});

test('works from file:// (the worker starts from a Blob URL)', async () => {
  const page = await openPage(env.browser, `${FILE_URL}#chapter=nmt`);
  await waitForOutput(page, '2026-11-21');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('under a CSP that forbids blob: workers, the chapter trains on the main thread instead', async () => {
  const csp =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'";
  const { server, url } = await serve({ root: SITE_DIR, headers: { 'Content-Security-Policy': csp } });
  try {
    const page = await openPage(env.browser, `${url}#chapter=nmt`);
    await waitForOutput(page, '2026-11-21');
    assert.match(await page.textContent(`${chapter} .nmt-status`), /on the main thread/);
    await typeInput(page, 'nov 5, 1999');
    await waitForOutput(page, '1999-11-05');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.waitForFunction((s) => Number(document.querySelector(s)?.dataset.nmtSteps) >= 1205, chapter);
    await page.getByRole('button', { name: 'Pause' }).click();
    // The only console errors are the browser's reports of the refused worker.
    const unexpected = page.errors.filter((e) => !/worker|Content Security Policy/i.test(e));
    console.log(`console errors under CSP (expected: the refused worker): ${JSON.stringify(page.errors)}`);
    assert.deepEqual(unexpected, []);
    await page.context().close();
  } finally {
    await new Promise((ok) => server.close(ok));
  }
});

test('formulas: s_j, h_t and α are coloured like their figures and light them up', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=nmt`);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.nmtReady === 'true', chapter);
  await assertFormulaLinks(page, `${chapter}`, [
    ['encoder', /^encoder outputs/],
    ['decoder', /^decoder states/],
    ['attention', /^attention weights/],
  ]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the playback diagram takes the width of the column at 1280 px (its characters stay readable)', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=nmt`);
  await waitForOutput(page, '2026-11-21');
  const svg = await page.locator(`${chapter} .nmt-lines svg`).boundingBox();
  const natural = Number(await page.locator(`${chapter} .nmt-lines svg`).getAttribute('width'));
  assert.ok(svg.width >= Math.min(natural, 600) - 1, `drawn ${svg.width} px wide of its ${natural}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
