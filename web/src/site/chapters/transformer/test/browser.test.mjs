// End to end: the "Attention is all you need, hands on" chapter in Debian's
// chromium. Numbers are checked for properties that hold whatever the random
// inputs (rows of weights sum to 1, masked weights are exactly 0, the scaled
// variance stays near 1), and edits must change downstream numbers and pixels.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  canvasHash,
  FILE_URL,
  openPage,
  paintedPixels,
  tableValues,
  useBrowser,
} from '../../../../../../tests/browser/harness.mjs';

const env = useBrowser();

const CH = '#chapter-transformer';
const open = (hash = '') => openPage(env.browser, `${env.url}#chapter=transformer${hash}`);
/** Waits until a lazy figure's canvas is painted with its current matrix (not data-painted="stale"). */
const painted = (page, selector) => page.locator(`${selector}[data-painted="true"]`).waitFor();
// A lazy figure is read once on screen and painted: an edit scrolls the page to its field, which
// may leave the figure off screen and stale until it comes back (where the fold falls depends on
// the window).
const hashOnScreen = async (page, selector) => {
  const canvas = page.locator(selector);
  await canvas.scrollIntoViewIfNeeded();
  await canvas.and(page.locator('[data-painted="true"]')).waitFor();
  return canvasHash(page, selector);
};
const stepText = (page, n) => page.textContent(`${CH} section.step:nth-of-type(${n})`);
const outputOf = (page, n) => page.textContent(`${CH} section.step:nth-of-type(${n}) pre.output`);

/** Parses the rows of a NumPy-printed 2-D array. */
function parseRows(text) {
  return text
    .replace(/^array\(/, '')
    .replace(/\)$/, '')
    .split(/\],\s*\[/)
    .map((row) =>
      row
        .replace(/[[\]]/g, '')
        .split(',')
        .map((x) => Number(x.trim()))
        .filter((x) => !Number.isNaN(x)),
    );
}

test('loads with no console errors, paints its heatmaps, weights rows sum to 1', async () => {
  const page = await open();
  const painted = await paintedPixels(page, `${CH} .heatmap canvas`);
  assert.ok(painted.length >= 20, `only ${painted.length} heatmaps`);
  const visible = await page.$$eval(`${CH} .heatmap canvas`, (cs) =>
    cs.map((c) => c.closest('.matrix-figure > figure, .heatmap')?.hidden !== true && c.offsetParent !== null),
  );
  painted.forEach((count, i) => {
    if (visible[i]) assert.ok(count > 300, `heatmap ${i} has only ${count} painted pixels`);
  });
  const weights = parseRows(await outputOf(page, 4));
  assert.equal(weights.length, 6, 'six tokens: "the cat sat on the mat"');
  for (const row of weights) assert.ok(Math.abs(row.reduce((s, x) => s + x, 0) - 1) < 1e-6, `row sums to ${row}`);
  assert.match(await page.textContent(CH), /Vaswani et al\., “Attention Is All You Need” \(2017\)/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('loads from file:// with no console errors', async () => {
  const page = await openPage(env.browser, `${FILE_URL}#chapter=transformer`);
  const weights = parseRows(await outputOf(page, 4));
  assert.equal(weights.length, 6);
  const painted = await paintedPixels(page, `${CH} section.step:nth-of-type(4) .heatmap canvas`);
  painted.forEach((count, i) => assert.ok(count > 300, `canvas ${i} is blank`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the scaling demo: unscaled variance grows with d_k, scaled stays near 1', async () => {
  const page = await open();
  const rows = await page.$$eval(`${CH} table.dk-table tr`, (trs) =>
    trs.slice(1).map((tr) => Array.from(tr.children, (c) => Number(c.textContent))),
  );
  const byDk = new Map(rows.map((r) => [r[0], r]));
  assert.ok(byDk.get(1)[1] < 3, `var at d_k = 1 is ${byDk.get(1)[1]}`);
  assert.ok(byDk.get(512)[1] > 300 && byDk.get(512)[1] < 800, `var at d_k = 512 is ${byDk.get(512)[1]}`);
  for (const [, row] of byDk) assert.ok(row[2] > 0.6 && row[2] < 1.5, `scaled variance ${row[2]} at d_k = ${row[0]}`);
  assert.ok(byDk.get(512)[3] > 0.9, 'unscaled softmax saturates at d_k = 512');
  assert.ok(byDk.get(512)[4] < byDk.get(512)[3], 'scaling softens it');
  const before = await outputOf(page, 3);
  await page.getByLabel('d_k', { exact: true }).selectOption('512');
  assert.notEqual(await outputOf(page, 3), before);
  assert.match(await outputOf(page, 3), /^d_k = 512/);
  await page.context().close();
});

test('causal mask: weights above the diagonal are exactly 0, first query attends only to itself', async () => {
  const page = await open('&tp=0');
  const weights = `${CH} section.step:nth-of-type(5) figure.heatmap:nth-child(2) canvas`;
  const before = await hashOnScreen(page, weights);
  await page.getByLabel('causal (no looking ahead)').check();
  const w = parseRows(await outputOf(page, 5));
  assert.deepEqual(w[0], [1, 0, 0, 0, 0, 0]);
  w.forEach((row, i) => row.forEach((x, j) => j > i && assert.equal(x, 0, `w[${i}][${j}]`)));
  assert.notEqual(await hashOnScreen(page, weights), before);
  await page.waitForFunction(() => /tc=1/.test(location.hash)); // written once edits pause
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('multi-head: the heads grid keeps to its figure box (2 and 8 heads at 1280 px), square-ish where it fits', async () => {
  const page = await open();
  const heads = `${CH} section.step:nth-of-type(6) .figures.heads`;
  // Each head's figure, and the box around the grid, both measured after layout.
  const layout = () =>
    page.$eval(heads, (row) => ({
      box: row.parentElement.clientWidth,
      used: row.parentElement.scrollWidth,
      columns: Number(row.style.getPropertyValue('--columns')),
      figure: row.firstElementChild.offsetWidth,
      count: row.children.length,
    }));
  for (const label of [null, 'Try: heads = 8 with d_model = 8']) {
    if (label) await page.getByRole('button', { name: label }).click();
    await page.waitForFunction((sel) => document.querySelectorAll(`${sel} canvas`).length > 0, heads);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const l = await layout();
    assert.ok(l.used <= l.box + 1, `heads overflow their box: ${JSON.stringify(l)}`);
    const gap = 24; // 1.5rem
    const fits = Math.floor((l.box + gap) / (l.figure + gap));
    assert.equal(l.columns, Math.max(1, Math.min(Math.ceil(Math.sqrt(l.count)), fits)), JSON.stringify(l));
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('experiments: "turn on causal" makes row 1 one-hot; "heads = 8 with d_model = 8" gives d_k = 1', async () => {
  const page = await open('&tp=0');
  await page.getByRole('button', { name: 'Try: turn on causal' }).click();
  assert.ok(await page.getByLabel('causal (no looking ahead)').isChecked());
  const w = parseRows(await outputOf(page, 5));
  assert.deepEqual(w[0], [1, 0, 0, 0, 0, 0]);
  await page.waitForFunction(() => /tc=1/.test(location.hash)); // written once edits pause
  await page.getByRole('button', { name: 'Try: heads = 8 with d_model = 8' }).click();
  assert.equal(await page.getByLabel('d_model').inputValue(), '8');
  assert.equal(await page.getByLabel('heads', { exact: true }).inputValue(), '8');
  const heads = await page.$$eval(`${CH} section.step:nth-of-type(6) .heads canvas`, (cs) =>
    cs.map((c) => c.getAttribute('aria-label')),
  );
  assert.equal(heads.length, 8);
  assert.ok(
    heads.every((l) => /d_k = 1\)/.test(l)),
    heads.join('\n'),
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('padding, and flipped mask cells: a fully masked row gives zeros, not NaN', async () => {
  let page = await open('&tp=1');
  let w = parseRows(await outputOf(page, 5));
  for (const row of w) assert.equal(row[5], 0, 'the padded last token gets no attention');
  await page.context().close();
  // Flip the five remaining cells of the first row (a permalink): that query has nothing left.
  page = await open('&tp=1&tm=0.0,0.1,0.2,0.3,0.4');
  w = parseRows(await outputOf(page, 5));
  assert.deepEqual(w[0], [0, 0, 0, 0, 0, 0]);
  assert.match(
    await stepText(page, 5),
    /1 query has no key left to attend to: its weights and output are all zeros \(not NaN\)/,
  );
  assert.doesNotMatch(await outputOf(page, 5), /nan/i);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a click on a mask cell flips it and recomputes', async () => {
  const page = await open('&tp=0');
  const figure = page.locator(`${CH} section.step:nth-of-type(5) figure.heatmap:nth-child(1) canvas`);
  // Cell (0, 1): the canvas layout is exposed to the page through the heatmap's hit testing;
  // click inside the grid at the second column of the first row.
  await figure.scrollIntoViewIfNeeded();
  const target = await figure.evaluate((canvas) => {
    const box = canvas.getBoundingClientRect();
    return { x: box.left, y: box.top, w: box.width, h: box.height };
  });
  assert.ok(target.w > 100);
  const before = parseRows(await outputOf(page, 5))[0];
  // Find the cell by probing: move until the readout names row "the", column "cat".
  let clicked = false;
  for (let x = 5; x < target.w && !clicked; x += 8) {
    for (let y = 5; y < Math.min(target.h, 200) && !clicked; y += 8) {
      await page.mouse.move(target.x + x, target.y + y);
      const readout = await page.textContent(
        `${CH} section.step:nth-of-type(5) figure.heatmap:nth-child(1) .heatmap-readout`,
      );
      if (/^the, cat:/.test(readout ?? '')) {
        await page.mouse.click(target.x + x, target.y + y);
        clicked = true;
      }
    }
  }
  assert.ok(clicked, 'found the (the, cat) cell');
  const afterRow = parseRows(await outputOf(page, 5))[0];
  assert.equal(afterRow[1], 0, 'flipped cell is masked');
  assert.notDeepEqual(afterRow, before);
  await page.waitForFunction(() => /tm=0\.1/.test(location.hash)); // written once edits pause
  await page.context().close();
});

test('keyboard: focus the mask, move to a cell with the arrow keys, Enter flips it', async () => {
  const page = await open('&tp=0');
  const canvas = page.locator(`${CH} section.step:nth-of-type(5) figure.heatmap:nth-child(1) canvas`);
  const readout = page.locator(`${CH} section.step:nth-of-type(5) figure.heatmap:nth-child(1) .heatmap-readout`);
  await canvas.focus();
  await page.keyboard.press('ArrowRight'); // row "the", column "cat"
  assert.match(await readout.textContent(), /^the, cat: 1$/);
  await page.keyboard.press('Enter');
  assert.equal(parseRows(await outputOf(page, 5))[0][1], 0, 'flipped cell is masked');
  await page.waitForFunction(() => /tm=0\.1/.test(location.hash)); // written once edits pause
  await canvas.focus();
  await page.keyboard.press(' '); // the focused cell is still (the, cat): flip it back
  assert.ok(parseRows(await outputOf(page, 5))[0][1] > 0, 'flipped back');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('multi-head: one heatmap per head, matches the single API call', async () => {
  const page = await open('&td=8&th=4');
  const heads = await page.$$eval(`${CH} .figures.heads > figure.heatmap`, (f) => f.length);
  assert.equal(heads, 4);
  // The one-call check runs after the by-hand figures are painted (afterNextPaint).
  const check = page.locator(`${CH} section.step:nth-of-type(6) p.worked`).filter({ hasText: 'largest difference' });
  assert.match(await check.textContent(), /largest difference (0\.0e\+0|[0-9.]+e-1[5-9])/);
  await page.getByLabel('heads', { exact: true }).selectOption('8');
  assert.equal(await page.$$eval(`${CH} .figures.heads > figure.heatmap`, (f) => f.length), 8);
  // A new edit checks again, with the new heads.
  await page.waitForFunction(
    (ch) =>
      /heads: 8,.*largest difference/.test(
        document.querySelector(`${ch} section.step:nth-of-type(6) p.worked`).textContent,
      ),
    CH,
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('three uses: token labels, padding and causal masks', async () => {
  const page = await open();
  const labels = await page.$$eval(`${CH} section.step:nth-of-type(7) .use canvas`, (cs) =>
    cs.map((c) => c.getAttribute('aria-label')),
  );
  assert.equal(labels.length, 6);
  assert.match(labels[0], /encoder self-attention, head 1: heatmap of 5 by 5/);
  assert.match(labels[2], /masked decoder self-attention, head 1: heatmap of 5 by 5/);
  assert.match(labels[4], /encoder–decoder attention, head 1: heatmap of 5 by 5/);
  await tableValues(page.locator(`${CH} section.step:nth-of-type(7) .use figure.heatmap`).first());
  const table = await page.$$eval(`${CH} section.step:nth-of-type(7) .use table.heatmap-table`, (ts) =>
    ts.map((t) => t.textContent),
  );
  assert.match(table[0], /le.*chat.*est.*noir.*<pad>/s);
  const crossMap = `${CH} section.step:nth-of-type(7) .use canvas >> nth=4`;
  const before = await hashOnScreen(page, crossMap);
  await page.getByLabel('target sentence (decoder)').fill('<s> the black cat');
  assert.match(
    await page.$eval(`${CH} section.step:nth-of-type(7) .use canvas >> nth=4`, (c) => c.getAttribute('aria-label')),
    /4 by 5/,
  );
  assert.notEqual(await hashOnScreen(page, crossMap), before);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('three uses: drawn as boxes that lead to their maps, and as lines between tokens (one colour per head)', async () => {
  const page = await open();
  const step7 = `${CH} section.step:nth-of-type(7)`;
  assert.equal(await page.locator(`${step7} .uses-diagram [data-use]`).count(), 3);
  // This chapter's decoder works on words (issue 35: the shared diagram said "next character").
  assert.deepEqual(await page.locator(`${step7} .uses-diagram .uses-note`).allTextContents(), [
    'keys, values',
    'next word',
  ]);
  await page.click(`${step7} .uses-diagram [data-use="cross"]`);
  assert.equal(await page.getAttribute(`${step7} .uses-diagram [data-use="cross"]`, 'aria-pressed'), 'true');
  assert.ok(await page.$eval(`${step7} .use[data-use="cross"]`, (b) => b.classList.contains('is-chosen')));
  // One line view per use; each line's opacity is its weight in the heatmap beside it.
  assert.equal(await page.locator(`${step7} .token-lines`).count(), 3);
  const cross = page.locator(`${step7} .use[data-use="cross"]`);
  const values = (await tableValues(cross.locator('figure.heatmap').first())).map(Number); // 5 x 5, row-major
  const line = cross.locator('.token-lines line[data-head="0"][data-query="1"][data-key="2"]');
  const opacity = Number(await line.getAttribute('stroke-opacity'));
  assert.ok(Math.abs(opacity - values[1 * 5 + 2]) < 1e-3, `${opacity} vs ${values[1 * 5 + 2]}`);
  // The padded key has weight 0: no line goes to it.
  assert.equal(await cross.locator('.token-lines line[data-key="4"]').count(), 0);
  // Hover a key token: only its lines stay.
  await cross.locator('.token-lines-token[data-side="key"][data-index="0"]').hover();
  const isolated = await cross
    .locator('.token-lines svg')
    .evaluate((svg) => [...svg.querySelectorAll('line.is-focused')].map((l) => l.dataset.key));
  assert.ok(isolated.length > 0 && isolated.every((k) => k === '0'), JSON.stringify(isolated));
  // A head switched off in the legend takes its lines with it.
  await cross.getByRole('button', { name: 'head 2' }).click();
  assert.equal(await cross.locator('.token-lines line[data-head="1"]').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('sequence length 128 and d_model 64 render as pixel maps without errors', async () => {
  const page = await open('&tn=128&td=64&th=8');
  const painted = await paintedPixels(page, `${CH} canvas.pixel-map`);
  assert.ok(painted.length >= 10);
  // One canvas pixel per cell; the mask is mostly white (1 = may attend), so a low bar.
  painted.forEach((count, i) => assert.ok(count >= 100, `pixel map ${i} is blank`));
  const ms = Number(await page.getAttribute(CH, 'data-update-ms'));
  assert.ok(ms > 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('NumPy lines next to the figures reproduce the RandomState draws', async () => {
  const page = await open('&ts=7');
  const lines = await page.textContent(`${CH} section.step:nth-of-type(1) pre.numpy-lines`);
  assert.match(
    lines,
    /rs = np\.random\.RandomState\(7\)\nvocab = \['the', 'cat', 'sat', 'on', 'mat'\]\nE = rs\.randn\(5, 8\)/,
  );
  assert.match(lines, /ids = \[0, 1, 2, 3, 0, 4\]/);
  assert.match(lines, /Wq, Wk, Wv, Wo = \(rs\.randn\(8, 8\) \/ np\.sqrt\(8\) for _ in range\(4\)\)/);
  assert.match(await page.textContent(`${CH} section.step:nth-of-type(3) pre.numpy-lines`), /RandomState\(1\)/);
  assert.match(await page.textContent(`${CH} section.step:nth-of-type(7) pre.numpy-lines`), /RandomState\(1\)/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('malformed and oversized permalink values fall back to defaults or are clamped; the page renders', async () => {
  const page = await open(
    `&tn=100000&td=7&th=abc&ts=-5&tp=99999&tc=maybe&tk=3&tt=%20&tm=${'9.9,'.repeat(2000)}&tsrc=${'x%20'.repeat(3000)}`,
  );
  const weights = parseRows(await outputOf(page, 4));
  assert.equal(weights.length, 6, 'default tokens, one position per token');
  assert.equal(weights[0].length, 6);
  assert.equal(await page.$eval(`${CH} select[aria-label="d_model"]`, (s) => s.value), '8');
  assert.equal(await page.$eval(`${CH} select[aria-label="d_k"]`, (s) => s.value), '64');
  // Padding is clamped to 127 >= n: every key is padding, every row of weights is zero.
  for (const row of parseRows(await outputOf(page, 5))) assert.deepEqual(row, [0, 0, 0, 0, 0, 0]);
  const labels = await page.$$eval(`${CH} section.step:nth-of-type(7) .use canvas`, (cs) =>
    cs.map((c) => c.getAttribute('aria-label')),
  );
  assert.match(labels[0], /heatmap of 12 by 12/, 'the source sentence is cut to 12 tokens');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('provenance: a masked weight names its mask cell; an open one its softmax row; sources outlined', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=transformer`);
  const fig = (label) => `${CH} figure.heatmap:has(canvas[aria-label^="${label}"])`;
  await page.focus(`${fig('raw scores')} canvas`);
  assert.match(
    await page.textContent(`${fig('raw scores')} .heatmap-story`),
    /^score\[1\]\[1\] \(the → the\) = q1 \(the\) · k1 \(the\) = /,
  );
  const sources = await page.$$eval(`${CH} figure.heatmap.is-source canvas`, (cs) =>
    cs.map((c) => c.getAttribute('aria-label').split(':')[0]),
  );
  assert.deepEqual(sources, ['queries Q = X Wq', 'keys K = X Wk']);
  // The default state pads the last token: row 1's last key is masked.
  await page.focus(`${fig('masked attention weights')} canvas`);
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  assert.match(
    await page.textContent(`${fig('masked attention weights')} .heatmap-story`),
    /= 0: the mask cell M\[1\]\[6\] is 0 \(masked\)$/,
  );
  await page.keyboard.press('ArrowLeft');
  assert.match(await page.textContent(`${fig('masked attention weights')} .heatmap-story`), /1 masked key left out$/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('captions: every figure has a visible caption; the mask legend matches the drawing mode', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=transformer`);
  const captions = await page.$$eval(`${CH} section.step:nth-of-type(1) figure.heatmap figcaption`, (cs) =>
    cs.map((c) => (c.hidden ? '' : c.textContent)),
  );
  assert.deepEqual(captions, [
    'embeddings X, one row per token',
    'queries Q = X Wq',
    'keys K = X Wk',
    'values V = X Wv',
  ]);
  const masked = `${CH} figure.heatmap:has(canvas[aria-label^="masked attention weights"]) figcaption`;
  assert.equal(await page.textContent(masked), 'masked attention weights (hatched = masked)');
  await page.context().close();
  const big = await openPage(env.browser, `${env.url}#chapter=transformer&tn=128`);
  assert.match(
    await big.textContent(masked),
    /^masked attention weights \(128 × 128; colour scale 0 to 1; grey = masked\)$/,
  );
  await big.context().close();
});

test('repaints follow inputs: a new seed keeps the mask figure, an edit of the mask or the tokens repaints it', async () => {
  const page = await open();
  // Counts the draws of each figure (every Heatmap draw, in either mode, sets its context's
  // transform; canvasHash only reads pixels).
  await page.evaluate(() => {
    const setTransform = CanvasRenderingContext2D.prototype.setTransform;
    CanvasRenderingContext2D.prototype.setTransform = function counted(...args) {
      this.canvas.dataset.draws = String(Number(this.canvas.dataset.draws ?? 0) + 1);
      return setTransform.apply(this, args);
    };
  });
  const draws = (label) =>
    page.$eval(`${CH} canvas[aria-label^="${label}"]`, (c) => {
      const n = Number(c.dataset.draws ?? 0);
      c.dataset.draws = '0';
      return n;
    });
  const mask = 'mask (1 = may attend';
  const masked = 'masked attention weights';
  const hash = () => canvasHash(page, `${CH} canvas[aria-label^="${mask}"]`);
  // A figure's draws are read once it is on screen and painted: typing in a field scrolls the
  // page to it, which may leave a lazy figure off screen and stale until it comes back (next
  // test), and where the fold falls depends on the window.
  const drawsOnScreen = async (label) => {
    const selector = `${CH} canvas[aria-label^="${label}"]`;
    await page.locator(selector).scrollIntoViewIfNeeded();
    await painted(page, selector);
    return draws(label);
  };
  await drawsOnScreen(mask);
  await drawsOnScreen(masked);
  const first = await hash();

  await page.getByLabel('seed', { exact: true }).fill('5');
  await page.getByLabel('seed', { exact: true }).press('Tab');
  assert.equal(await drawsOnScreen(masked), 1, 'the masked weights follow the new seed');
  assert.equal(await drawsOnScreen(mask), 0, 'the mask does not depend on the seed: not repainted');
  assert.equal(await hash(), first);

  await page.getByLabel('causal (no looking ahead)').check();
  assert.equal(await drawsOnScreen(mask), 1, 'a causal mask is a new mask');
  assert.equal(await drawsOnScreen(masked), 1);
  const causal = await hash();
  assert.notEqual(causal, first);

  // Same number of tokens (same mask), new words: the mask's row and column labels change.
  await page.getByLabel('tokens', { exact: true }).fill('a dog ran in the park');
  assert.equal(await drawsOnScreen(mask), 1, 'new labels repaint the mask');
  assert.notEqual(await hash(), causal);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('lazy figures: an edit leaves off-screen canvases stale; scrolled into view, they show the current numbers', async () => {
  const big = '&tn=128&td=64&th=2';
  const masked = `${CH} canvas[aria-label^="masked attention weights"]`;
  const head2 = `${CH} canvas[aria-label^="head 2 weights"]`;
  // The reference: a page opened on seed 9, its figures scrolled to and painted.
  const fresh = await open(`${big}&ts=9`);
  const reference = [];
  for (const selector of [masked, head2]) {
    await fresh.locator(selector).scrollIntoViewIfNeeded();
    await painted(fresh, selector);
    reference.push(await canvasHash(fresh, selector));
  }
  await fresh.context().close();

  // The test's own window (the point is figures off screen): the seed field on screen at the
  // top, the two maps far below it, each figure's place reported by its observer before the edit.
  const page = await openPage(env.browser, `${env.url}#chapter=transformer${big}&ts=1`, {
    viewport: { width: 1200, height: 800 },
  });
  const seed = page.getByLabel('seed', { exact: true });
  await seed.scrollIntoViewIfNeeded();
  for (const selector of [masked, head2]) await page.locator(`${selector}[data-near-view="false"]`).waitFor();
  await seed.fill('9');
  await seed.press('Tab');
  // Off screen: not painted by the edit, yet captioned with the new numbers.
  assert.equal(await page.getAttribute(masked, 'data-painted'), 'stale');
  assert.equal(await page.getAttribute(head2, 'data-painted'), 'stale');
  assert.equal(await page.getAttribute(`${CH} canvas[aria-label^="embeddings X"]`, 'data-painted'), 'true');
  // Printing paints what was left stale, with the current numbers.
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  assert.equal(await page.getAttribute(head2, 'data-painted'), 'true');
  assert.equal(await canvasHash(page, head2), reference[1], 'printed: head 2 shows seed 9');
  await seed.fill('1');
  await seed.press('Tab');
  await seed.fill('9');
  await seed.press('Tab');
  assert.equal(await page.getAttribute(head2, 'data-painted'), 'stale');
  for (const [i, selector] of [masked, head2].entries()) {
    await page.locator(selector).scrollIntoViewIfNeeded();
    await painted(page, selector);
    assert.equal(await canvasHash(page, selector), reference[i], `${selector} shows seed 9's numbers`);
  }
  // An edit while it is on screen repaints it at once. The checkbox is clicked where it is
  // (a synthetic click, no scrolling to it), so the map stays on screen.
  await page.locator(masked).scrollIntoViewIfNeeded();
  await page.locator(`${masked}[data-near-view="true"]`).waitFor();
  await page.getByLabel('causal (no looking ahead)').dispatchEvent('click');
  assert.ok(await page.getByLabel('causal (no looking ahead)').isChecked());
  assert.equal(await page.getAttribute(masked, 'data-painted'), 'true');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the keyboard counts cells in the current numbers, not in the last drawing (a lazy figure left stale)', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=transformer&tn=128&td=64&th=2&ts=3`, {
    viewport: { width: 1200, height: 800 },
  });
  const head2 = `${CH} canvas[aria-label^="head 2 weights"]`;
  await page.getByLabel('length', { exact: true }).scrollIntoViewIfNeeded();
  await page.locator(`${head2}[data-near-view="false"]`).waitFor();
  // 128 positions drawn; the reader picks 64 while the figure is off screen: it is left stale,
  // its drawing still 128 × 128.
  await page.getByLabel('length', { exact: true }).selectOption('64');
  assert.equal(await page.getAttribute(head2, 'data-painted'), 'stale');
  assert.match(await page.getAttribute(head2, 'aria-label'), /64 by 64/);
  // Focused where it is (as a screen reader's cursor may, no scrolling), then 70 steps right
  // and one down: the keyboard stops at the last of the 64 columns.
  await page.$eval(head2, (canvas) => canvas.focus({ preventScroll: true }));
  for (let i = 0; i < 70; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  const figure = page.locator(`${CH} figure.heatmap`, { has: page.locator('canvas[aria-label^="head 2 weights"]') });
  const readout = await figure.locator('.heatmap-readout').textContent();
  assert.equal(await page.getAttribute(head2, 'data-painted'), 'stale', 'still not painted');
  const cells = await tableValues(figure); // the current numbers, 64 per row
  assert.equal(cells.length, 64 * 64);
  assert.equal(readout.split(': ').at(-1), cells[64 + 63], `readout "${readout}" is row 2, column 64`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('formulas: X, Q, K, V, the scores, the weights and the output light up their figures', async () => {
  const page = await open();
  const step1 = page.locator(`${CH} section.step`).nth(0);
  const q = step1.locator('.formula .sym-Q').first();
  assert.ok(await q.evaluate((n) => n.classList.contains('sym-pal-purple')), 'Q is coloured like its purple figure');
  await q.dispatchEvent('mouseover');
  const lit = await step1
    .locator('figure.heatmap.linked canvas')
    .evaluateAll((cs) => cs.map((c) => c.getAttribute('aria-label')));
  assert.equal(lit.length, 1);
  assert.match(lit[0], /^queries Q = X Wq/);
  await q.dispatchEvent('mouseout');
  assert.equal(await step1.locator('figure.heatmap.linked').count(), 0);
  const step4 = page.locator(`${CH} section.step`).nth(3);
  await step4.locator('.formula .sym-output').first().dispatchEvent('mouseover');
  assert.match(await step4.locator('figure.heatmap.linked canvas').getAttribute('aria-label'), /^output = weights · V/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('step 3’s reading of the table follows its numbers: at d_k = 1 scaling changes nothing, at 512 it names the drop', async () => {
  const page = await open('&tk=1');
  const summary = () => page.textContent(`${CH} p.dk-summary`);
  const row = (dk) =>
    page.$$eval(
      `${CH} table.dk-table tr`,
      (trs, d) => trs.map((tr) => Array.from(tr.children, (c) => c.textContent)).find((cells) => cells[0] === d),
      String(dk),
    );
  const at1 = await summary();
  assert.match(at1, /At d_k = 1, √d_k = 1: scaling changes nothing/);
  // The scaled largest weights of the table: the sentence says they move only when they do.
  const scaledMax = (
    await page.$$eval(`${CH} table.dk-table tr`, (trs) => trs.slice(1).map((tr) => tr.children[4].textContent))
  ).map(Number);
  const spread = Math.max(...scaledMax) - Math.min(...scaledMax);
  assert.equal(/does not stay put/.test(at1), spread > 0.05, `spread ${spread}: ${at1}`);
  assert.doesNotMatch(at1, /both stay put/);
  await page.getByLabel('d_k', { exact: true }).selectOption('512');
  const at512 = await summary();
  const [, , , raw, scaled] = await row(512);
  assert.ok(
    at512.includes(`At d_k = 512, dividing by √d_k = 22.627 takes the largest weight from ${raw} to ${scaled}`),
    at512,
  );
  assert.notEqual(at512, at1);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an empty token field says why it is refused and which tokens are still drawn', async () => {
  const page = await open();
  const field = page.getByRole('textbox', { name: 'tokens' }).first();
  await field.fill('   ');
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  const note = page.locator(`${CH} .tokens-note:visible`);
  assert.deepEqual(await note.allTextContents(), [
    'no words (only spaces or nothing): still using “the cat sat on the mat”',
  ]);
  await field.fill('a b');
  assert.equal(await note.count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
