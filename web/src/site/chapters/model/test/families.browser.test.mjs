// The model chapter with every rotary family's fixture folder (tests/fixtures/
// llama, qwen2, qwen3, gemma3, opened through the file input) and the Llama
// demo: the heads sharing a key/value head drawn as one group, q and k before
// and after the rotation (each rotated cell's story is the rotation's arithmetic
// and evaluates to the model's number), the weights explained on the rotated
// vectors with the family's scale (Gemma's query_pre_attn_scalar), the sliding
// window hatched with its size in the caption, and QK-norm said where the
// family has it; q, k, v explained as x·W + b (then the QK-norm's RMS division).
// BERT's fixture (tests/fixtures/bert): q, k, v as x·W + b, its map over both
// directions, the [MASK] list's probabilities. Every computed figure explains a
// cell; the counts are printed.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openPage, useBrowser } from '../../../../../../tests/browser/harness.mjs';

const env = useBrowser();
const chapter = '#chapter-model';
const FIXTURES = fileURLToPath(new URL('../../../../../../tests/fixtures', import.meta.url));
const MODEL_FILES = ['config.json', 'model.safetensors', 'tokenizer.json', 'generation_config.json'];
const number = (text) => Number(text.replace(/\u2212/g, '-'));
const data = (page, key) => page.$eval(chapter, (root, k) => root.dataset[k], key);
const explained = (page) =>
  page.waitForFunction((s) => document.querySelector(s)?.dataset.modelExplained === 'true', chapter);

async function openFamily(page, family) {
  const dir = join(FIXTURES, family);
  const files = readdirSync(dir)
    .filter((n) => MODEL_FILES.includes(n))
    .map((name) => ({ name, mimeType: 'application/octet-stream', buffer: readFileSync(join(dir, name)) }));
  await page.getByLabel('Or its files').setInputFiles(files);
  await page.waitForFunction(([s, f]) => document.querySelector(s)?.dataset.modelFamily === f, [chapter, family]);
  await page.getByRole('textbox', { name: 'sentence for the model' }).fill('the cat sat');
  await explained(page);
}

/** Focuses a figure's canvas, moves to cell (r, c) by keyboard, returns its story. */
async function storyOf(page, label, r, c) {
  const figure = page.locator(`${chapter} figure.heatmap`).filter({
    has: page.locator(`canvas[aria-label^="${label}"]`),
  });
  await figure.scrollIntoViewIfNeeded();
  await figure.locator('canvas.heatmap-canvas').focus();
  // Focus returns to the cell explained last: back to the corner first (these maps are at most 20 wide).
  for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowUp');
  for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowLeft');
  for (let i = 0; i < r; i++) await page.keyboard.press('ArrowDown');
  for (let i = 0; i < c; i++) await page.keyboard.press('ArrowRight');
  if (r === 0 && c === 0) {
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
  }
  return figure.locator('.heatmap-story').textContent();
}

/** A rotated cell's story: its two products add up to the value it prints, which is the model's. */
function checkRotation(text) {
  const m = text.match(/ = (\S+)·(\S+) ([−+]) (\S+)·(\S+) = (\S+?); θ/);
  assert.ok(m, `rotation story: ${text}`);
  const [a, cos, op, b, sin, value] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((x) =>
    typeof x === 'string' && x.length > 1 ? number(x.replace(/[()]/g, '')) : x,
  );
  const got = a * cos + (m[3] === '−' ? -1 : 1) * b * sin;
  assert.ok(Math.abs(got - value) <= 2e-3 * Math.max(1, Math.abs(value)), `${got} vs ${value}: ${text}`);
  assert.ok(!/but the model's value/.test(text), text);
  return op;
}

/** Every computed figure explains a cell with a source outlined: [explained, computed]. */
async function explainedCount(page) {
  const figures = page.locator(`${chapter} figure.heatmap:not([data-role="input"]):has(canvas.heatmap-canvas)`);
  let ok = 0;
  const n = await figures.count();
  for (let i = 0; i < n; i++) {
    const figure = figures.nth(i);
    await figure.scrollIntoViewIfNeeded();
    await figure.locator('canvas.heatmap-canvas').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    const text = (await figure.locator('.heatmap-story').isVisible())
      ? await figure.locator('.heatmap-story').textContent()
      : '';
    const sources = await page.locator(`${chapter} figure.heatmap.is-source`).count();
    if (text && !/^Hover, focus or tap/.test(text) && sources > 0) ok++;
  }
  return [ok, n];
}

const counts = {};
for (const family of ['llama', 'qwen2', 'qwen3', 'gemma3']) {
  test(`${family}: groups, rotation, scale, window and QK-norm drawn from the live model`, async () => {
    const config = JSON.parse(readFileSync(join(FIXTURES, family, 'config.json'), 'utf8'));
    const page = await openPage(env.browser, `${env.url}#chapter=model`);
    await explained(page);
    await openFamily(page, family);
    const { num_attention_heads: H, num_key_value_heads: KV } = config;
    assert.match(
      await page.textContent(`${chapter} .model-status`),
      new RegExp(`${H} heads sharing ${KV} key/value heads.*; ${family}\\)`),
    );
    // Groups: the grid marks where each kv group starts; the sentence names them.
    assert.equal(
      await page.locator(`${chapter} .head-grid-cell.kv-first`).count(),
      (KV - 1) * config.num_hidden_layers,
    );
    assert.match(
      await page.textContent(`${chapter} .model-groups`),
      new RegExp(`${H} query heads share ${KV} key/value heads`),
    );
    assert.match(await page.textContent(`${chapter} .model-head-about`), /kv head 1, which it shares with heads? 2/);
    // Rotation: q̃ and k̃ drawn, a cell's story is the rotation; position 2 of entry 1 turns with entry 1 + d/2.
    assert.equal(await page.locator(`${chapter} .model-rotated figure.heatmap`).count(), 2);
    checkRotation(await storyOf(page, 'queries after the rotation', 2, 0));
    checkRotation(
      await storyOf(
        page,
        'keys after the rotation',
        1,
        (config.head_dim ?? config.hidden_size / config.num_attention_heads) - 1,
      ),
    );
    // The weight's story: the scores are q̃·k̃, over √(scale).
    const weight = await storyOf(page, 'attention weights', 2, 1);
    const headDim = config.head_dim ?? config.hidden_size / H;
    const scale = family === 'gemma3' ? config.query_pre_attn_scalar : headDim;
    assert.match(weight, new RegExp(`over row 3 of score/√${scale}`), weight);
    assert.match(weight, /score\[3\]\[2\] .* = q̃3 .* · k̃2 /, weight);
    const about = await page.textContent(`${chapter} .model-head-about`);
    if (family === 'gemma3')
      assert.match(about, /√query_pre_attn_scalar = √10 \(config\.json\), not by √head_dim = √16/);
    assert.equal(/QK-norm/.test(about), family === 'qwen3' || family === 'gemma3', about);
    if (family === 'gemma3') {
      // Layer 1 slides (window 4): the caption says so; a key 4 tokens back is masked, and says why.
      await page.getByRole('textbox', { name: 'sentence for the model' }).fill('the cat sat on a mat');
      await explained(page);
      assert.match(
        await page.textContent(`${chapter} figure.model-head-figure figcaption`),
        /sliding window of 4 tokens/,
      );
      const T = await page.locator(`${chapter} .model-token`).count();
      assert.ok(T > 5, `${T} tokens`);
      const outside = await storyOf(page, 'attention weights', T - 1, T - 5);
      assert.match(outside, /= 0: key 5 tokens back: outside the layer’s window of 4/, outside);
      assert.match(
        await page.textContent(`${chapter} section.step >> nth=2`),
        /Layers 1, 3 use a sliding window of 4 tokens/,
      );
    }
    // q, k, v are computed from x: x·W (+ b), then the QK-norm where the family has one.
    const bias = family === 'qwen2' ? ' \\+ b_q\\[1\\]' : '';
    const sum = new RegExp(`\\[2\\]\\[1\\] \\(.*?\\) = x2 \\(.*?\\) · W_q\\[:, 1\\]${bias} = `);
    if (family === 'qwen3' || family === 'gemma3') {
      const before = await storyOf(page, 'queries before the QK-norm', 1, 0);
      assert.match(before, sum, before);
      const normed = await storyOf(page, 'queries q of the chosen head', 1, 0);
      assert.match(normed, /^rms\(Q_pre\[2\]/, normed);
      assert.match(normed, /\/ rms · g_q1 = /, normed);
    } else {
      const q = await storyOf(page, 'queries q of the chosen head', 1, 0);
      assert.match(q, sum, q);
    }
    const [ok, n] = await explainedCount(page);
    counts[family] = `${ok} / ${n}`;
    assert.equal(ok, n, `${family}: ${ok} of ${n} computed figures explain a cell`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('the Llama demo opens offline: 4 query heads share 2 key/value heads, q and k rotated', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=model`);
  await explained(page);
  await page.getByRole('button', { name: 'Use the Llama demo' }).click();
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelSource === 'llama', chapter);
  await explained(page);
  assert.match(
    await page.textContent(`${chapter} .model-status`),
    /open: the Llama demo model \(2 layers × 4 heads sharing 2 key\/value heads, hidden_size 32, 320 tokens, at most 64 per text; llama\)/,
  );
  assert.match(page.url(), /mm=llama/);
  checkRotation(await storyOf(page, 'queries after the rotation', 3, 2));
  const [ok, n] = await explainedCount(page);
  counts['llama demo'] = `${ok} / ${n}`;
  assert.equal(ok, n);
  assert.equal(await data(page, 'modelFamily'), 'llama');
  // A permalink to the Llama demo opens it again.
  const again = await openPage(env.browser, page.url());
  await again.waitForFunction((s) => document.querySelector(s)?.dataset.modelSource === 'llama', chapter);
  assert.deepEqual(again.errors, []);
  await again.context().close();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('bert: q, k, v explained as x·W + b, the map over both directions, the [MASK] list', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=model`);
  await explained(page);
  const dir = join(FIXTURES, 'bert');
  const files = ['config.json', 'model.safetensors', 'vocab.txt'].map((name) => ({
    name,
    mimeType: 'application/octet-stream',
    buffer: readFileSync(join(dir, name)),
  }));
  await page.getByLabel('Or its files').setInputFiles(files);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelFamily === 'bert', chapter);
  await page.getByRole('textbox', { name: 'sentence for the model' }).fill('the cat sat on the [MASK] .');
  await explained(page);
  const q = await storyOf(page, 'queries q of the chosen head', 1, 0);
  assert.match(q, /^Q\[2\]\[1\] \(the\) = x2 \(the\) · W_q\[:, 1\] \+ b_q\[1\] = /, q);
  // A key after its query is read, not masked: BERT's scores are q·k over √d_k, both ways.
  const weight = await storyOf(page, 'attention weights', 0, 2);
  assert.match(weight, /over row 1 of score\/√4/, weight);
  assert.match(weight, /score\[1\]\[3\] .* = q1 .* · k3 /, weight);
  assert.doesNotMatch(weight, /masked/, weight);
  assert.match(await page.textContent(`${chapter} .model-head-about`), /previous layer’s output/);
  // The [MASK] list: each probability worked out from the logits.
  await page.getByRole('table', { name: 'the most likely tokens at the first [MASK]' }).focus();
  assert.match(await page.textContent(`${chapter} .model-next-story`), /^p\(.+\) = e\^\(z − z_max\)/);
  const [ok, n] = await explainedCount(page);
  counts.bert = `${ok} / ${n}`;
  assert.equal(ok, n, `bert: ${ok} of ${n} computed figures explain a cell`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('explained / computed figures per family', () => {
  console.log(`# model chapter, explained / computed: ${JSON.stringify(counts)}`);
});
