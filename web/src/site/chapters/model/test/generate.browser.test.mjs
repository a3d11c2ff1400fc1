// The model chapter's generation (step 8) on the GPT-2 demo: greedy generation in
// the page gives the ids of the API's greedy generate (run here in Node on the same
// files); the chosen head's map gains one row per new token and each row is that
// step's attention row; Stop ends generation with the tokens so far; a bad option
// keeps the last good value and says so; the options are in the permalink; a new
// row's cell explains itself with its sources outlined; BERT says why it does not
// generate. Every wait is on a signal the page gives (data-gen-*), never a sleep.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../../../../../dist/lib/index.js';
import { openPage, tableValues, useBrowser } from '../../../../../../tests/browser/harness.mjs';

const env = useBrowser();
const chapter = '#chapter-model';
const ROOT = fileURLToPath(new URL('../../../../../../', import.meta.url));
const DEMO = join(ROOT, 'web/assets/gpt2-demo');
const number = (text) => Number(text.replace(/\u2212/g, '-'));

async function open(hash = '') {
  const page = await openPage(env.browser, `${env.url}#chapter=model${hash}`);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelExplained === 'true', chapter);
  return page;
}

const field = (page, name) => page.getByRole('textbox', { name, exact: true });
const done = (page) => page.waitForFunction((s) => document.querySelector(s)?.dataset.genState === 'done', chapter);

/** The API's own generate on the demo's files, in Node. */
async function apiGenerate(sentence, options) {
  const api = await loadAttention();
  const model = await api.openModel({
    'config.json': readFileSync(join(DEMO, 'config.json')),
    'model.safetensors': readFileSync(join(DEMO, 'model.safetensors')),
    'tokenizer.json': readFileSync(join(DEMO, 'tokenizer.json')),
  });
  try {
    const T = model.tokenizer.encode(sentence).ids.length;
    return { T, out: await model.generate(sentence, options) };
  } finally {
    model.delete();
  }
}

test('greedy generation in the page gives the API’s ids; the map grows a row a step, each the step’s row', async () => {
  const page = await open();
  const sentence = await page.inputValue(`${chapter} textarea.model-sentence >> nth=0`);
  await field(page, 'temperature').fill('0');
  await field(page, 'max tokens').fill('6');
  // Record, as each token arrives, how many rows the map has (a MutationObserver: no polling).
  await page.evaluate((s) => {
    const root = document.querySelector(s);
    window.genLog = [];
    new MutationObserver(() => {
      const box = root.querySelector('.gen-map');
      const entry = [root.dataset.genSteps, box?.dataset.rows];
      const last = window.genLog[window.genLog.length - 1];
      if (!last || last[0] !== entry[0]) window.genLog.push(entry);
    }).observe(root, { attributes: true, attributeFilter: ['data-gen-steps'] });
  }, chapter);
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await done(page);
  const ids = await page.$$eval(`${chapter} .gen-token`, (chips) => chips.map((c) => Number(c.dataset.id)));
  // The demo's config has no eos_token_id: GPT-2's default 50256 is past its 320 tokens, no stop id.
  const { T, out } = await apiGenerate(sentence, { maxTokens: 6, temperature: 0, stop: [] });
  assert.deepEqual(ids, out.ids, 'the page’s greedy ids are the API’s');
  assert.match(await page.textContent(`${chapter} .gen-status`), new RegExp(`done: ${out.ids.length} new tokens`));
  // One row more per step: step s (from 1) holds the rows of positions 1 … T + s − 1.
  const log = await page.evaluate(() => window.genLog.filter(([steps]) => steps !== '0'));
  assert.deepEqual(
    log,
    out.steps.map((_, s) => [String(s + 1), String(T + s)]),
  );
  // Each new row of layer 1, head 1 is the API's step row (the table’s printed values, within 5e-5).
  const values = (await tableValues(page.locator(`${chapter} .gen-map figure.heatmap >> nth=0`))).map(number);
  const n = T + out.steps.length - 1;
  assert.equal(values.length, n * n);
  let worst = 0;
  out.steps.forEach((step, s) => {
    const row = step.attentions[0][0];
    const r = T - 1 + s;
    row.forEach((w, j) => (worst = Math.max(worst, Math.abs(values[r * n + j] - w))));
  });
  // The rows as received: step s's row, over the positions up to its query, zero past it.
  const got = (await tableValues(page.locator(`${chapter} .gen-map figure.heatmap >> nth=1`))).map(number);
  assert.equal(got.length, out.steps.length * n);
  out.steps.forEach((step, s) =>
    Array.from({ length: n }, (_, j) => {
      const w = j < step.attentions[0][0].length ? step.attentions[0][0][j] : 0;
      worst = Math.max(worst, Math.abs(got[s * n + j] - w));
    }),
  );
  console.log(`# generated rows vs the API's steps: ${worst.toExponential(1)} (tolerance 5e-5)`);
  assert.ok(worst <= 5e-5, `${worst}`);
  // A new row's cell explains itself, with the row it is normalised with outlined.
  const canvas = page.locator(`${chapter} .gen-map canvas.heatmap-canvas >> nth=0`);
  await canvas.focus();
  for (let i = 0; i < n; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const story = await page.textContent(`${chapter} .gen-map .heatmap-story >> nth=0`);
  assert.match(story, new RegExp(`^weight\\[${n}\\]\\[2\\] = .*generate\\(\\) returned it`), story);
  const sum = story.match(/sum to (\S+)$/);
  assert.ok(sum && Math.abs(number(sum[1]) - 1) < 1e-4, story);
  assert.match(story, /step \d+’s row as generate\(\) returned it \(outlined below\)/);
  assert.equal(
    await page.locator(`${chapter} .gen-map figure.heatmap.is-source`).count(),
    1,
    'the step’s row outlined',
  );
  // A sentence token's row: the same number as step 4's map, outlined there.
  await page.keyboard.press('Home');
  for (let i = 0; i < n; i++) await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowDown');
  assert.match(await page.textContent(`${chapter} .gen-map .heatmap-story >> nth=0`), /same number as step 4’s map/);
  // Picking a generated token shows its row and moves the overview to it.
  const chip = page.locator(`${chapter} .gen-token >> nth=1`);
  const position = await chip.getAttribute('data-position');
  assert.equal(position, String(T + 1));
  await chip.click();
  await page.waitForFunction(([s, p]) => document.querySelector(s)?.dataset.genPicked === p, [chapter, position]);
  assert.match(await page.textContent(`${chapter} .gen-picked`), new RegExp(`^Token ${T + 2} “`));
  assert.equal(await page.inputValue(`${chapter} select.overview-token`), position);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Stop ends generation with the tokens so far', async () => {
  const page = await open();
  await field(page, 'max tokens').fill('40');
  // Stop as soon as the second token is shown (a microtask after it, before the next step).
  await page.evaluate((s) => {
    const root = document.querySelector(s);
    new MutationObserver(() => {
      if (root.dataset.genSteps === '2')
        Array.from(root.querySelectorAll('button'))
          .find((b) => b.textContent === 'Stop')
          .click();
    }).observe(root, { attributes: true, attributeFilter: ['data-gen-steps'] });
  }, chapter);
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await done(page);
  assert.equal(await page.textContent(`${chapter} .gen-status`), 'stopped after 2 new tokens.');
  assert.equal(await page.locator(`${chapter} .gen-token`).count(), 2);
  assert.equal(await page.getByRole('button', { name: 'Stop' }).isDisabled(), true);
  assert.equal(await page.getByRole('button', { name: 'Generate', exact: true }).isDisabled(), false);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a bad option keeps the last good value and says so; the options are in the permalink', async () => {
  const page = await open('&gt=0.5&gs=7');
  assert.equal(await field(page, 'temperature').inputValue(), '0.5');
  assert.equal(await field(page, 'seed').inputValue(), '7');
  await field(page, 'temperature').fill('hot');
  const note = page.locator(`${chapter} .num-note`).filter({ hasText: 'still using 0.5' });
  await note.waitFor();
  assert.match(await note.textContent(), /not a number: still using 0\.5/);
  await field(page, 'temperature').fill('9');
  assert.match(await note.textContent(), /still using 0\.5/);
  assert.match(page.url(), /gt=0\.5/);
  await field(page, 'top-k').fill('3');
  await page.waitForFunction(() => /gk=3/.test(location.hash));
  // A permalink's option out of range is clamped, not obeyed.
  const again = await open('&gn=100000');
  assert.equal(await field(again, 'max tokens').inputValue(), '64');
  await again.context().close();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('BERT does not generate, and the step says why', async () => {
  const page = await open();
  const BERT = join(ROOT, 'tests/fixtures/bert');
  await page.getByLabel('Or its files').setInputFiles(
    ['config.json', 'model.safetensors', 'vocab.txt'].map((name) => ({
      name,
      mimeType: 'application/octet-stream',
      buffer: readFileSync(join(BERT, name)),
    })),
  );
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelFamily === 'bert', chapter);
  await page.getByRole('textbox', { name: 'sentence for the model' }).fill('the cat sat');
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.genSteps === '0', chapter);
  assert.equal(await page.getByRole('button', { name: 'Generate', exact: true }).isDisabled(), true);
  assert.match(await page.textContent(`${chapter} .gen-why`), /an encoder predicts the tokens hidden by \[MASK\]/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the Llama demo generates too: its tokens, the map a row a step, the overview on the last row', async () => {
  const page = await open();
  await page.getByRole('button', { name: 'Use the Llama demo' }).click();
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelSource === 'llama', chapter);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelExplained === 'true', chapter);
  const T = await page.locator(`${chapter} .model-token`).count();
  await field(page, 'max tokens').fill('3');
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await done(page);
  assert.equal(await page.locator(`${chapter} .gen-token`).count(), 3);
  assert.equal(await page.getAttribute(`${chapter} .gen-map`, 'data-rows'), String(T + 2));
  // The overview follows the newest row: its strips are T + 2 positions wide.
  const widths = await page.$$eval(`${chapter} canvas.overview-strip`, (cs) => cs.map((c) => c.width));
  assert.deepEqual(widths, [T + 2, T + 2]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
