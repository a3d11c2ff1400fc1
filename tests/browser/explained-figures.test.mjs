// Every computed heatmap of every chapter explains its cells (issue 23): for
// each figure of each chapter, except those marked as the chapter's inputs
// (data-role="input" on the figure: drawn, not computed), the canvas is focused
// and moved by the keyboard, and its readout must give a story (not the idle
// hint) with at least one figure outlined as a source (or, for a figure marked
// data-sources="none" such as the positional encoding, computed from its cell's
// position alone, a story with nothing to outline). Figures still without
// an explanation are listed here by label, with the reason; the test fails
// when one of them starts explaining (update the list) or another stops.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chapterMetas } from '../../scripts/chapters.mjs';
import { openChapter, useBrowser } from './harness.mjs';

const CHAPTERS = await chapterMetas(); // chapters/*/meta.js, in order

const env = useBrowser();

/** Computed figures known not to explain their cells yet (label prefix → why). */
const LEFT = {};

/**
 * Brings a chapter to the state where every figure it can draw is drawn, bounded by steps:
 * the trained chapter's playback is stepped to its last row (each step waits for the page's
 * data-trained-playback signal), so its maps show the rows written and hatch none.
 */
const REACH = {
  async trained(page) {
    const root = page.locator('#chapter-trained');
    const output = await root.getAttribute('data-trained-output');
    const step = page.getByRole('button', { name: 'Step', exact: true });
    for (let t = 0; t <= output.length; t++) {
      await step.click();
      await page.waitForFunction(
        (n) => document.querySelector('#chapter-trained')?.dataset.trainedPlayback === String(n),
        t,
      );
    }
  },
};

/** Explains every computed figure of the chapter open on `page`: [{ label, story, sources }]. */
async function explainAll(page, id) {
  const root = page.locator(`#chapter-${id}`);
  const figures = root.locator('figure.heatmap:not([data-role="input"]):has(canvas.heatmap-canvas)');
  const results = [];
  for (let i = 0; i < (await figures.count()); i++) {
    const figure = figures.nth(i);
    const canvas = figure.locator('canvas.heatmap-canvas');
    await figure.scrollIntoViewIfNeeded();
    await canvas.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    // A figure whose story waits for numbers asked of a worker (the NMT states' GRU weights) is aria-busy meanwhile.
    await page.locator(`#chapter-${id} figure.heatmap[aria-busy="true"]`).waitFor({ state: 'detached' });
    const label = (await canvas.getAttribute('aria-label')).split(':')[0];
    const story = figure.locator('.heatmap-story');
    const text = (await story.isVisible()) ? await story.textContent() : '';
    const sourceless = (await figure.getAttribute('data-sources')) === 'none';
    const sources = sourceless ? 1 : await page.locator(`#chapter-${id} figure.heatmap.is-source`).count();
    results.push({ label, story: /^Hover, focus or tap/.test(text) ? '' : text, sources });
    await canvas.blur();
  }
  return results;
}

const counts = {};
for (const { id } of CHAPTERS) {
  test(`${id}: every computed heatmap explains a cell by keyboard, with its sources outlined`, async () => {
    const page = await openChapter(env, id);
    await REACH[id]?.(page);
    const results = await explainAll(page, id);
    const inputs = await page.locator(`#chapter-${id} figure.heatmap[data-role="input"]`).count();
    const left = LEFT[id] ?? {};
    const isLeft = (label) => Object.keys(left).some((prefix) => label.startsWith(prefix));
    const explained = results.filter((r) => r.story && r.sources > 0);
    counts[id] = `${explained.length} / ${results.length} (+ ${inputs} drawn as inputs)`;
    console.log(`# ${id}: ${results.map((r) => `${r.label} ${r.story && r.sources ? '✓' : '✗'}`).join(' | ')}`);
    for (const r of results) {
      const ok = Boolean(r.story) && r.sources > 0;
      if (isLeft(r.label)) assert.ok(!ok, `${id}: "${r.label}" explains itself now: take it off LEFT`);
      else assert.ok(ok, `${id}: "${r.label}" gives ${r.story ? `"${r.story}" with no source outlined` : 'no story'}`);
    }
    assert.ok(results.length > 0, `${id}: no computed figure found`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

// Printed for the record (run the whole file: a name pattern skips chapters).
test('explained / computed per chapter', () => {
  console.log(`# explained / computed: ${JSON.stringify(counts)}`);
});
