// The model view of a big model stays responsive (issue 34, item 7): a GPT-2 of
// 64 layers × 64 heads (4,096 maps; tiny otherwise, written here) shows at most
// 1,024 maps, whole layers, with a note saying how many are not drawn and buttons
// to page through the layers; the maps are drawn in slices of at most 32, one task
// each, and a timer set when drawing starts runs before the last slice (the page
// answers between slices). Structural checks only: no task is timed here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openPage, useBrowser } from '../../../../../../tests/browser/harness.mjs';
import { gpt2Safetensors } from '../../../../../../tests/js/gpt2-files.js';

const env = useBrowser();
const chapter = '#chapter-model';
const grid = `${chapter} .head-grid`;
const FIXTURE = fileURLToPath(new URL('../../../../../../tests/fixtures/gpt2', import.meta.url));
const CONFIG = {
  model_type: 'gpt2',
  n_layer: 64,
  n_head: 64,
  n_embd: 64,
  n_inner: 4,
  n_positions: 12,
  vocab_size: 262,
  layer_norm_epsilon: 1e-5,
  activation_function: 'gelu_new',
};
const SLICE = 32; // figures/head-grid.js SLICE_MAPS
const CAP = 1024; // figures/head-grid.js MAX_MAPS

/** Counts the grid's maps drawn in each task (a burst of draws ends at the microtask checkpoint). */
function countBursts() {
  window.gridBursts = [];
  window.drawnWhenTimerRan = null;
  let inBurst = false;
  const put = CanvasRenderingContext2D.prototype.putImageData;
  CanvasRenderingContext2D.prototype.putImageData = function (...args) {
    if (this.canvas.closest?.('.head-grid')) {
      if (!inBurst) {
        inBurst = true;
        window.gridBursts.push(0);
        queueMicrotask(() => (inBurst = false));
        if (window.gridBursts.length === 1)
          setTimeout(() => (window.drawnWhenTimerRan = Number(this.canvas.closest('.head-grid').dataset.drawn)));
      }
      window.gridBursts[window.gridBursts.length - 1]++;
    }
    return put.apply(this, args);
  };
}

// The opened model's grid (CAP maps), every map drawn: the demo's smaller grid stays on the
// page until the run of the new model (in the chapter's worker) comes back.
const fullyDrawn = (page) =>
  page.waitForFunction(
    ([s, cap]) => {
      const g = document.querySelector(s);
      return g && g.dataset.maps === String(cap) && g.dataset.drawn === g.dataset.maps;
    },
    [grid, CAP],
  );

test('64 layers × 64 heads: 1,024 maps drawn in slices, a note, and paging by layer', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=model`);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelExplained === 'true', chapter);
  await page.evaluate(countBursts);
  const file = (name, buffer) => ({ name, mimeType: 'application/octet-stream', buffer });
  await page
    .getByLabel('Or its files')
    .setInputFiles([
      file('config.json', Buffer.from(JSON.stringify(CONFIG))),
      file('model.safetensors', Buffer.from(gpt2Safetensors(CONFIG))),
      file('tokenizer.json', readFileSync(join(FIXTURE, 'tokenizer.json'))),
    ]);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelSource === 'own', chapter);
  await page.getByRole('textbox', { name: 'sentence for the model' }).fill(' the cat');
  await fullyDrawn(page);

  assert.equal(await page.locator(`${grid} canvas`).count(), CAP);
  assert.equal(await page.$eval(grid, (g) => g.dataset.maps), String(CAP));
  const bursts = await page.evaluate(() => window.gridBursts);
  assert.equal(
    bursts.reduce((a, b) => a + b, 0),
    CAP,
    `every map shown drawn once: ${bursts}`,
  );
  assert.ok(Math.max(...bursts) <= SLICE, `at most ${SLICE} maps a task: ${bursts}`);
  assert.ok(bursts.length >= CAP / SLICE, `${bursts.length} tasks`);
  const drawnWhenTimerRan = await page.evaluate(() => window.drawnWhenTimerRan);
  assert.ok(drawnWhenTimerRan !== null && drawnWhenTimerRan < CAP, `a timer ran after ${drawnWhenTimerRan} maps`);

  // The note: how many are not drawn, and how to see them.
  const note = page.locator(`${grid} .head-grid-note`);
  assert.equal(await note.isVisible(), true);
  assert.match(
    await note.textContent(),
    /Showing layers 1–16 of 64: 1,024 of 4,096 maps; the other 3,072 are not drawn/,
  );
  assert.equal(await page.getByRole('button', { name: 'earlier layers' }).isDisabled(), true);
  await page.getByRole('button', { name: 'later layers' }).click();
  assert.match(await note.textContent(), /Showing layers 17–32 of 64/);
  assert.equal(await page.locator(`${grid} .head-grid-cell[data-layer="16"][data-head="63"]`).count(), 1);
  assert.equal(await page.locator(`${grid} .head-grid-cell[data-layer="0"]`).count(), 0);
  await fullyDrawn(page);

  // Choosing a head on this page keeps the page, and redraws no map (the run is the same).
  const before = (await page.evaluate(() => window.gridBursts)).length;
  // 64 columns of thumbnails are wider than the page: the grid scrolls, no cell covers another.
  await page.click(`${grid} .head-grid-cell[data-layer="20"][data-head="5"]`);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelHead === 'layer 21, head 6', chapter);
  assert.equal(
    await page.getAttribute(`${grid} .head-grid-cell[data-layer="20"][data-head="5"]`, 'aria-pressed'),
    'true',
  );
  assert.match(await note.textContent(), /Showing layers 17–32 of 64/);
  // By keyboard too, a cell at the far end of a row.
  await page.focus(`${grid} .head-grid-cell[data-layer="31"][data-head="63"]`);
  await page.keyboard.press('Enter');
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelHead === 'layer 32, head 64', chapter);
  assert.equal((await page.evaluate(() => window.gridBursts)).length, before);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
