// Every step that computes a figure offers a "Try" experiment (issue 35): in
// each chapter, a step with a computed heatmap (not data-role="input") holds at
// least one .experiment button, and pressing the step's first one leaves the
// page without errors and the chapter still drawn. Chapters not there yet are
// listed in LEFT with the steps they miss; the test fails when one of them
// catches up (update the list) or another step loses its experiment.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chapterMetas } from '../../scripts/chapters.mjs';
import { openChapter, useBrowser } from './harness.mjs';

const CHAPTERS = await chapterMetas(); // chapters/*/meta.js, in order

const env = useBrowser();

/** Steps (by their number) known to compute without a Try yet, per chapter, and why. */
const LEFT = {};

for (const { id } of CHAPTERS) {
  test(`${id}: every step with a computed figure has a Try experiment, and it runs`, async () => {
    const page = await openChapter(env, id);
    const steps = page.locator(`#chapter-${id} section.step`);
    const missing = [];
    let tried = 0;
    for (let i = 0; i < (await steps.count()); i++) {
      const section = steps.nth(i);
      const computes = await section.locator('figure.heatmap:not([data-role="input"])').count();
      if (!computes) continue;
      const title = (await section.locator('h2').textContent()).trim();
      const button = section.locator('.experiment button').first();
      if (!(await button.count())) {
        missing.push(title.split('.')[0]);
        continue;
      }
      tried++;
      // The model chapter's and the training chapters' experiments start work (a model, training): not pressed here.
      if (['model', 'nmt', 'trained'].includes(id)) continue;
      await button.scrollIntoViewIfNeeded();
      await button.click(); // its recompute is synchronous: an error would be in page.errors below
    }
    console.log(`# ${id}: ${tried} steps with a Try; computing steps without one: ${missing.join(', ') || 'none'}`);
    assert.deepEqual(missing, LEFT[id]?.steps ?? [], `${id}: computing steps without a Try`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
