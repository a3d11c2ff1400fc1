// End to end, at 1280 and 390 px: the GloVe chapter explains its weights
// (provenance readouts for the dot-product, trainable and additive maps), draws
// them as token lines, masks missing words, offers cosine similarity, and the
// page-wide parts: attention weights on a fixed 0–1 scale with "stretch
// contrast", one menu button per heatmap, and the skip link.
// Expected numbers: tests/fixtures/glove_cosine.txt (make_glove_cosine.py).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadFixture } from '../../../../../../tests/js/fixtures.js';
import { canvasHash, openPage, tableValues, useBrowser } from '../../../../../../tests/browser/harness.mjs';

const ref = loadFixture('glove_cosine.txt');
const WIDTHS = [1280, 390];
const env = useBrowser();

const CHAPTER = '#chapter-glove';
const stepSel = (n) => `${CHAPTER} section.step:nth-of-type(${n})`;
const figureOf = (label) => `${CHAPTER} figure.heatmap:has(canvas[aria-label^="${label}"])`;

async function openChapter(width, hash = 'chapter=glove') {
  const page = await openPage(env.browser, `${env.url}#${hash}`, { viewport: { width, height: 900 } });
  await page.waitForSelector(`${CHAPTER}[data-loaded="true"]`);
  return page;
}

const maxDiff = (a, b) => Math.max(...a.map((x, i) => Math.abs(x - b[i])));
const values = async (page, n) => (await tableValues(page.locator(`${stepSel(n)} figure.heatmap`).first())).map(Number);
const sources = (page) =>
  page.$$eval(`${CHAPTER} figure.heatmap.is-source canvas`, (cs) =>
    cs.map((c) => c.getAttribute('aria-label').split(':')[0]),
  );
const EMBEDDINGS = ['query embeddings, one column per token', 'key embeddings, one column per token'];

for (const width of WIDTHS) {
  test(`${width} px: trainable and additive weights explain themselves, with their embedding columns outlined`, async () => {
    const page = await openChapter(width);
    const trainable = figureOf('trainable attention');
    await page.focus(`${trainable} canvas`);
    await page.keyboard.press('ArrowDown'); // 'teacher' → 'A' (masked), then → 'student'
    assert.equal(
      await page.textContent(`${trainable} .heatmap-story`),
      "weight[2][1] (teacher → A) = 0: 'A' has no vector in these embeddings, so it is masked (no row or column weight).",
    );
    await page.keyboard.press('ArrowRight');
    const text = await page.textContent(`${trainable} .heatmap-story`);
    assert.match(
      text,
      /^weight\[2\]\[2\] \(teacher → student\) = .* = (0\.\d+); 1 masked key left out; scaled\[2\]\[2\] \(teacher → student\) = q′·k′\[2\]\[2\] \/ √64 = .* \/ 8 = (−?\d\.\d+); q′·k′\[2\]\[2\] \(teacher → student\) = q′2 \(teacher\) · k′2 \(student\) = .* \(64 products\) = /,
    );
    assert.deepEqual(await sources(page), EMBEDDINGS);
    // The weight it quotes is the one in the matrix (4 significant digits).
    const weight = Number(text.match(/ = (0\.\d+); 1 masked/)[1]);
    const matrix = await values(page, 5);
    assert.ok(Math.abs(weight - matrix[1 * 9 + 1]) < 5e-5, `${weight} vs ${matrix[10]}`);

    const additive = figureOf('additive attention');
    await page.focus(`${additive} canvas`);
    await page.keyboard.press('ArrowRight'); // 'The' → 'student'
    assert.match(
      await page.textContent(`${additive} .heatmap-story`),
      /^weight\[1\]\[2\] \(The → student\) = e\^.* = 0\.\d+; 1 masked key left out; score\[1\]\[2\] \(The → student\) = w_s · tanh\(q′1 \(The\) \+ k′2 \(student\)\) \+ b_s = .* \(64 terms\) \+ .* = /,
    );
    assert.deepEqual(await sources(page), EMBEDDINGS);
    // The readout sits in the flow under its figure, announced.
    assert.equal(await page.getAttribute(`${additive} .heatmap-story`, 'aria-live'), 'polite');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test(`${width} px: a token-line view beside each attention matrix; hovering a token isolates its lines and outlines its row`, async () => {
    const page = await openChapter(width);
    // At 1280 px the lines stand beside the matrix, at 390 px under it (before a values table widens it).
    const heatmapBox = await page.locator(`${stepSel(4)} figure.heatmap`).boundingBox();
    const linesBox = await page.locator(`${stepSel(4)} figure.token-lines`).boundingBox();
    if (width >= 1000) assert.ok(linesBox.x >= heatmapBox.x + heatmapBox.width, 'beside');
    else assert.ok(linesBox.y >= heatmapBox.y + heatmapBox.height - 1, 'below');

    for (const n of [4, 5, 6]) {
      const lines = `${stepSel(n)} figure.token-lines`;
      const weights = await values(page, n);
      // One line per weight of at least 0.01 (masked pairs have none), opacity = weight.
      const drawn = await page.$$eval(`${lines} line`, (ls) =>
        ls.map((l) => [Number(l.dataset.query), Number(l.dataset.key), Number(l.getAttribute('stroke-opacity'))]),
      );
      assert.equal(drawn.length, weights.filter((w) => w >= 0.01).length, `step ${n}`);
      for (const [i, j, opacity] of drawn) assert.ok(Math.abs(opacity - weights[i * 9 + j]) < 1e-3);
      assert.ok(!drawn.some(([i, j]) => i === 3 || j === 0), 'no line from "a" or to "A"');
      const box = await page.locator(lines).boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= width, `step ${n} lines fit the screen`);
    }
    const she = page.locator(`${stepSel(4)} figure.token-lines text[data-side="query"][data-index="6"]`);
    await she.hover();
    const focused = await page.$$eval(`${stepSel(4)} figure.token-lines line.is-focused`, (ls) =>
      ls.map((l) => Number(l.dataset.query)),
    );
    assert.ok(focused.length > 0 && focused.every((q) => q === 6), 'only the lines of "she"');
    assert.equal(
      await page.$eval(`${stepSel(4)} figure.token-lines svg`, (s) => s.classList.contains('has-focus')),
      true,
    );
    assert.equal(await page.$eval(`${stepSel(4)} figure.heatmap`, (f) => f.classList.contains('is-source')), true);
    await page.mouse.move(0, 0);
    assert.equal(await page.$eval(`${stepSel(4)} figure.heatmap`, (f) => f.classList.contains('is-source')), false);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('cosine similarity: the toggle changes the weights to NumPy’s cosine ones, the readout and the text follow, the URL keeps it', async () => {
  const page = await openChapter(1280);
  const before = await values(page, 4);
  assert.ok(maxDiff(before, Array.from(ref.get('notebook.dot.weights').data)) < 1e-3);
  await page.getByLabel('cosine similarity').check();
  const after = await values(page, 4);
  assert.ok(maxDiff(after, Array.from(ref.get('notebook.cosine.weights').data)) < 1e-3);
  assert.ok(maxDiff(after, before) > 0.1, 'the weights changed');
  assert.match(await page.evaluate(() => location.hash), /cos=1/);
  assert.match(await page.textContent(`${stepSel(4)} .self-note`), /^With cosines every vector has length 1/);
  const dot = figureOf('dot-product attention');
  await page.focus(`${dot} canvas`);
  await page.keyboard.press('ArrowRight');
  assert.match(
    await page.textContent(`${dot} .heatmap-story`),
    /^weight\[1\]\[2\] \(The → student\) = .*; cos\[1\]\[2\] \(The → student\) = q·k\[1\]\[2\] \/ \(‖q‖·‖k‖\) = /,
  );
  await page.getByLabel('cosine similarity').uncheck();
  assert.ok(maxDiff(await values(page, 4), before) < 1e-12);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the same word need not win: the experiment sets "brother" → "son", and cosine makes every word win', async () => {
  const page = await openChapter(1280);
  await page.getByRole('button', { name: 'Try: a word that loses to another word' }).click();
  assert.equal(await page.getByLabel('query sentence').inputValue(), 'her brother asked why');
  const note = await page.textContent(`${stepSel(4)} .self-note`);
  assert.match(note, /“brother” attends most to “son”, not to itself; “why” attends most to “you”, not to itself/);
  assert.doesNotMatch(await page.textContent(stepSel(4)), /largest possible dot product/);
  // NumPy agrees on the row of "brother".
  const w = await values(page, 4);
  const want = Array.from(ref.get('family.dot.weights').data);
  assert.ok(maxDiff(w, want) < 1e-3);
  await page.getByLabel('cosine similarity').check();
  assert.match(
    await page.textContent(`${stepSel(4)} .self-note`),
    /“her”, “brother”, “asked”, “why” attend most to themselves/,
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('missing words are masked: no weight in their row or column, drawn hatched, said why; every token with a vector', async () => {
  const page = await openChapter(390);
  for (const n of [4, 5, 6]) {
    const w = await values(page, n);
    for (let j = 0; j < 9; j++) assert.equal(w[3 * 9 + j], 0, `step ${n}: "a" row`);
    for (let i = 0; i < 8; i++) assert.equal(w[i * 9], 0, `step ${n}: "A" column`);
  }
  assert.match(await page.textContent(`${stepSel(4)} .mask-note`), /a missing query word gets no weights/);
  // A sentence with every word known: no mask note, no zero.
  await page.getByLabel('query sentence').fill('the teacher helped her');
  await page.getByLabel('key sentence').fill('she thanked the teacher');
  assert.equal(await page.isHidden(`${stepSel(4)} .mask-note`), true);
  assert.ok((await values(page, 4)).every((x) => x > 0));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('attention weights are on a fixed 0–1 colour scale by default; "Stretch contrast" spreads them and comes back', async () => {
  const page = await openChapter(1280);
  const dot = figureOf('dot-product attention');
  const tools = `${dot} .heatmap-tools`;
  assert.equal(await page.getAttribute(tools, 'data-scale'), 'fixed');
  // Every GloVe weight map, and no embedding map, has the scale item.
  assert.equal(await page.locator(`${CHAPTER} .heatmap-tools[data-scale]`).count(), 3);
  const fixed = await canvasHash(page, `${dot} canvas`);
  await page.click(`${tools} .heatmap-menu-button`);
  const stretch = page.getByRole('menuitemcheckbox', { name: /Stretch contrast/ });
  assert.equal(await stretch.getAttribute('aria-checked'), 'false');
  await stretch.click();
  assert.equal(await page.getAttribute(tools, 'data-scale'), 'stretched');
  const stretched = await canvasHash(page, `${dot} canvas`);
  assert.notEqual(stretched, fixed);
  await page.click(`${tools} .heatmap-menu-button`);
  assert.equal(await stretch.getAttribute('aria-checked'), 'true');
  await stretch.click();
  assert.equal(await canvasHash(page, `${dot} canvas`), fixed);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

for (const width of WIDTHS) {
  test(`${width} px: a heatmap is two tab stops (canvas, one menu button); the menu works from the keyboard`, async () => {
    const page = await openChapter(width);
    const dot = figureOf('dot-product attention');
    await page.focus(`${dot} canvas`);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.className), 'small heatmap-menu-button');
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-expanded')), 'false');
    // No PNG / Copy / summary stops: the next Tab leaves the figure.
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate((sel) => document.querySelector(sel).contains(document.activeElement), dot),
      false,
    );
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Download as PNG');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Show the values as a table');
    await page.keyboard.press('Enter');
    assert.equal(await page.$eval(`${dot} details.heatmap-values`, (d) => d.open), true);
    assert.equal(await page.evaluate(() => document.activeElement.classList.contains('heatmap-menu-button')), true);
    // The table is filled by the details' toggle event, after Enter returns: wait for it.
    await page.locator(`${dot} table td`).first().waitFor();
    assert.equal(await page.locator(`${dot} table td`).count(), 72);
    // Escape closes the menu and gives focus back to its button.
    await page.keyboard.press('Enter');
    assert.equal(await page.isVisible(`${dot} .heatmap-menu`), true);
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible(`${dot} .heatmap-menu`), false);
    assert.equal(await page.evaluate(() => document.activeElement.classList.contains('heatmap-menu-button')), true);
    // The menu fits the screen.
    await page.keyboard.press('Enter');
    const box = await page.locator(`${dot} .heatmap-menu`).boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= width, `menu from ${box.x} to ${box.x + box.width}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test(`${width} px: the skip link is the first tab stop and moves focus to the lesson, the URL untouched`, async () => {
    const page = await openChapter(width, 'chapter=glove&d=16');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to the lesson');
    const box = await page.locator('.skip-link').boundingBox();
    assert.ok(box.y >= 0 && box.x + box.width <= width, 'visible when focused');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'chapter');
    assert.match(await page.evaluate(() => location.hash), /^#chapter=glove&d=16/);
    assert.equal(await page.locator(`${CHAPTER}`).count(), 1, 'still the same chapter');
    // The next Tab is inside the lesson, past the header and the contents.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.getElementById('chapter').contains(document.activeElement)), true);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('the other chapters’ attention weights (Basics, Bahdanau, Q/K/V) are on the fixed 0–1 scale with the same toggle', async () => {
  for (const [chapter, count] of [
    ['basics', 1],
    ['bahdanau', 2],
    ['qkv', 1],
  ]) {
    const page = await openPage(env.browser, `${env.url}#chapter=${chapter}`);
    const tools = page.locator(`#chapter-${chapter} .heatmap-tools[data-scale="fixed"]`);
    assert.equal(await tools.count(), count, chapter);
    const figure = page.locator(`#chapter-${chapter} figure.heatmap:has(.heatmap-tools[data-scale])`).first();
    const canvas = figure.locator('canvas');
    const before = await canvas.evaluate((c) => c.toDataURL());
    await figure.locator('.heatmap-menu-button').click();
    await figure.getByRole('menuitemcheckbox', { name: /Stretch contrast/ }).click();
    assert.equal(await figure.locator('.heatmap-tools').getAttribute('data-scale'), 'stretched', chapter);
    assert.notEqual(await canvas.evaluate((c) => c.toDataURL()), before, `${chapter}: repainted`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('the same sentence twice: a square matrix; with cosine similarity every word attends most to itself', async () => {
  const page = await openChapter(1280);
  await page.getByRole('button', { name: 'Try: the same sentence twice' }).click();
  const query = await page.getByLabel('query sentence').inputValue();
  assert.equal(await page.getByLabel('key sentence').inputValue(), query);
  await page.getByLabel('cosine similarity').check();
  const w = await values(page, 4);
  const n = Math.round(Math.sqrt(w.length));
  assert.equal(n * n, w.length, 'square');
  for (let i = 0; i < n; i++) {
    const row = w.slice(i * n, (i + 1) * n);
    if (row.every((x) => x === 0)) continue; // a masked word (no vector)
    assert.equal(row.indexOf(Math.max(...row)), i, `row ${i}: ${row.join(' ')}`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
