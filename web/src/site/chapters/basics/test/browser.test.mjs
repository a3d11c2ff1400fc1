// End to end: the "Attention Basics" chapter in Debian's chromium, over http
// and from file://. Expected numbers are the notebook's, or worked out by hand
// in this file for edited inputs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import meta from '../meta.js';
import { canvasHash, FILE_URL, openPage, paintedPixels, useBrowser } from '../../../../../../tests/browser/harness.mjs';

const env = useBrowser();

const outputs = (page) => page.$$eval('#chapter-basics pre.output', (nodes) => nodes.map((n) => n.textContent));
const decoderEntry = (page, i) =>
  page.getByRole('textbox', { name: `decoder hidden state h, entry ${i}`, exact: true });

async function checkNotebookNumbers(page) {
  const text = (await outputs(page)).join('\n');
  assert.ok((await outputs(page)).includes('927'), 'np.dot of the integer lists prints 927 (an int64)');
  assert.match(text, /array\(\[927\., 397\., 148\., 929\.\]\)/);
  assert.match(text, /array\(\[1\.19202922e-001, 7\.94715151e-232, 0\.00000000e\+000, 8\.80797078e-001\]\)/);
  assert.match(text, /array\(\[nan, {2}0\., {2}0\., nan\]\)/); // the naive formula
  assert.match(text, /array\(\[ 3\.88079708, {2}4\.0728263 , 45\.26423912\]\)/); // the context vector
  const body = await page.textContent('#chapter-basics');
  assert.match(body, /α3: float64 gives 0; from log space 5\.766e-340/);
}

test('loads over http with no console errors, paints every canvas, shows the notebook numbers', async () => {
  const page = await openPage(env.browser, env.url);
  await checkNotebookNumbers(page);
  const painted = await paintedPixels(page, '#chapter-basics canvas');
  assert.equal(painted.length, 7, 'one heatmap per step except step 3, the single score');
  painted.forEach((count, i) => assert.ok(count > 500, `canvas ${i} has only ${count} painted pixels`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('loads from file:// with no console errors', async () => {
  const page = await openPage(env.browser, FILE_URL);
  await checkNotebookNumbers(page);
  const painted = await paintedPixels(page, '#chapter-basics canvas');
  painted.forEach((count, i) => assert.ok(count > 500, `canvas ${i} is blank`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('high-DPI: canvases are drawn at device resolution', async () => {
  const page = await openPage(env.browser, env.url, { deviceScaleFactor: 2 });
  const sizes = await page.$$eval('#chapter-basics canvas', (cs) =>
    cs.map((c) => [c.width, c.getBoundingClientRect().width]),
  );
  for (const [pixels, css] of sizes) assert.equal(pixels, Math.round(css * 2));
  await page.context().close();
});

test('typing into the decoder state recomputes scores, weights and context, repaints, and updates the URL', async () => {
  const page = await openPage(env.browser, env.url);
  const scoresCanvas = '#chapter-basics section.step:nth-of-type(5) canvas';
  const before = await canvasHash(page, scoresCanvas);
  await decoderEntry(page, 1).fill('6');
  // h = [6, 1, 20]: 6*3+12+900, 6*59+2+100, 6+43+100, 24+3+906
  const text = (await outputs(page)).join('\n');
  assert.match(text, /array\(\[930\., 456\., 149\., 933\.\]\)/);
  assert.notEqual(await canvasHash(page, scoresCanvas), before, 'scores heatmap was not repainted');
  // softmax of [930, 456, 149, 933]: 1 / (1 + e^3) = 0.04742587...
  assert.match(text, /4\.74258732e-002/);
  assert.match(await page.evaluate(() => location.hash), /h=6,1,20/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a permalink restores edited inputs', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=basics&h=1,0,0&H=1,2,3;4,5,6`);
  assert.equal(await decoderEntry(page, 1).inputValue(), '1');
  const text = (await outputs(page)).join('\n');
  assert.match(text, /array\(\[1\., 4\.\]\)/); // scores: first entries of each step
  await page.context().close();
});

test('encoder steps can be added and removed', async () => {
  const page = await openPage(env.browser, env.url);
  await page.getByRole('button', { name: '+ add a step' }).click();
  let scores = (await outputs(page))[4];
  assert.equal(scores.split(',').length, 5, scores);
  await page.getByRole('button', { name: 'remove encoder step 1' }).click();
  await page.getByRole('button', { name: 'remove encoder step 1' }).click();
  scores = (await outputs(page))[4];
  assert.match(scores, /^array\(\[148\., 929\., /);
  assert.equal(await page.$$eval('#chapter-basics section.step:nth-of-type(5) canvas', (c) => c.length), 1);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a typo marks the input invalid and keeps the last good numbers', async () => {
  const page = await openPage(env.browser, env.url);
  await decoderEntry(page, 2).fill('1x');
  assert.equal(await decoderEntry(page, 2).getAttribute('aria-invalid'), 'true');
  await checkNotebookNumbers(page);
  // Said in words, not only by the red border (issue 35): the value still in force.
  const note = page.locator('#chapter-basics .num-note:visible');
  assert.deepEqual(await note.allTextContents(), ['not a number: still using 1']);
  await decoderEntry(page, 2).fill('');
  assert.deepEqual(await note.allTextContents(), ['empty: still using 1']);
  await decoderEntry(page, 2).fill('1');
  assert.equal(await decoderEntry(page, 2).getAttribute('aria-invalid'), 'false');
  assert.equal(await note.count(), 0, 'a valid entry hides the note');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('step-through mode shows one step at a time, with buttons and arrow keys', async () => {
  const page = await openPage(env.browser, env.url);
  await page.getByRole('button', { name: 'Step through' }).click();
  const visible = () =>
    page.$$eval('#chapter-basics section.step', (s) => s.filter((x) => !x.hidden).map((x) => x.dataset.step));
  assert.deepEqual(await visible(), ['1']);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await visible(), ['3']);
  assert.match(await page.textContent('.step-toolbar .position'), /Step 3 of 8/);
  await page.getByRole('button', { name: 'previous step' }).click();
  assert.deepEqual(await visible(), ['2']);
  assert.match(await page.evaluate(() => location.hash), /mode=steps&step=2|step=2.*mode=steps/);
  await page.getByRole('button', { name: 'All steps' }).click();
  assert.equal((await visible()).length, 8);
  await page.context().close();
});

test('the contents bar lists the chapters and marks the current one', async () => {
  const page = await openPage(env.browser, env.url);
  const current = await page.$eval('#contents a[aria-current="page"]', (a) => a.textContent);
  assert.equal(current, meta.title);
  await page.context().close();
});

test('a malformed or oversized permalink falls back to the notebook inputs and still renders', async () => {
  const page = await openPage(
    env.browser,
    `${env.url}#chapter=basics&h=1,abc,3&H=${Array(50).fill('1,2,3').join(';')}`,
  );
  await checkNotebookNumbers(page);
  const painted = await paintedPixels(page, '#chapter-basics canvas');
  painted.forEach((count, i) => assert.ok(count > 500, `canvas ${i} is blank`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** Keyboard: focus a heatmap and move to cell (row, col) with the arrow keys. */
async function focusCell(page, figureSelector, row, col) {
  await page.focus(`${figureSelector} canvas`);
  for (let r = 0; r < row; r++) await page.keyboard.press('ArrowDown');
  for (let c = 0; c < col; c++) await page.keyboard.press('ArrowRight');
}

test('provenance: hovering a score, a weight or a context entry outlines its sources and shows the arithmetic', async () => {
  const page = await openPage(env.browser, env.url);
  const scores = '#chapter-basics section.step:nth-of-type(5) figure.heatmap';
  const weights = '#chapter-basics section.step:nth-of-type(6) figure.heatmap';
  const context = '#chapter-basics section.step:nth-of-type(8) figure.heatmap';
  const sourceFigures = () =>
    page.$$eval('#chapter-basics figure.heatmap.is-source', (nodes) =>
      nodes.map((n) => n.querySelector('canvas').getAttribute('aria-label').split(':')[0]),
    );

  // The pointer: the first score cell sits at the canvas's top left (no row labels: 2 px, then 8 px of margin).
  await page.locator(`${scores} canvas`).hover({ position: { x: 20, y: 20 } });
  assert.match(await page.textContent(`${scores} .heatmap-readout`), /h̄1: 927$/);
  assert.equal(await page.textContent(`${scores} .heatmap-story`), 'e1 = h · h̄1 = 5·3 + 1·12 + 20·45 = 927');
  assert.equal(await page.getAttribute(`${scores} .heatmap-story`, 'aria-live'), 'polite');
  assert.deepEqual(await sourceFigures(), [
    'decoder hidden state h',
    'annotations matrix H, one column per encoder step',
  ]);

  await focusCell(page, weights, 0, 0);
  assert.equal(
    await page.textContent(`${weights} .heatmap-story`),
    'α1 = e^(927 − 929) / (e^(927 − 929) + e^(397 − 929) + e^(148 − 929) + 1) = 0.1192',
  );
  assert.deepEqual(await sourceFigures(), ['scores e, one per encoder step']);

  await focusCell(page, context, 0, 0);
  assert.match(await page.textContent(`${context} .heatmap-story`), /^c1 = H\[1\] · α = 3·0\.1192 \+ .* = 3\.881$/);
  assert.equal((await sourceFigures()).length, 2); // H's row 1 and the weights

  // After an edit the readout and the softmax sentence quote the new numbers.
  await decoderEntry(page, 1).fill('6');
  await page.locator(`${scores} canvas`).hover({ position: { x: 20, y: 20 } });
  assert.equal(await page.textContent(`${scores} .heatmap-story`), 'e1 = h · h̄1 = 6·3 + 1·12 + 20·45 = 930');
  const sentence = await page.textContent('#chapter-basics .live-sentence');
  assert.match(sentence, /^The two largest scores, 933 \(step 4\) and 930 \(step 1\), differ by 3/);
  assert.ok(!sentence.includes('927'));

  // Moving on clears the outlines of the sources.
  await focusCell(page, weights, 0, 3);
  assert.match(await page.textContent(`${weights} .heatmap-story`), /^α4 = 1 \/ \(/);
  await page.locator('#chapter-basics h1').click();
  assert.deepEqual(await sourceFigures(), []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('diagram: drawn from the live numbers, lines as wide as the weights, a hovered step isolated', async () => {
  const page = await openPage(env.browser, env.url);
  const widths = () =>
    page.$$eval('#chapter-basics .flow-diagram .flow-weight', (lines) =>
      lines.map((l) => Number(l.getAttribute('stroke-width'))),
    );
  // Weights 0.1192, 7.9e-232, 0, 0.8808 times 12 px.
  assert.deepEqual(await widths(), [1.43, 0, 0, 10.57]);
  assert.match(
    await page.textContent('#chapter-basics .flow-diagram'),
    /e1 = 927.*e4 = 929.*c = \[3\.881, 4\.073, 45\.26\]/,
  );
  await decoderEntry(page, 1).fill('6'); // scores 930, 456, 149, 933: weights 0.0474, 0, 0, 0.9526
  assert.deepEqual(await widths(), [0.569, 0, 0, 11.431]);
  const step = page.locator('#chapter-basics .flow-step').nth(3);
  await step.locator('.flow-state').hover({ force: true });
  const opacities = await page.$$eval('#chapter-basics .flow-step', (gs) => gs.map((g) => getComputedStyle(g).opacity));
  await page.waitForFunction(() =>
    [...document.querySelectorAll('#chapter-basics .flow-step')].every(
      (g, i) => getComputedStyle(g).opacity === (i === 3 ? '1' : '0.2'),
    ),
  );
  assert.equal(opacities.length, 4);
  assert.equal(await step.getAttribute('aria-label'), 'h̄4: score 933, weight 0.9526');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('direct manipulation: arrow keys and the drag handle change a number live; temperature; experiments', async () => {
  const page = await openPage(env.browser, env.url);
  const entry = decoderEntry(page, 1);
  await entry.focus();
  await page.keyboard.press('ArrowUp'); // 5 -> 6
  assert.equal(await entry.inputValue(), '6');
  assert.match((await outputs(page)).join('\n'), /array\(\[930\., 456\., 149\., 933\.\]\)/);
  await page.keyboard.press('Shift+ArrowDown'); // 6 -> -4
  assert.equal(await entry.inputValue(), '-4');

  // Dragging the handle beside the entry up by 12 px adds 3 steps.
  const handle = page.locator('#chapter-basics .vector-editor .scrub').first();
  const box = await handle.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 - 12, { steps: 4 });
  await page.mouse.up();
  assert.equal(await entry.inputValue(), '-1');
  assert.match(await page.evaluate(() => location.hash), /h=-1,1,20/);

  // Experiments set the inputs up.
  await page.getByRole('button', { name: 'Try: h = [1, 0, 0]' }).click();
  assert.match((await outputs(page)).join('\n'), /array\(\[ 3\., 59\., {2}1\., {2}4\.\]\)/);
  await page.getByRole('button', { name: 'Try: h = [0, 0, 0]' }).click();
  assert.match((await outputs(page)).join('\n'), /array\(\[0\.25, 0\.25, 0\.25, 0\.25\]\)/);
  await page.getByRole('button', { name: 'Try: the notebook’s numbers' }).click();
  assert.equal(await entry.inputValue(), '5');
  await page.getByRole('button', { name: 'Try: duplicate the winning step' }).click();
  assert.match((await outputs(page)).join('\n'), /array\(\[927\., 397\., 148\., 929\., 929\.\]\)/);
  await page.getByRole('button', { name: 'Try: the notebook’s numbers' }).click();

  // Temperature: at T = 1 the bars are the weights; T = 100 flattens them: softmax([9.27, 3.97, 1.48, 9.29]).
  const bars = () =>
    page.$$eval('#chapter-basics .bar-chart .bar', (gs) => gs.map((g) => Number(g.getAttribute('data-value'))));
  const atOne = await bars();
  assert.ok(Math.abs(atOne[0] - 0.11920292202211755) < 1e-15 && Math.abs(atOne[3] - 0.8807970779778823) < 1e-15);
  await page.locator('#chapter-basics input[type=range]').fill('2');
  assert.equal(await page.textContent('#chapter-basics .temperature output'), 'T = 100');
  const e = [9.27, 3.97, 1.48, 9.29].map(Math.exp);
  const sum = e.reduce((p, q) => p + q, 0);
  (await bars()).forEach((w, i) => assert.ok(Math.abs(w - e[i] / sum) < 1e-12, `bar ${i}: ${w}`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('formulas: symbols are coloured like their figures; hovering one lights the other', async () => {
  const page = await openPage(env.browser, env.url);
  const step6 = page.locator('#chapter-basics section.step').nth(5);
  const alpha = step6.locator('.formula .sym-weights').first();
  const colour = await alpha.evaluate((n) => getComputedStyle(n).color);
  assert.equal(colour, 'rgb(217, 119, 6)'); // the weights' orange
  await alpha.hover();
  assert.equal(await step6.locator('figure.heatmap.linked').count(), 1);
  await step6.locator('figure.heatmap canvas').hover();
  assert.ok((await step6.locator('.formula .sym-weights.linked').count()) >= 1);
  // Step 8: the context symbol links to the context figure.
  const step8 = page.locator('#chapter-basics section.step').nth(7);
  await step8.locator('.formula .sym-context').hover();
  assert.equal(
    await step8.locator('figure.heatmap.linked canvas').getAttribute('aria-label'),
    'context vector c: heatmap of 3 by 1 values',
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the score-function table links to the chapters that compute each', async () => {
  const page = await openPage(env.browser, env.url);
  const links = await page.$$eval('#chapter-basics .scoring-table a', (as) => as.map((a) => a.getAttribute('href')));
  assert.deepEqual(links, [
    '#chapter=qkv',
    '#chapter=transformer',
    '#chapter=nmt',
    '#chapter=bahdanau',
    '#chapter=nmt',
  ]);
  await page.click('#chapter-basics .scoring-table a[href="#chapter=bahdanau"]');
  await page.waitForSelector('#chapter-bahdanau canvas[data-painted]');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an overflowing edit shows its error in the step that failed and greys out the steps after it', async () => {
  const page = await openPage(env.browser, env.url);
  await decoderEntry(page, 1).fill('1e308');
  const step5 = page.locator('#chapter-basics section.step').nth(4);
  assert.match(
    await step5.locator('.step-error-text').textContent(),
    /^dotScores: score 0 \(query · keys row 0\) overflows float64 \(\|score\| > 1\.8e308\); scale query or keys down$/,
  );
  const stale = await page.$$eval('#chapter-basics section.step', (ss) => ss.map((s) => s.classList.contains('stale')));
  assert.deepEqual(stale, [false, false, false, false, false, true, true, true]);
  await step5.getByRole('button', { name: 'why numbers overflow, and how softmax avoids it' }).click();
  // Back to a finite edit: the error goes and every step is live again.
  await decoderEntry(page, 1).fill('6');
  assert.equal(await page.locator('#chapter-basics .step-error').isHidden(), true);
  assert.deepEqual(await page.$$eval('#chapter-basics section.step.stale', (ss) => ss.length), 0);
  assert.match((await outputs(page)).join('\n'), /array\(\[930\., 456\., 149\., 933\.\]\)/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('one explained cell per lesson: the latest hover or focus wins, in a window tall enough that nothing scrolls', async () => {
  // 3000 px: focusing the weights does not scroll the scores out from under the mouse, so the
  // hovered figure must be cleared by the lesson, not by the pointer leaving it.
  const page = await openPage(env.browser, env.url, { viewport: { width: 1200, height: 3000 } });
  const scores = '#chapter-basics section.step:nth-of-type(5) figure.heatmap';
  const weights = '#chapter-basics section.step:nth-of-type(6) figure.heatmap';
  const explained = () =>
    page.$$eval('#chapter-basics figure.heatmap', (figures) =>
      figures
        .filter(
          (f) => !/^Hover, focus or tap/.test(f.querySelector('.heatmap-story')?.textContent ?? 'Hover, focus or tap'),
        )
        .map((f) => f.querySelector('canvas').getAttribute('aria-label').split(':')[0]),
    );
  const sources = () =>
    page.$$eval('#chapter-basics figure.heatmap.is-source', (nodes) =>
      nodes.map((n) => n.querySelector('canvas').getAttribute('aria-label').split(':')[0]),
    );
  await page.locator(`${scores} canvas`).hover({ position: { x: 20, y: 20 } });
  assert.deepEqual(await explained(), ['scores e, one per encoder step']);
  await page.focus(`${weights} canvas`);
  assert.deepEqual(await explained(), ['attention weights α'], 'one figure explains a cell');
  assert.deepEqual(await sources(), ['scores e, one per encoder step']);
  // The mouse moves on the scores again: they win, the weights stop explaining.
  await page.locator(`${scores} canvas`).hover({ position: { x: 24, y: 22 } });
  assert.deepEqual(await explained(), ['scores e, one per encoder step']);
  assert.deepEqual(await sources(), ['decoder hidden state h', 'annotations matrix H, one column per encoder step']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('h = [1e308, 1, 20]: no step shows the old inputs’ numbers as current (issue 24)', async () => {
  const page = await openPage(env.browser, env.url);
  await decoderEntry(page, 1).fill('1e308');
  const steps = page.locator('#chapter-basics section.step');
  // Step 3 cannot compute h · h̄: its error stands where 927 and its arithmetic were.
  const single = steps.nth(2);
  assert.match(await single.locator('.step-error-text').textContent(), /^dot: a · b overflows float64/);
  assert.equal(await single.locator('pre.output').isVisible(), false);
  assert.equal(await single.locator('.worked').isVisible(), false);
  assert.doesNotMatch(await single.innerText(), /927/);
  // Step 5 likewise for the scores (figure and NumPy print).
  const scores = steps.nth(4);
  assert.match(await scores.locator('.step-error-text').textContent(), /^dotScores: /);
  assert.equal(await scores.locator('figure.heatmap').isVisible(), false);
  assert.equal(await scores.locator('pre.output').isVisible(), false);
  // The inputs follow the edit; the steps after the scores are greyed with the reason in the heading.
  assert.match(await steps.nth(0).locator('pre.output').textContent(), /e\+308/);
  const state = await steps.evaluateAll((ss) =>
    ss.map((s) => (s.classList.contains('step-failed') ? 'failed' : s.classList.contains('stale') ? 'stale' : 'live')),
  );
  assert.deepEqual(state, ['live', 'live', 'failed', 'live', 'failed', 'stale', 'stale', 'stale']);
  const reason = await steps
    .nth(5)
    .locator('h2')
    .evaluate((h) => getComputedStyle(h, '::after').content);
  assert.match(reason, /not recomputed: an earlier step failed/);
  // Back to a finite number: step 3 computes again, with the new arithmetic.
  await decoderEntry(page, 1).fill('6');
  assert.equal(await single.locator('.worked').textContent(), '6·3 + 1·12 + 20·45 = 930');
  assert.equal(await page.locator('#chapter-basics .step-error').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('one indexing convention: an axis label, an editor label and the arithmetic name the same cell alike', async () => {
  const page = await openPage(env.browser, env.url);
  // Entry 2 of encoder step 1 is H[2][1] (row 2, column h̄1) in the arithmetic and row "2" on the axis.
  await page.getByRole('textbox', { name: 'encoder step 1, entry 2', exact: true }).fill('7');
  const applied = '#chapter-basics section.step:nth-of-type(7) figure.heatmap';
  await focusCell(page, applied, 1, 0);
  assert.match(await page.textContent(`${applied} .heatmap-readout`), /^2, h̄1: /);
  assert.match(
    await page.textContent(`${applied} .heatmap-story`),
    /^αh̄\[2\]\[1\] = α1 · H\[2\]\[1\] = [\d.e-]+ · 7 = /,
  );
  // The context's entry 2 reads row 2 of H, whose first entry is the 7 typed above.
  const context = '#chapter-basics section.step:nth-of-type(8) figure.heatmap';
  await focusCell(page, context, 1, 0);
  assert.match(await page.textContent(`${context} .heatmap-readout`), /^2, /);
  assert.match(await page.textContent(`${context} .heatmap-story`), /^c2 = H\[2\] · α = 7·/);
  // And the page says so, once, in the first step.
  assert.equal(await page.locator('#chapter-basics .indexing-note').count(), 1);
  assert.match(await page.textContent('#chapter-basics section.step:nth-of-type(1) .indexing-note'), /count from 1/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
