// End to end: the chapter "A Transformer trained in your browser" in Debian's
// chromium. The shipped checkpoint loads in the worker and translates; every
// view is drawn (the three uses, the model view, one head large, the head
// view, the positional encoding, the sentences about the heads, the RNN side
// by side, the measured speeds); typed input retranslates; training from
// scratch runs in the worker and updates the views; it fits a phone; it opens
// from file://.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  canvasHash,
  FILE_URL,
  openPage,
  paintedPixels,
  SITE_DIR,
  useBrowser,
} from '../../../../../../tests/browser/harness.mjs';
import { serve } from '../../../../../../scripts/serve.mjs';
import { translationCheck } from '../../../lesson-kit/seq2seq-model.js';

const env = useBrowser();

const chapter = '#chapter-trained';
const data = (page, key) => page.$eval(chapter, (root, k) => root.dataset[k], key);

async function waitForOutput(page, expected) {
  await page.waitForFunction(
    ([selector, want]) => document.querySelector(selector)?.dataset.trainedOutput === want,
    [chapter, expected],
  );
}

async function open(url = `${env.url}#chapter=trained`, viewport) {
  const page = await openPage(env.browser, url, viewport ? { viewport } : undefined);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.trainedReady === 'true', chapter);
  await waitForOutput(page, '2026-11-21'); // "21 November 2026"
  return page;
}

test('opens with the shipped checkpoint and draws every view', async () => {
  const page = await open();
  // At 1280 px the formulas' parts sit side by side.
  assert.equal(await page.locator(`${chapter} .formula .mtable`).count(), 0);
  // The model line and the three uses.
  assert.match(
    await page.textContent(`${chapter} .trained-model-line`),
    /shipped checkpoint: 2 encoder and 2 decoder layers, 4 heads, d_model 32, d_ff 64, 45,901 parameters, trained 2,100 steps/,
  );
  assert.equal(await page.locator(`${chapter} .uses-diagram [data-use]`).count(), 3);
  assert.equal(await page.getAttribute(`${chapter} .uses-diagram [data-use="cross"]`, 'aria-pressed'), 'true');
  // Model view: 2 layers x 4 heads, each painted.
  const thumbs = await paintedPixels(page, `${chapter} .figures > .head-grid canvas`);
  assert.equal(thumbs.length, 8);
  thumbs.forEach((n, i) => assert.ok(n > 20, `thumbnail ${i}: ${n} painted pixels`));
  // One head large (+ the positional encoding + the RNN map + 4 cross heads).
  const maps = await paintedPixels(page, `${chapter} canvas.heatmap-canvas`);
  assert.ok(maps.length >= 3 + 4, `${maps.length} heatmaps`);
  maps.forEach((n, i) => assert.ok(n > 100, `heatmap ${i}: ${n} painted pixels`));
  // Head view: a legend button per head and lines.
  assert.equal(await page.locator(`${chapter} .token-lines-head`).count(), 4);
  assert.ok((await page.locator(`${chapter} .token-lines line`).count()) > 20);
  // The sentences about the heads are measured: percentages and a button each.
  const findings = await page.$$eval(`${chapter} .trained-findings li`, (lis) => lis.map((li) => li.textContent));
  assert.ok(findings.length >= 3, findings.join('\n'));
  assert.match(findings[0], /Encoder–decoder attention reads each field .* puts \d+% of its weight on that field/);
  // RNN side by side and the measured speeds.
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.trainedRnn === 'true', chapter);
  assert.match(await page.textContent(`${chapter} .trained-rnn-output`), /RNN: “21 November 2026” → “2026-11-21”/);
  const speedRows = await page.$$eval(`${chapter} .trained-speed tbody tr`, (rows) => rows.map((r) => r.textContent));
  // Both models on each task of the benchmark run (dates first).
  assert.ok(speedRows.length >= 2 && speedRows.length % 2 === 0, speedRows.join('\n'));
  assert.match(speedRows[0], /^datesTransformer/);
  assert.match(speedRows[1], /^datesRNN with attention/);
  assert.doesNotMatch(await page.textContent(`${chapter} .nmt-status`), /main thread/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('choosing a use, a head, a token and typing a date update the views', async () => {
  const page = await open();
  // The decoder's masked self-attention: chosen from the diagram, by keyboard.
  await page.focus(`${chapter} .uses-diagram [data-use="decoderSelf"]`);
  await page.keyboard.press('Enter');
  assert.equal(await data(page, 'trainedUse'), 'decoderSelf');
  const captions = await page.$$eval(`${chapter} .heatmap-caption`, (n) => n.map((x) => x.textContent));
  assert.ok(
    captions.some((c) => /masked decoder self-attention, layer 2, head 1\..*Hatched cells are masked/.test(c)),
    captions.join('\n'),
  );
  // A head from the model view.
  await page.click(`${chapter} .head-grid-cell[data-layer="0"][data-head="2"]`);
  assert.equal(
    await page.getAttribute(`${chapter} .head-grid-cell[data-layer="0"][data-head="2"]`, 'aria-pressed'),
    'true',
  );
  assert.ok(page.url().includes('xu=decoderSelf') && page.url().includes('xh=2'), page.url());
  // Hover a query token in the head view: only its lines stay.
  const token = page.locator(`${chapter} .token-lines-token[data-side="query"][data-index="3"]`);
  await token.hover();
  const { focused, all } = await page.$eval(`${chapter} .token-lines svg`, (svg) => ({
    focused: svg.querySelectorAll('line.is-focused').length,
    all: svg.querySelectorAll('line').length,
  }));
  assert.ok(focused > 0 && focused < all, `${focused} of ${all} lines isolated`);
  assert.ok(
    await page.$eval(`${chapter} .token-lines svg`, (svg) =>
      [...svg.querySelectorAll('line.is-focused')].every((l) => l.dataset.query === '3'),
    ),
  );
  // Another date retranslates; the thumbnails change.
  const before = await canvasHash(page, `${chapter} .head-grid canvas >> nth=0`);
  await page.getByRole('textbox', { name: 'input to translate' }).fill('nov 3, 1999');
  await waitForOutput(page, '1999-11-03');
  assert.notEqual(await canvasHash(page, `${chapter} .head-grid canvas >> nth=0`), before);
  await page.getByRole('textbox', { name: 'input to translate' }).fill('3 nov 1999!');
  await page.waitForSelector(`${chapter} .trained-input-error:not([hidden])`);
  assert.match(await page.textContent(`${chapter} .trained-input-error`), /cannot read “!”/);
  // A finding's button opens the head it names.
  await page.getByRole('textbox', { name: 'input to translate' }).fill('21 November 2026');
  await waitForOutput(page, '2026-11-21');
  const first = page.locator(`${chapter} .trained-findings li >> nth=0`);
  const named = /layer (\d), head (\d)/.exec(await first.textContent());
  await first.getByRole('button').click();
  assert.equal(await data(page, 'trainedUse'), 'cross');
  // The map it changed is on screen (it was ~1,300 px away).
  const large = await page.$eval(`${chapter} canvas[aria-label^="encoder–decoder attention, layer"]`, (c) => {
    const r = c.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: window.innerHeight };
  });
  assert.ok(large.bottom > 0 && large.top < large.height, `the large map at ${JSON.stringify(large)}`);
  assert.equal(
    await page.getAttribute(
      `${chapter} .head-grid-cell[data-layer="${named[1] - 1}"][data-head="${named[2] - 1}"]`,
      'aria-pressed',
    ),
    'true',
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Reset trains from scratch in the worker; the maps and the status update', async () => {
  const page = await open();
  await page.getByRole('button', { name: 'Reset (train from scratch)' }).click();
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.trainedSteps === '0', chapter);
  assert.match(await page.textContent(`${chapter} .trained-model-line`), /^from scratch: .*trained 0 steps/);
  const drawn = Number(await data(page, 'trainedDrawn'));
  await page.getByRole('button', { name: 'Start' }).click();
  await page.waitForFunction((s) => Number(document.querySelector(s)?.dataset.trainedSteps) >= 10, chapter);
  // The worker sends new maps with each evaluation (every few seconds).
  await page.waitForFunction(([s, n]) => Number(document.querySelector(s).dataset.trainedDrawn) > n, [chapter, drawn]);
  assert.match(await page.textContent(`${chapter} .nmt-status`), /step \d+ · loss \d\.\d{4}.*steps\/s · training…/);
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.waitForFunction((s) => /paused/.test(document.querySelector(`${s} .nmt-status`).textContent), chapter);
  const curve = await paintedPixels(page, `${chapter} canvas.loss-curve`);
  assert.ok(curve[0] > 100, `loss curve: ${curve[0]} painted pixels`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('fits a 390 px phone, and opens from file://', async () => {
  const phone = await open(`${env.url}#chapter=trained`, { width: 390, height: 844 });
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the phone`);
  // Long formulas are scaled down, and set one part per line where that is not enough.
  const formulas = await phone.$$eval(`${chapter} .formula`, (fs) =>
    fs.map((f) => ({ over: f.scrollWidth - f.clientWidth, lines: f.querySelectorAll('.mtable').length > 0 })),
  );
  assert.ok(
    formulas.every((f) => f.over <= 1),
    JSON.stringify(formulas),
  );
  assert.ok(formulas[0].lines, 'the layer formula breaks into lines at 390 px');
  // The loss curve (520 px wide on a desktop) and its caption fit the phone's column
  // (it was drawn 520 px wide in a scrolling box, the caption cut off).
  const curve = await phone.$eval(`${chapter} canvas.loss-curve`, (canvas) => {
    const column = canvas.closest('figure').parentElement.getBoundingClientRect();
    const caption = canvas.closest('figure').querySelector('figcaption').getBoundingClientRect();
    return { canvas: canvas.getBoundingClientRect().right, caption: caption.right, column: column.right };
  });
  assert.ok(curve.canvas <= curve.column + 0.5 && curve.caption <= curve.column + 0.5, JSON.stringify(curve));
  assert.deepEqual(phone.errors, []);
  await phone.context().close();
  const local = await open(`${FILE_URL}#chapter=trained`);
  assert.deepEqual(local.errors, []);
  await local.context().close();
});

test('under a CSP that forbids blob: workers, the model runs and trains on the main thread', async () => {
  const csp =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'";
  const { server, url } = await serve({ root: SITE_DIR, headers: { 'Content-Security-Policy': csp } });
  try {
    const page = await open(`${url}#chapter=trained`);
    assert.match(await page.textContent(`${chapter} .nmt-status`), /on the main thread/);
    await page.getByRole('button', { name: 'Start' }).click();
    await page.waitForFunction((s) => Number(document.querySelector(s)?.dataset.trainedSteps) >= 2103, chapter);
    await page.getByRole('button', { name: 'Pause' }).click();
    const unexpected = page.errors.filter((e) => !/worker|Content Security Policy/i.test(e));
    assert.deepEqual(unexpected, []);
    await page.context().close();
  } finally {
    await new Promise((ok) => server.close(ok));
  }
});

// ---- issue 24: claims against baselines, no stale state, playback, the dashboard's snapshots

const findingTexts = (page) => page.$$eval(`${chapter} .trained-findings li`, (lis) => lis.map((li) => li.textContent));
const NAMES_A_HEAD = /layer \d, head \d/;

async function resetToScratch(page) {
  await page.getByRole('button', { name: 'Reset (train from scratch)' }).click();
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.trainedSteps === '0', chapter);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.trainedStale === '', chapter);
}

test('the shipped checkpoint names a head with its baselines; a random model (Reset) names none', async () => {
  const page = await open();
  const shipped = await findingTexts(page);
  const named = shipped.filter((t) => NAMES_A_HEAD.test(t));
  assert.ok(named.length >= 1, shipped.join('\n'));
  for (const t of named)
    assert.match(t, /uniform attention would give \d+%, the same model at initialisation at most \d+%/);
  assert.ok(!shipped.some((t) => /whatever the format/.test(t)));
  assert.ok(named.length === (await page.locator(`${chapter} .trained-findings li button`).count()));
  // A translation that does not read as the input is flagged, as in the NMT chapter.
  const flagged = async () => {
    const check = page.locator(`${chapter} .trained-check`);
    const expected = translationCheck('dates', '21 November 2026', await data(page, 'trainedOutput'));
    assert.equal((await check.isVisible()) ? await check.textContent() : null, expected);
  };
  await flagged();
  await resetToScratch(page);
  await flagged();
  console.log(`# after Reset the model writes “${await data(page, 'trainedOutput')}”`);
  const random = await findingTexts(page);
  assert.ok(random.length > 0, 'the measures are still stated');
  assert.deepEqual(
    random.filter((t) => NAMES_A_HEAD.test(t)),
    [],
    random.join('\n'),
  );
  assert.equal(await page.locator(`${chapter} .trained-findings li button`).count(), 0);
  // No suggestion proposes the input already typed.
  assert.ok(!random.some((t) => t.includes('try “21 November 2026”')), random.join('\n'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an unreadable input leaves nothing stale, also after Reset', async () => {
  const page = await open();
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.trainedRnn === 'true', chapter);
  const box = page.getByRole('textbox', { name: 'input to translate' });
  await box.fill('Ü 2020');
  await page.waitForFunction((s) => /cannot read/.test(document.querySelector(s)?.dataset.trainedStale), chapter);
  const check = async () => {
    // Every dependent figure is greyed (and out of the reading order) and says why.
    const figures = page.locator(
      `${chapter} .head-grid, ${chapter} figure.heatmap:has(canvas.heatmap-canvas):not(:has([aria-label^="positional"]))`,
    );
    const states = await figures.evaluateAll((nodes) =>
      nodes
        .filter((n) => !n.closest('.trained-dashboard'))
        .map((n) => ({
          label: n.querySelector('canvas')?.getAttribute('aria-label'),
          stale: Boolean(n.closest('.is-stale')),
        })),
    );
    assert.ok(states.length >= 8, JSON.stringify(states));
    assert.deepEqual(
      states.filter((s) => !s.stale),
      [],
      'figures still showing the previous input',
    );
    const notes = await page.$$eval(`${chapter} .trained-stale:not([hidden])`, (n) => n.map((x) => x.textContent));
    assert.ok(notes.length >= 4 && notes.every((t) => /cannot read “Ü”/.test(t)), notes.join('\n'));
    const findings = await findingTexts(page);
    assert.ok(
      findings.every((t) => !/%/.test(t)),
      findings.join('\n'),
    );
    assert.equal(await page.textContent(`${chapter} .trained-rnn-output`), '');
    assert.equal(await page.textContent(`${chapter} .nmt-output`), '—');
    assert.equal(await data(page, 'trainedOutput'), '');
  };
  await check();
  await page.getByRole('button', { name: 'Reset (train from scratch)' }).click();
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.trainedSteps === '0', chapter);
  await page.waitForFunction((s) => /cannot read/.test(document.querySelector(s)?.dataset.trainedStale), chapter);
  await check();
  // A readable input brings every view back.
  await box.fill('21 November 2026');
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.trainedStale === '', chapter);
  assert.equal(await page.locator(`${chapter} .is-stale`).count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('playback steps through the translation one character at a time', async () => {
  const page = await open();
  const output = await data(page, 'trainedOutput');
  const stepButton = page.getByRole('button', { name: 'Step', exact: true });
  const written = [];
  for (let t = 0; t <= output.length; t++) {
    await stepButton.click();
    assert.equal(await data(page, 'trainedPlayback'), String(t));
    written.push(await data(page, 'trainedPlaybackChar'));
    const caption = await page.textContent(`${chapter} .trained-playback`);
    assert.match(caption, new RegExp(`^Step ${t + 1} of ${output.length + 1} writes “.”`));
  }
  assert.equal(written.slice(0, -1).join(''), output, 'the characters played are the model’s output');
  assert.equal(written.at(-1), '■', 'the last step writes the end token');
  // The three maps of the step are drawn, and a cell explains itself through the trace.
  const maps = await paintedPixels(page, `${chapter} canvas[aria-label*="of the chosen layer and head"]`);
  assert.equal(maps.length, 3);
  maps.forEach((n, i) => assert.ok(n > 50, `playback map ${i}: ${n} painted pixels`));
  const cross = page.locator(`${chapter} canvas[aria-label^="playback: encoder–decoder"]`);
  await cross.focus();
  await page.keyboard.press('ArrowRight');
  const story = await cross.locator('xpath=ancestor::figure[1]').locator('.heatmap-story').textContent();
  assert.match(story, /softmax|√/, story);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the dashboard: loss, accuracy and heads side by side; the scrubber shows an earlier snapshot', async () => {
  const page = await open(`${env.url}#chapter=trained&xs=20`);
  // One screen: the loss, the accuracy and the head maps share a row at 1280 px.
  const tops = await page.$$eval(`${chapter} .trained-dashboard > figure`, (fs) =>
    fs.map((f) => Math.round(f.getBoundingClientRect().top)),
  );
  assert.equal(tops.length, 3);
  assert.ok(Math.max(...tops) - Math.min(...tops) < 40, `dashboard figure tops ${tops}`);
  await resetToScratch(page);
  const grid = `${chapter} .trained-dashboard .head-grid canvas >> nth=0`;
  const snapshotsEndAt = (n) =>
    page.waitForFunction(
      ([s, k]) => document.querySelector(s)?.dataset.trainedSnapshots?.endsWith(`,${k}`),
      [chapter, n],
    );
  await page.getByRole('button', { name: 'Start' }).click();
  await snapshotsEndAt(20);
  const at20 = await canvasHash(page, grid);
  const pauseAt = page.getByRole('textbox', { name: 'pause at step (0 = never)' });
  await pauseAt.fill('60');
  await page.getByRole('button', { name: 'Start' }).click();
  await snapshotsEndAt(60);
  const at60 = await canvasHash(page, grid);
  assert.notEqual(at60, at20, 'the heads changed between steps 20 and 60');
  const saved = (await data(page, 'trainedSnapshots')).split(',');
  await page.getByRole('slider', { name: 'snapshot to show' }).fill(String(saved.indexOf('20')));
  assert.equal(await data(page, 'trainedSnapshot'), '20');
  assert.equal(await canvasHash(page, grid), at20, 'the map saved at step 20');
  assert.match(await page.textContent(`${chapter} .trained-scrub-label`), /step 20,/);
  const curves = await paintedPixels(
    page,
    `${chapter} .trained-dashboard canvas.loss-curve, ${chapter} .trained-dashboard canvas.accuracy-curve`,
  );
  curves.forEach((n, i) => assert.ok(n > 100, `curve ${i}: ${n} painted pixels`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// ---- issue 35: the future stays unseen, every computing step has a Try, the RNN's scores explain

/** The RGBA pixels of cell (r, c) of a heatmap canvas, from its data-cells geometry (inset 1 px). */
const cellPixels = (canvas, r, c) =>
  canvas.evaluate(
    (node, [row, col]) => {
      const [left, top, w, h] = node.dataset.cells.split(',').map(Number);
      const k = node.width / parseFloat(node.style.width); // device pixels per CSS pixel
      const x = Math.round((left + col * w + 1) * k);
      const y = Math.round((top + row * h + 1) * k);
      return Array.from(
        node.getContext('2d').getImageData(x, y, Math.round((w - 2) * k), Math.round((h - 2) * k)).data,
      );
    },
    [r, c],
  );

test('playback: rows not yet written are hatched with no value in the map, the table or the readout', async () => {
  const page = await open();
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.trainedPlayback === '0', chapter);
  const canvas = page.locator(`${chapter} canvas[aria-label^="playback: encoder–decoder"]`);
  const figure = canvas.locator('xpath=ancestor::figure[1]');
  // Row 3 (not written at step 1): two cells whose weights differ look the same (the masked grey).
  await figure.locator('.heatmap-menu-button').click();
  await figure.getByRole('menuitem', { name: 'Show the values as a table' }).click();
  await figure.locator('table td').first().waitFor(); // filled as the table opens
  const rows = await figure
    .locator('table tbody tr')
    .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)));
  assert.ok(rows.length >= 11, `${rows.length} decoder steps`);
  assert.ok(
    rows[0].every((x) => Number.isFinite(Number(x))),
    'step 1’s row is shown',
  );
  assert.ok(
    rows.slice(1).every((row) => row.every((x) => x === 'not yet computed')),
    'later rows show no value',
  );
  // The shown row has cells of different weights: its first and largest differ in colour; row 3's do not.
  const first = rows[0].map(Number);
  const top = first.indexOf(Math.max(...first));
  const other = top === 0 ? 1 : 0;
  assert.notDeepEqual(await cellPixels(canvas, 0, top), await cellPixels(canvas, 0, other));
  assert.deepEqual(
    await cellPixels(canvas, 2, top),
    await cellPixels(canvas, 2, other),
    'a future row hides its weights',
  );
  // Its readout says so instead of a weight.
  await canvas.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.match(await figure.locator('.heatmap-story').textContent(), /^Not computed yet: row 3 is written at step 3/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('every step that computes has a Try experiment; the findings’ one retranslates, the playback’s plays', async () => {
  const page = await open();
  const steps = page.locator(`${chapter} section.step`);
  const computing = [];
  for (let i = 0; i < (await steps.count()); i++) {
    const section = steps.nth(i);
    const computes = (await section.locator('figure.heatmap:not([data-role="input"]), .trained-findings').count()) > 0;
    if (!computes) continue;
    const title = await section.locator('h2').textContent();
    computing.push(title.split('.')[0]);
    assert.ok((await section.locator('.experiment button').count()) > 0, `${title}: no Try`);
  }
  assert.deepEqual(computing, ['2', '3', '4', '5', '6', '7'], 'positions, heads, findings, playback, training, RNN');
  await page.getByRole('button', { name: 'Try: another date, “3 March 1999”' }).click();
  await waitForOutput(page, '1999-03-03');
  assert.equal(await page.getByRole('textbox', { name: 'input to translate' }).inputValue(), '3 March 1999');
  await page.getByRole('button', { name: 'Try: a short date, “1 May 2000”' }).click();
  await waitForOutput(page, '2000-05-01');
  await page.waitForFunction((s) => Number(document.querySelector(s)?.dataset.trainedPlayback) >= 0, chapter);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the RNN’s scores explain a cell as (h_t W_a) · s_j, outlining the encoder output it used', async () => {
  const page = await open();
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.trainedRnn === 'true', chapter);
  const canvas = page.locator(`${chapter} canvas[aria-label^="the RNN’s scores e"]`);
  await canvas.scrollIntoViewIfNeeded();
  await canvas.focus();
  await page.keyboard.press('ArrowRight');
  const story = await canvas.locator('xpath=ancestor::figure[1]').locator('.heatmap-story').textContent();
  assert.match(story, /^e\[1\]\[2\] .* = hW1 .* · s2 .* = /, story);
  const outlined = await page.$$eval(`${chapter} figure.heatmap.is-source canvas`, (cs) =>
    cs.map((c) => c.getAttribute('aria-label').split(':')[0]),
  );
  assert.ok(outlined.includes('the RNN’s encoder outputs s_j'), outlined.join(' | '));
  assert.ok(outlined.includes('the RNN’s projected queries h_t W_a'), outlined.join(' | '));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a query cell explains itself as x·W_q + b_q, outlining its row of x, the column of W_q and b_q', async () => {
  const page = await open();
  const canvas = page.locator(`${chapter} canvas[aria-label^="queries Q of encoder–decoder attention"]`);
  await canvas.scrollIntoViewIfNeeded();
  await canvas.focus();
  await page.keyboard.press('ArrowRight');
  const story = await canvas.locator('xpath=ancestor::figure[1]').locator('.heatmap-story').textContent();
  assert.match(story, /^Q\[1\]\[2\] .* = x1 .* · W_q\[:, 2\] \+ b_q\[2\] = .* = /, story);
  const outlined = await page.$$eval(`${chapter} figure.heatmap.is-source canvas`, (cs) =>
    cs.map((c) => c.getAttribute('aria-label').split(':')[0]),
  );
  for (const label of ['the rows X_q the queries read', 'W_q', 'b_q']) {
    assert.ok(outlined.includes(label), `${label} outlined: ${outlined.join(' | ')}`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the RNN’s encoder outputs and decoder states explain a cell by their GRU steps, outlining the embeddings read', async () => {
  const page = await open();
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.trainedRnn === 'true', chapter);
  for (const [label, pattern, source] of [
    [
      'the RNN’s encoder outputs s_j',
      /^s1\[2\] = f1\[2\] \+ b1\[2\] = .*GRU reading left to right/,
      'the RNN’s input embeddings',
    ],
    ['the RNN’s decoder states h_t', /^Output step 1 reads the start symbol: h0 = /, 'the RNN’s output embeddings'],
  ]) {
    const canvas = page.locator(`${chapter} canvas[aria-label^="${label}"]`);
    await canvas.scrollIntoViewIfNeeded();
    await canvas.focus();
    await page.keyboard.press('ArrowRight');
    const story = await canvas.locator('xpath=ancestor::figure[1]').locator('.heatmap-story').textContent();
    assert.match(story, pattern, story);
    const outlined = await page.$$eval(`${chapter} figure.heatmap.is-source canvas`, (cs) =>
      cs.map((c) => c.getAttribute('aria-label').split(':')[0]),
    );
    assert.ok(outlined.includes(source), `${label}: ${outlined.join(' | ')}`);
    await canvas.blur();
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
