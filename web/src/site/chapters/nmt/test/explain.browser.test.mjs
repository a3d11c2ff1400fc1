// The NMT chapter explains itself (issue 11), at 1280 and 390 px: an attention
// cell's readout (the softmax of that step's scores, the character written and
// its probability) with its sources outlined; the line diagram played one
// output character at a time; Reset clears the plot and says why; output
// characters shaded by probability with a low-confidence warning; the loss
// curve beside the plot; the formats list and a random example; a loss chart
// that is no light box in dark mode.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canvasHash, openPage, useBrowser } from '../../../../../../tests/browser/harness.mjs';

const env = useBrowser();

const chapter = '#chapter-nmt';
const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];

async function open(viewport) {
  const page = await openPage(env.browser, `${env.url}#chapter=nmt`, { viewport });
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.nmtReady === 'true', chapter);
  await waitForOutput(page, '2026-11-21'); // the shipped checkpoint on "Saturday 21/11/26"
  return page;
}

async function waitForOutput(page, expected) {
  await page.waitForFunction(
    ([selector, want]) => document.querySelector(selector)?.dataset.nmtOutput === want,
    [chapter, expected],
  );
}

async function typeInput(page, text) {
  await page.getByRole('textbox', { name: 'input to translate' }).fill(text);
}

/** The weight written in a readout recomputed from the scores the readout lists. */
function softmaxOfListedScores(text) {
  const listed = text.slice(text.indexOf('Scores of step'));
  const scores = [...listed.matchAll(/” (−?\d+(?:\.\d+)?(?:e[-+]?\d+)?)/g)].map((m) => Number(m[1].replace('−', '-')));
  const chosen = Number(listed.match(/\[“.” (−?\d+(?:\.\d+)?(?:e[-+]?\d+)?)\]/)[1].replace('−', '-'));
  const m = Math.max(...scores);
  const sum = scores.reduce((acc, s) => acc + Math.exp(s - m), 0);
  return { scores, weight: Math.exp(chosen - m) / sum };
}

for (const viewport of WIDTHS) {
  test(`${viewport.width} px: an attention cell explains itself from the model's scores, its sources outlined`, async () => {
    const page = await open(viewport);
    const figure = `${chapter} figure.nmt-attention`;
    await page.locator(`${figure} canvas`).scrollIntoViewIfNeeded();
    // Hover the middle of the plot (some cell), then focus it from the keyboard (cell 1, 1).
    const box = await page.locator(`${figure} canvas`).boundingBox();
    await page.mouse.move(box.x + box.width * 0.45, box.y + box.height * 0.55);
    await page.waitForFunction(
      (f) => /^Output step/.test(document.querySelector(`${f} .heatmap-story`).textContent),
      figure,
    );
    await page.locator(`${figure} canvas`).focus();
    await page.keyboard.press('ArrowLeft'); // focus shows the focused cell; arrows move it
    await page.keyboard.press('ArrowUp');
    const text = await page.textContent(`${figure} .heatmap-story`);
    assert.match(text, /^Output step 1 wrote “2” with probability (0\.\d+|1) \(runner-up “.+”, [\d.e−-]+\)\./);
    assert.match(text, /Its weight on input character 1 “S” is the softmax of the step’s scores: α1,1 = /);
    assert.equal(await page.getAttribute(`${figure} .heatmap-story`, 'aria-live'), 'polite');
    // The numbers agree: at the step's strongest cell (the "/" before "26", weight ≈ 1) the
    // softmax of the listed scores (4 significant digits) is the weight shown.
    for (let i = 0; i < 14; i++) await page.keyboard.press('ArrowRight');
    const strongest = await page.textContent(`${figure} .heatmap-story`);
    assert.match(strongest, /Its weight on input character 15 “\/”/);
    const { scores, weight } = softmaxOfListedScores(strongest);
    assert.equal(scores.length, 'Saturday 21/11/26'.length);
    const shownWeight = Number(strongest.match(/α1,15 = .* = ([\d.e-]+)\. Scores/)[1]);
    assert.ok(shownWeight > 0.9);
    assert.ok(Math.abs(weight - shownWeight) <= 0.01 * shownWeight, `${weight} vs ${shownWeight}`);
    // Sources: the decoder state of step 1, the encoder output of character 1, output character 1.
    const sources = await page.$$eval(`${chapter} figure.heatmap.is-source`, (figs) =>
      figs.map((f) => f.querySelector('canvas').getAttribute('aria-label')),
    );
    assert.equal(sources.length, 2);
    assert.ok(sources.some((l) => /^encoder outputs/.test(l)) && sources.some((l) => /^decoder states/.test(l)));
    const outlined = await page.$$eval(`${chapter} .nmt-output .nmt-char`, (spans) =>
      spans.map((s) => s.classList.contains('is-source')),
    );
    assert.deepEqual(outlined, [true, false, false, false, false, false, false, false, false, false]);
    const encoderRow = await page.$eval(
      `${chapter} figure.heatmap.is-source canvas[aria-label^="encoder"]`,
      (c) => c.closest('figure') !== null,
    );
    assert.ok(encoderRow);
    // Leaving the plot clears the outlines.
    await page.locator(`${chapter} .nmt-input`).focus();
    assert.equal(await page.$$eval(`${chapter} figure.heatmap.is-source`, (f) => f.length), 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test(`${viewport.width} px: playback writes one output character at a time (Step, Play/Pause, Show all)`, async () => {
    const page = await open(viewport);
    const svg = `${chapter} figure.nmt-lines svg`;
    await page.locator(svg).scrollIntoViewIfNeeded();
    const all = await page.$$eval(`${svg} line`, (lines) => new Set(lines.map((l) => l.dataset.query)).size);
    assert.equal(all, 10, 'all ten output characters have lines before playing');
    const step = page.getByRole('button', { name: 'Step', exact: true });
    for (const index of [0, 1, 2]) {
      await step.click();
      assert.equal(await page.$eval(chapter, (el) => el.dataset.nmtPlayback), String(index));
      const queries = await page.$$eval(`${svg} line`, (lines) => [...new Set(lines.map((l) => l.dataset.query))]);
      assert.deepEqual(queries, [String(index)], 'only the pinned character’s lines');
      const pinned = await page.$$eval(`${svg} .token-lines-query .is-pinned`, (n) => n.map((t) => t.dataset.index));
      assert.deepEqual(pinned, [String(index)]);
      // Characters not written yet are dots.
      const labels = await page.$$eval(`${svg} .token-lines-query text`, (n) => n.map((t) => t.textContent));
      assert.deepEqual(labels.slice(index + 1), Array(9 - index).fill('·'));
      assert.equal(labels.slice(0, index + 1).join(''), '2026-11-21'.slice(0, index + 1));
      assert.match(
        await page.textContent(`${chapter} .nmt-playback`),
        new RegExp(
          `^Output character ${index + 1} of 10: “${'2026-11-21'[index]}”, written while looking most at input character \\d+`,
        ),
      );
    }
    const play = page.getByRole('button', { name: 'Play', exact: true });
    await play.click();
    await page.waitForFunction((s) => Number(document.querySelector(s).dataset.nmtPlayback) >= 4, chapter);
    await page.getByRole('button', { name: 'Pause playback' }).click();
    // Pause clears the playback timer in the same step that releases the button (stopPlayback),
    // so a released button means no later tick can come.
    assert.equal(await play.getAttribute('aria-pressed'), 'false', 'Pause stops playback');
    await page.getByRole('button', { name: 'Show all' }).click();
    assert.equal(await page.$eval(chapter, (el) => el.dataset.nmtPlayback), '-1');
    assert.equal(await page.$$eval(`${svg} line`, (l) => new Set(l.map((x) => x.dataset.query)).size), 10);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test(`${viewport.width} px: output characters shaded by probability; low confidence warned; a sure but wrong 12/31/2049 caught`, async () => {
    const page = await open(viewport);
    const probabilities = () =>
      page.$$eval(`${chapter} .nmt-output .nmt-char`, (spans) =>
        spans.map((s) => ({ p: Number(s.dataset.p), opacity: Number(getComputedStyle(s).opacity) })),
      );
    const sure = await probabilities();
    assert.equal(sure.length, 10);
    for (const { p, opacity } of sure) assert.ok(Math.abs(opacity - (0.3 + 0.7 * p)) < 0.01, `${p} → ${opacity}`);
    assert.ok(await page.$eval(`${chapter} .nmt-confidence`, (n) => n.hidden), 'no warning for a known format');
    await typeInput(page, 'tomorrow');
    await page.waitForFunction((s) => document.querySelector(s).dataset.nmtInput === 'tomorrow', chapter);
    await page.waitForSelector(`${chapter} .nmt-confidence:not([hidden])`);
    assert.match(
      await page.textContent(`${chapter} .nmt-confidence`),
      /^Low confidence: \d+ of 10 characters have a probability under 0\.9/,
    );
    const unsure = await probabilities();
    const low = unsure.filter(({ p }) => p < 0.9);
    assert.ok(low.length > 0);
    assert.equal(await page.$$eval(`${chapter} .nmt-char.is-unsure`, (n) => n.length), low.length);
    for (const { p, opacity } of unsure) assert.ok(Math.abs(opacity - (0.3 + 0.7 * p)) < 0.01);
    // Month first: the model is sure of every character, and wrong; the check says so.
    await typeInput(page, '12/31/2049');
    await page.waitForFunction((s) => document.querySelector(s).dataset.nmtInput === '12/31/2049', chapter);
    await page.waitForFunction(
      (s) => /^Check: /.test(document.querySelector(`${s} .nmt-confidence`).textContent),
      chapter,
    );
    assert.match(await page.textContent(`${chapter} .nmt-confidence`), /numbers day first, dd\/mm/);
    // Unreadable input: the reader's words, not the API's.
    await typeInput(page, '21 nov; 2026');
    await page.waitForSelector(`${chapter} .nmt-input-error:not([hidden])`);
    assert.equal(
      await page.textContent(`${chapter} .nmt-input-error`),
      'The model cannot read “;” (character 7): it only learned letters a–z and A–Z, digits, spaces and , . / -',
    );
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('Reset clears the old model’s plot and says why: untrained noise, nothing written, the “?”', async () => {
  const page = await open({ width: 1280, height: 900 });
  const note = () => page.textContent(`${chapter} .nmt-empty-note`);
  const hidden = (selector) => page.$eval(selector, (n) => n.hidden);
  const crisp = await canvasHash(page, `${chapter} figure.nmt-attention canvas`);
  // Luong general, seed 0: the untrained model writes ten random digits.
  await page.getByRole('button', { name: 'Reset (train from scratch)' }).click();
  await waitForOutput(page, '4452526868');
  assert.match(await note(), /^This model is untrained \(random weights\)/);
  assert.notEqual(await canvasHash(page, `${chapter} figure.nmt-attention canvas`), crisp, 'the old plot is gone');
  // Luong dot: it writes nothing, so there is no plot at all.
  await page.selectOption(`${chapter} select[aria-label="score function"]`, 'luong-dot');
  await waitForOutput(page, '');
  await page.waitForFunction((s) => document.querySelector(s).dataset.nmtPlot === 'cleared', chapter);
  assert.match(await note(), /^The model wrote nothing: at its first step the end symbol was its most likely token/);
  assert.ok(await hidden(`${chapter} figure.nmt-attention`), 'no attention plot');
  assert.ok(await hidden(`${chapter} figure.nmt-lines`), 'no lines');
  assert.ok(!(await hidden(`${chapter} .nmt-empty-note`)));
  assert.equal(await page.textContent(`${chapter} .nmt-output`), '(nothing)');
  assert.ok(await page.getByRole('button', { name: 'Step', exact: true }).isDisabled());
  // Bahdanau: it writes the start symbol, shown as "?", and the note says what that is.
  await page.selectOption(`${chapter} select[aria-label="score function"]`, 'bahdanau');
  await waitForOutput(page, '??????????');
  assert.match(await note(), /^A “\?” is a step where the most likely token was the start symbol/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('1280 px: loss curve and attention plot side by side; 390 px: one column, nothing off the page', async () => {
  for (const viewport of WIDTHS) {
    const page = await open(viewport);
    const curve = await page.locator(`${chapter} canvas.loss-curve`).boundingBox();
    const plot = await page.locator(`${chapter} figure.nmt-attention canvas`).boundingBox();
    if (viewport.width === 1280) {
      assert.ok(curve.x + curve.width <= plot.x, 'the plot is right of the curve');
      assert.ok(plot.y < curve.y + curve.height, 'on the same row');
      assert.ok(plot.y + plot.height - curve.y < viewport.height, 'both fit one screen');
    } else {
      assert.ok(plot.y >= curve.y + curve.height, 'the plot is under the curve');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
    }
    await page.context().close();
  }
});

test('the supported formats are listed; Random example translates a held-out date', async () => {
  const page = await open({ width: 1280, height: 900 });
  const items = await page.$$eval(`${chapter} .nmt-formats li`, (li) => li.map((n) => n.textContent));
  assert.equal(items.length, 22);
  assert.ok(items.includes('21 November 2026 (d Month yyyy)'));
  await page.getByRole('button', { name: 'Random example' }).click();
  await page.waitForFunction((s) => document.querySelector(s).dataset.nmtInput !== 'Saturday 21/11/26', chapter);
  const input = await page.getByRole('textbox', { name: 'input to translate' }).inputValue();
  assert.equal(await page.$eval(chapter, (el) => el.dataset.nmtInput), input);
  assert.match(await page.$eval(chapter, (el) => el.dataset.nmtOutput), /^\d{4}-\d{2}-\d{2}$/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('dark mode: the loss chart is transparent with light ink, never a light box', async () => {
  const page = await open({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const start = Number(await page.$eval(chapter, (el) => el.dataset.nmtSteps));
  await page.getByRole('button', { name: 'Start' }).click();
  await page.waitForFunction(
    ([s, n]) => Number(document.querySelector(s)?.dataset.nmtSteps) >= n + 15,
    [chapter, start],
  );
  await page.getByRole('button', { name: 'Pause' }).click();
  const pixels = await page.$eval(`${chapter} canvas.loss-curve`, (canvas) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let light = 0;
    let clear = 0;
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] === 0) clear++;
      else if (data[i + 3] === 255 && data[i] > 240 && data[i + 1] > 240 && data[i + 2] > 240) light++;
      if (data[i + 3] > 128 && data[i] + data[i + 1] + data[i + 2] > 300) ink++;
    }
    return { light, clear, total: data.length / 4, ink };
  });
  assert.ok(pixels.clear > 0.8 * pixels.total, `only ${pixels.clear} of ${pixels.total} pixels transparent`);
  assert.equal(pixels.light, 0);
  assert.ok(pixels.ink > 100, 'axes, labels and the curve in light ink');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(background, 'rgb(255, 255, 255)');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
