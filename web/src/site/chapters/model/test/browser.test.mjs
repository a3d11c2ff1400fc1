// End to end: the chapter "Open a real model" in Debian's chromium. The demo
// model loads (from http and from file://) and every view is drawn; choosing a
// head repaints the large map; a weight explains itself with q·k arithmetic
// that evaluates to the weight it prints; the fixture GPT-2 (tests/fixtures/gpt2)
// opens through the file input with the progress bar reaching the end; a
// hostile file shows the API's error and the chapter keeps working; text over
// n_positions shows a message and no stale figure; <attention-lesson
// model-src> opens a folder from the host's origin and refuses another origin.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  canvasHash,
  FILE_URL,
  openPage,
  paintedPixels,
  SITE_DIR,
  useBrowser,
  waitUntil,
} from '../../../../../../tests/browser/harness.mjs';
import { serve } from '../../../../../../scripts/serve.mjs';

const env = useBrowser();
const chapter = '#chapter-model';
const FIXTURE = fileURLToPath(new URL('../../../../../../tests/fixtures/gpt2', import.meta.url));
const fixtureFile = (name, buffer = readFileSync(join(FIXTURE, name))) => ({
  name,
  mimeType: 'application/octet-stream',
  buffer,
});
const data = (page, key) => page.$eval(chapter, (root, k) => root.dataset[k], key);
const explained = (page) =>
  page.waitForFunction((s) => document.querySelector(s)?.dataset.modelExplained === 'true', chapter);
const largeCanvas = `${chapter} figure.heatmap canvas.heatmap-canvas >> nth=0`;

async function open(url = `${env.url}#chapter=model`) {
  const page = await openPage(env.browser, url);
  await explained(page);
  return page;
}

/** A number as the stories print it (true minus signs). */
const number = (text) => Number(text.replace(/\u2212/g, '-'));

/**
 * Checks a weight's story: the q·k products add up to the score it prints, the score /√d_k is
 * the exponent of its own term, and the softmax fraction it writes out is the weight it prints;
 * all within the precision of the printed numbers (4 significant digits).
 */
function checkWeightStory(text) {
  const m = text.match(
    /^weight\[(\d+)\]\[(\d+)\] .*? = (.+?) \/ \((.+?)\) = ([0-9.]+), over row \d+ of score\/√(\d+);.*score\[\d+\]\[\d+\] \(.*?\) = q\d+ \(.*?\) · k\d+ \(.*?\) = (.+) = (\S+)$/,
  );
  assert.ok(m, `story: ${text}`);
  const [, , , numerator, denominator, weightText, dkText, productsText, scoreText] = m;
  const power = (term) => {
    if (term === '1') return 0;
    const e = term.match(/^e\^\((\S+) ([−+]) (\S+)\)$/);
    assert.ok(e, `term ${term}`);
    return number(e[1]) + (e[2] === '+' ? 1 : -1) * number(e[3]);
  };
  const terms = denominator.match(/e\^\([^)]*\)|\b1\b/g);
  const weight = Math.exp(power(numerator)) / terms.reduce((s, t) => s + Math.exp(power(t)), 0);
  assert.ok(Math.abs(weight - number(weightText)) < 2e-3, `softmax terms give ${weight}, the story says ${weightText}`);
  const products = productsText.split(' + ').map((p) => p.split('·').map((x) => number(x.replace(/[()]/g, ''))));
  const sum = products.reduce((s, [x, y]) => s + x * y, 0);
  const size = products.reduce((s, [x, y]) => s + Math.abs(x * y), 0);
  const score = number(scoreText);
  assert.ok(Math.abs(sum - score) <= 1e-3 * size + 1e-3, `products give ${sum}, the story says ${score}`);
  const own = numerator === '1' ? null : number(numerator.match(/^e\^\((\S+) /)[1]);
  if (own !== null) assert.ok(Math.abs(own - score / Math.sqrt(number(dkText))) < 2e-3 * Math.max(1, Math.abs(own)));
  return { weight: number(weightText), score, products: products.length };
}

test('the demo model opens and every view is drawn; a weight explains itself down to q·k', async () => {
  const page = await open();
  assert.match(
    await page.textContent(`${chapter} .model-status`),
    /open: the demo model \(2 layers × 4 heads, n_embd 32, 320 tokens, at most 64 per text\)/,
  );
  assert.equal(await data(page, 'modelSource'), 'demo');
  const thumbs = await paintedPixels(page, `${chapter} .head-grid canvas`);
  assert.equal(thumbs.length, 8);
  thumbs.forEach((n, i) => assert.ok(n > 20, `thumbnail ${i}: ${n} painted pixels`));
  const maps = await paintedPixels(page, `${chapter} canvas.heatmap-canvas`);
  assert.equal(maps.length, 7, 'the head, x and W, its q, k, v and its value mix');
  maps.forEach((n, i) => assert.ok(n > 100, `heatmap ${i}: ${n} painted pixels`));
  assert.equal(await page.locator(`${chapter} .token-lines-head`).count(), 4);
  assert.ok((await page.locator(`${chapter} .token-lines line`).count()) > 10);
  const next = await page.$$eval(`${chapter} .model-next tbody tr`, (rows) => rows.map((r) => r.textContent));
  assert.equal(next.length, 8);
  const p = next.map((row) => Number(row.match(/(\d\.\d{4})\s*$/)[1]));
  assert.ok(
    p.every((x, i) => x > 0 && x <= 1 && (i === 0 || x <= p[i - 1])),
    `probabilities ${p}`,
  );
  assert.ok((await page.locator(`${chapter} .model-token`).count()) >= 10);
  // The findings: measured numbers with their baseline, or the sentence that none holds.
  const findings = await page.$$eval(`${chapter} .model-findings li`, (lis) => lis.map((li) => li.textContent));
  for (const f of findings)
    assert.match(f, /(\d+% of each token’s weight .* against \d+% for a head that spreads)|(no head puts)/);

  // The predictions explain their probabilities from the logits (focus the list).
  await page.locator(`${chapter} .model-next`).focus();
  assert.match(
    await page.textContent(`${chapter} .model-next-story`),
    /^p\(.+\) = e\^\(z − z_max\).* over all 320 tokens/,
  );
  // Row 4 (the fourth token), column 3: keyboard to the cell, then the story's arithmetic.
  const canvas = page.locator(largeCanvas);
  await canvas.focus();
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight']) await page.keyboard.press(key);
  const story = await page.locator(`${chapter} figure.heatmap .heatmap-story >> nth=0`).textContent();
  const checked = checkWeightStory(story);
  assert.equal(checked.products, 8, 'd_k = 32 / 4 products');
  assert.match(story, /^weight\[4\]\[3\]/);
  // Its sources are outlined: the query's row and the keys' rows.
  assert.ok((await page.locator(`${chapter} figure.heatmap.is-source`).count()) >= 2);
  // GPT-2's q is computed, not an input: a cell of q is x's row times W's column, plus the bias, both outlined.
  const q = page.locator(`${chapter} figure.heatmap`).filter({ has: page.locator('canvas[aria-label^="queries q"]') });
  assert.equal(await q.getAttribute('data-role'), null);
  await q.locator('canvas').focus();
  for (const key of ['ArrowDown', 'ArrowRight']) await page.keyboard.press(key);
  assert.match(await q.locator('.heatmap-story').textContent(), /^Q\[2\]\[2\] .* = x2 .* · W_q\[:, 2\] \+ b_q\[2\] = /);
  const outlined = await page.$$eval(`${chapter} figure.heatmap.is-source canvas`, (cs) =>
    cs.map((c) => c.getAttribute('aria-label').split(':')[0]),
  );
  assert.deepEqual(outlined.sort(), ['the head’s columns of c_attn', 'the head’s input x']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('choosing a head (click or keyboard) repaints the large map and its explanation', async () => {
  const page = await open();
  const before = await canvasHash(page, largeCanvas);
  await page.click(`${chapter} .head-grid-cell[data-layer="1"][data-head="2"]`);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelHead === 'layer 2, head 3', chapter);
  await explained(page);
  assert.notEqual(await canvasHash(page, largeCanvas), before);
  assert.equal(
    await page.getAttribute(`${chapter} .head-grid-cell[data-layer="1"][data-head="2"]`, 'aria-pressed'),
    'true',
  );
  assert.match(page.url(), /ml=1/);
  // Keyboard: focus another thumbnail and press Enter.
  await page.focus(`${chapter} .head-grid-cell[data-layer="0"][data-head="3"]`);
  await page.keyboard.press('Enter');
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelHead === 'layer 1, head 4', chapter);
  await explained(page);
  await page.locator(largeCanvas).focus();
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowRight']) await page.keyboard.press(key);
  checkWeightStory(await page.locator(`${chapter} figure.heatmap .heatmap-story >> nth=0`).textContent());
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('text over n_positions: a message, and no stale figure; shorter text draws again', async () => {
  const page = await open();
  const box = page.getByRole('textbox', { name: 'sentence for the model' });
  await box.fill('one two three four five six seven eight nine ten '.repeat(4));
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelRun === 'message', chapter);
  assert.match(
    await page.textContent(`${chapter} .model-message`),
    /This text is \d+ tokens; the model reads at most n_positions = 64/,
  );
  assert.equal(await page.locator(`${chapter} .head-grid`).isVisible(), false);
  assert.equal(await page.locator(`${chapter} .model-next`).isVisible(), false);
  assert.equal(await page.locator(`${chapter} .model-token`).count(), 0);
  await box.fill('the old king met the queen.');
  await explained(page);
  assert.equal(await page.locator(`${chapter} .head-grid`).isVisible(), true);
  assert.equal(await page.locator(`${chapter} .model-message`).isVisible(), false);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the fixture GPT-2 opens through the file input, the progress bar reaching the end; a hostile file is an error', async () => {
  const page = await open();
  // Every value the progress bar takes, recorded in the page.
  await page.evaluate((s) => {
    const bar = document.querySelector(`${s} .model-progress`);
    window.progressSeen = [];
    const { get, set } = Object.getOwnPropertyDescriptor(HTMLProgressElement.prototype, 'value');
    Object.defineProperty(bar, 'value', {
      get: () => get.call(bar),
      set(v) {
        set.call(bar, v);
        window.progressSeen.push(v);
      },
    });
  }, chapter);
  const input = page.getByLabel('Or its files');
  await input.setInputFiles(
    ['config.json', 'model.safetensors', 'tokenizer.json', 'README.md'].map((n) =>
      n === 'README.md' ? fixtureFile(n, Buffer.from('not a model file')) : fixtureFile(n),
    ),
  );
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelSource === 'own', chapter);
  // 12 positions: the demo's sentence is too long for this model, so a message first.
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelRun === 'message', chapter);
  assert.match(
    await page.textContent(`${chapter} .model-status`),
    /open: model\.safetensors \(2 layers × 2 heads, n_embd 8, 262 tokens, at most 12 per text\)/,
  );
  const seen = await page.evaluate(() => window.progressSeen);
  assert.equal(seen.at(-1), 1, `progress values ${seen}`);
  assert.ok(
    seen.every((v, i) => i === 0 || v >= seen[i - 1] || v === 0),
    `progress values ${seen}`,
  );
  await page.getByRole('textbox', { name: 'sentence for the model' }).fill(' the cat');
  await explained(page);
  assert.equal(await page.locator(`${chapter} .head-grid canvas`).count(), 4);

  // A truncated model.safetensors: the API's RangeError as text; the model before stays open.
  const truncated = readFileSync(join(FIXTURE, 'model.safetensors')).subarray(0, 4000);
  await input.setInputFiles([
    fixtureFile('config.json'),
    fixtureFile('tokenizer.json'),
    fixtureFile('model.safetensors', truncated),
  ]);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelFailed === '1', chapter);
  assert.match(
    await page.textContent(`${chapter} .model-open-error`),
    /^openModel: model\.safetensors.*(outside the data section|ended after)/,
  );
  assert.match(await page.textContent(`${chapter} .model-status`), /the model before stays open/);
  // Missing files: the chapter's own message.
  await input.setInputFiles([fixtureFile('config.json')]);
  assert.match(await page.textContent(`${chapter} .model-open-error`), /the model folder needs model\.safetensors/);
  // Still working: a new sentence runs.
  const runs = Number(await data(page, 'modelRun'));
  await page.getByRole('textbox', { name: 'sentence for the model' }).fill(' the a');
  await page.waitForFunction(([s, n]) => Number(document.querySelector(s)?.dataset.modelRun) > n, [chapter, runs]);
  await explained(page);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('opens from file:// (the demo and the reader are data scripts)', async () => {
  const page = await open(`${FILE_URL}#chapter=model`);
  assert.equal(await data(page, 'modelSource'), 'demo');
  const maps = await paintedPixels(page, `${chapter} canvas.heatmap-canvas`);
  maps.forEach((n, i) => assert.ok(n > 100, `heatmap ${i}: ${n} painted pixels`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('<attention-lesson chapter="model" model-src> opens the host’s folder; another origin is refused', async () => {
  const hostDir = mkdtempSync(join(tmpdir(), 'attention-lab-model-'));
  for (const dir of ['lib', 'elements', 'classic', 'site'])
    cpSync(join(SITE_DIR, '..', dir), join(hostDir, 'dist', dir), { recursive: true });
  mkdirSync(join(hostDir, 'models', 'tiny'), { recursive: true });
  for (const name of ['config.json', 'model.safetensors', 'tokenizer.json'])
    cpSync(join(FIXTURE, name), join(hostDir, 'models', 'tiny', name));
  const page = (src) =>
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="dist/elements/attention-lab-elements.js"></script>
<attention-lesson chapter="model" model-src="${src}"></attention-lesson>`;
  writeFileSync(join(hostDir, 'own.html'), page('models/tiny/'));
  writeFileSync(join(hostDir, 'other.html'), page('https://models.example/tiny/'));
  const host = await serve({ root: hostDir });
  try {
    const own = await openPage(env.browser, `${host.url}own.html`, { waitForReady: false });
    const lesson = own.locator('attention-lesson article[data-chapter="model"]');
    await lesson.waitFor();
    const ready = (page, source, state = 'modelExplained', value = 'true') =>
      waitUntil(
        () =>
          page
            .locator('attention-lesson article')
            .evaluate(
              (root, [want, key, v]) => root.dataset.modelSource === want && root.dataset[key] === v,
              [source, state, value],
            ),
        () => page.locator('attention-lesson article').evaluate((root) => JSON.stringify(root.dataset)),
      );
    // The fixture model reads 12 tokens: the demo's sentence is a message, a short one runs.
    await ready(own, 'own', 'modelRun', 'message');
    await lesson.getByRole('textbox', { name: 'sentence for the model' }).fill(' the cat');
    await ready(own, 'own');
    assert.match(await lesson.locator('.model-status').textContent(), /open: models\/tiny\/ \(2 layers × 2 heads/);
    assert.deepEqual(own.errors, []);
    await own.context().close();

    const other = await openPage(env.browser, `${host.url}other.html`, { waitForReady: false });
    await other.locator('attention-lesson article[data-chapter="model"]').waitFor();
    await ready(other, 'demo');
    assert.match(
      await other.locator('attention-lesson .model-open-error').textContent(),
      /model-src must be a folder on this page's own origin \(http:\/\/127\.0\.0\.1:\d+\); "https:\/\/models\.example\/tiny\/" is on https:\/\/models\.example/,
    );
    assert.deepEqual(other.errors, []);
    await other.context().close();
  } finally {
    await new Promise((ok) => host.server.close(ok));
    rmSync(hostDir, { recursive: true, force: true });
  }
});

test('model-src: a same-origin folder redirecting (302) to another origin is refused, naming the file; blob: is a clear message', async () => {
  const hostDir = mkdtempSync(join(tmpdir(), 'attention-lab-model-'));
  for (const dir of ['lib', 'elements', 'classic', 'site'])
    cpSync(join(SITE_DIR, '..', dir), join(hostDir, 'dist', dir), { recursive: true });
  mkdirSync(join(hostDir, 'models', 'tiny'), { recursive: true });
  for (const name of ['config.json', 'model.safetensors', 'tokenizer.json'])
    cpSync(join(FIXTURE, name), join(hostDir, 'models', 'tiny', name));
  // The other origin serves the same folder with CORS open to all: only the origin check refuses it.
  const elsewhere = await serve({ root: hostDir, headers: { 'Access-Control-Allow-Origin': '*' } });
  const away = elsewhere.url.replace('127.0.0.1', 'localhost');
  const host = await serve({
    root: hostDir,
    handle(req, res) {
      const moved = /^\/models\/moved\/(.+)$/.exec(req.url);
      if (!moved) return false;
      res.writeHead(302, { Location: `${away}models/tiny/${moved[1]}` }).end();
      return true;
    },
  });
  const lessonPage = (src) =>
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="dist/elements/attention-lab-elements.js"></script>
<attention-lesson chapter="model" model-src="${src}"></attention-lesson>`;
  writeFileSync(join(hostDir, 'moved.html'), lessonPage('models/moved/'));
  writeFileSync(
    join(hostDir, 'blob.html'),
    lessonPage(`blob:${host.url.slice(0, -1)}/1f0e7d56-1b4b-4b1e-9f4e-7c8a1b2c3d4e`),
  );
  const dataset = (page) => page.locator('attention-lesson article').evaluate((root) => ({ ...root.dataset }));
  try {
    const moved = await openPage(env.browser, `${host.url}moved.html`, { waitForReady: false });
    await moved.locator('attention-lesson article[data-chapter="model"]').waitFor();
    await waitUntil(
      async () => (await dataset(moved)).modelFailed === '1',
      async () => JSON.stringify(await dataset(moved)),
    );
    const origin = host.url.slice(0, -1);
    assert.equal(
      await moved.locator('attention-lesson .model-open-error').textContent(),
      `openModel: config.json from '${host.url}models/moved/config.json' was answered from ${away.slice(0, -1)} (${away}models/tiny/config.json, after a redirect); only ${origin} may answer`,
    );
    assert.notEqual((await dataset(moved)).modelSource, 'own', 'the foreign model is not open');
    // The refused response's body is cancelled: the browser may report that request as failed.
    assert.deepEqual(
      moved.errors.filter((e) => e !== `requestfailed: ${away}models/tiny/config.json`),
      [],
    );
    await moved.context().close();

    const blob = await openPage(env.browser, `${host.url}blob.html`, { waitForReady: false });
    await blob.locator('attention-lesson article[data-chapter="model"]').waitFor();
    await waitUntil(
      async () => (await dataset(blob)).modelSource === 'demo',
      async () => JSON.stringify(await dataset(blob)),
    );
    assert.match(
      await blob.locator('attention-lesson .model-open-error').textContent(),
      /^model-src "blob:http:\/\/127\.0\.0\.1:\d+\/1f0e7d56-[-0-9a-f]+" is a blob: URL; model-src must be an http\(s\) folder on this page's own origin/,
    );
    assert.deepEqual(blob.errors, []);
    await blob.context().close();
  } finally {
    await new Promise((ok) => host.server.close(ok));
    await new Promise((ok) => elsewhere.server.close(ok));
    rmSync(hostDir, { recursive: true, force: true });
  }
});

const BERT = join(FIXTURE, '..', 'bert');
const bertFiles = () =>
  ['config.json', 'model.safetensors', 'vocab.txt'].map((n) => fixtureFile(n, readFileSync(join(BERT, n))));
test('a BERT folder (vocab.txt) opens: [CLS]/[SEP], both directions, a sentence pair, the [MASK] predictions', async () => {
  const page = await open();
  await page.getByLabel('Or its files').setInputFiles(bertFiles());
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelFamily === 'bert', chapter);
  assert.match(
    await page.textContent(`${chapter} .model-status`),
    /open: model\.safetensors \(2 layers × 2 heads, hidden_size 8, 40 tokens, at most 12 per text; bert\)/,
  );
  assert.equal(await page.locator(`${chapter} .model-progress`).isVisible(), false, 'no bar once open');
  const box = page.getByRole('textbox', { name: 'sentence for the model' });
  await box.fill('the cat sat on the [MASK] .');
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelExplained === 'true', chapter);
  // BERT's head explains itself too: its x and W, q, k, v and value mix (families.browser.test.mjs reads them).
  assert.equal(await page.locator(`${chapter} .model-vectors figure.heatmap:visible`).count(), 6);
  const tokens = await page.locator(`${chapter} .model-token`).allTextContents();
  assert.deepEqual(tokens, ['[CLS]', 'the', 'cat', 'sat', 'on', 'the', '[MASK]', '.', '[SEP]']);
  // Both directions: the first token's row reads later tokens (no masked cell in the large map).
  const row = await page.evaluate((s) => {
    const canvas = document.querySelector(`${s} figure.model-head-figure canvas.heatmap-canvas`);
    return canvas.getAttribute('aria-label');
  }, chapter);
  assert.match(row, /attention weights, layer 1, head 1/);
  assert.match(
    await page.textContent(`${chapter} figure.model-head-figure figcaption`),
    /Nothing is masked: BERT reads both ways/,
  );
  assert.match(await page.textContent(`${chapter} section.step >> nth=2`), /BERT reads in both directions/);
  // The [MASK] predictions: 8 tokens, probabilities falling; a row explains its p from the logits.
  const next = page.locator(`${chapter} .model-next tbody tr`);
  assert.equal(await next.count(), 8);
  assert.match(await page.textContent(`${chapter} .model-next th >> nth=0`), /token at \[MASK\] \(token 7\)/);
  const six = page.locator(`${chapter} section.step`).filter({ has: page.locator('.model-next') });
  assert.equal(await six.locator('h2').textContent(), '6. What fills the [MASK]');
  assert.equal(await six.locator(':scope > .formula').isVisible(), false, 'no decoder formula for BERT');
  await page.locator(`${chapter} .model-next`).focus();
  const story = await page.textContent(`${chapter} .model-next-story`);
  const m = story.match(
    /^p\(.+?\) = e\^\(z − z_max\) \/ Σ_j e\^\(z_j − z_max\) = e\^\((\S+) − (\S+)\) \/ (\S+) = (\S+), over all 40 tokens/,
  );
  assert.ok(m, story);
  const [z, max, sum, p] = m.slice(1).map(number);
  assert.ok(Math.abs(Math.exp(z - max) / sum - p) < 2e-3, story);
  const first = Number((await next.first().textContent()).match(/(\d\.\d{4})/)[1]);
  assert.ok(Math.abs(first - p) < 1e-3, `row ${first}, story ${p}`);
  // A sentence pair: [CLS] A [SEP] B [SEP], the second sentence's tokens of type 1.
  await page.getByRole('textbox', { name: 'second sentence (BERT reads a pair)' }).fill('a dog');
  await page.waitForFunction((s) => document.querySelectorAll(`${s} .model-token.is-second`).length === 3, chapter);
  assert.deepEqual(await page.locator(`${chapter} .model-token`).allTextContents(), [
    '[CLS]',
    'the',
    'cat',
    'sat',
    'on',
    'the',
    '[MASK]',
    '.',
    '[SEP]',
    'a',
    'dog',
    '[SEP]',
  ]);
  assert.match(page.url(), /mp=a(\+|%20)dog/);
  // No [MASK]: the chapter says how to get predictions; Try masks a word.
  await page.getByRole('textbox', { name: 'second sentence (BERT reads a pair)' }).fill('');
  await box.fill('the cat sat on the mat .');
  await page.waitForFunction(
    (s) => /has no \[MASK\]/.test(document.querySelector(`${s} .model-next-note`)?.textContent),
    chapter,
  );
  await page.getByRole('button', { name: 'Try: mask a word' }).click();
  assert.equal(await box.inputValue(), 'the cat sat on the [MASK] .');
  await page.waitForFunction((s) => document.querySelectorAll(`${s} .model-next tbody tr`).length === 8, chapter);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a model_type no family reads: the error names the model types that open here', async () => {
  const page = await open();
  const config = { ...JSON.parse(readFileSync(join(FIXTURE, 'config.json'), 'utf8')), model_type: 't5' };
  await page
    .getByLabel('Or its files')
    .setInputFiles([
      fixtureFile('config.json', Buffer.from(JSON.stringify(config))),
      fixtureFile('model.safetensors'),
      fixtureFile('tokenizer.json'),
    ]);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelFailed === '1', chapter);
  const error = await page.textContent(`${chapter} .model-open-error`);
  assert.match(error, /model_type is "t5"; .*'gpt2'.*'bert'.* models open here/);
  assert.match(await page.textContent(`${chapter} .model-status`), /the model before stays open/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('byte tokens show as ⟨F0⟩, never as �; the progress bar is gone once the demo is open', async () => {
  const page = await open();
  assert.equal(await page.locator(`${chapter} .model-progress`).isVisible(), false);
  await page.getByRole('textbox', { name: 'sentence for the model' }).fill('the cat 🙂');
  await explained(page);
  const tokens = (await page.locator(`${chapter} .model-token`).allTextContents()).join(' ');
  assert.ok(!tokens.includes('\uFFFD'), tokens);
  assert.match(tokens, /⟨F0⟩/);
  // The large map and the head view label the same tokens the same way.
  const lines = await page.locator(`${chapter} .token-lines-token[data-side="query"]`).allTextContents();
  assert.ok(!lines.join('').includes('\uFFFD'), lines.join(' '));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the predict question of step 6 compares two tokens, and its verdict states both probabilities', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=model`, { predict: true });
  await explained(page);
  const section = page
    .locator(`${chapter} section.step`)
    .filter({ has: page.locator('h2', { hasText: '6. What comes next' }) });
  const box = section.locator(':scope > .predict');
  const choices = await box.locator('.predict-choice').allTextContents();
  assert.equal(choices.length, 2);
  await box.locator('.predict-choice').first().click();
  const verdict = (await box.locator('.predict-verdict').textContent()).replace(/\u2212/g, '-');
  const p = [...verdict.matchAll(/p\(“(.+?)”\) = ([0-9.e-]+)/g)].map((x) => [x[1], Number(x[2])]);
  assert.equal(p.length, 2, verdict);
  const rows = await section.locator('.model-next tbody tr').allTextContents();
  const [top1, top2] = rows.slice(0, 2).map((r) => Number(r.match(/(\d\.\d{4})/)[1]));
  assert.ok(Math.abs(p[0][1] - top1) < 1e-3 && Math.abs(p[1][1] - top2) < 1e-3, `${verdict} vs ${rows}`);
  assert.deepEqual([...choices].sort(), [`“${p[0][0]}”`, `“${p[1][0]}”`].sort());
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('keyboard and layout: the head view is one Tab stop with arrow keys, labels from 1; a finding scrolls below the toolbar', async () => {
  const page = await open();
  const tokens = page.locator(`${chapter} .token-lines-token`);
  const stops = await tokens.evaluateAll((nodes) => nodes.filter((n) => n.getAttribute('tabindex') === '0').length);
  assert.equal(stops, 1, 'one Tab stop for the token strip');
  assert.match(await tokens.first().getAttribute('aria-label'), /^query 1: /);
  await page.locator(`${chapter} .token-lines-token[tabindex="0"]`).focus();
  await page.keyboard.press('ArrowDown');
  const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
  assert.match(focused, /^query 2: /);
  await page.keyboard.press('ArrowRight');
  assert.match(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), /^key 2: /);
  assert.equal(await tokens.evaluateAll((nodes) => nodes.filter((n) => n.getAttribute('tabindex') === '0').length), 1);
  // "show layer l, head h": the large map's top lands below the sticky toolbar.
  const show = page.locator(`${chapter} .model-findings button`).first();
  if ((await show.count()) === 1) {
    await show.click();
    await page.waitForFunction(() => new Promise((ok) => requestAnimationFrame(() => ok(true))));
    const [top, bar] = await page.evaluate((s) => {
      const figure = document.querySelector(`${s} figure.model-head-figure`).getBoundingClientRect().top;
      const toolbar = document.querySelector('.step-toolbar')?.getBoundingClientRect().bottom ?? 0;
      return [figure, toolbar];
    }, chapter);
    assert.ok(top >= bar - 1, `figure top ${top} under the toolbar's bottom ${bar}`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('at 390 px the model view says when heads are cut off to the right', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=model`, { viewport: { width: 390, height: 800 } });
  await explained(page);
  const grid = page.locator(`${chapter} .head-grid`);
  const cut = await grid.evaluate((g) => g.scrollWidth > g.clientWidth + 2);
  const cue = page.locator(`${chapter} .model-scroll-cue`);
  assert.equal(await cue.isVisible(), cut, `grid cut: ${cut}`);
  if (cut) {
    await grid.evaluate((g) => (g.scrollLeft = g.scrollWidth));
    await cue.waitFor({ state: 'hidden' });
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
