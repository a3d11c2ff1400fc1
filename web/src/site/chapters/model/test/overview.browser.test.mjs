// The model chapter's overview (step 7): the boxes and their shapes drawn from the
// opened config for the GPT-2 demo, the Llama demo, the Gemma 3 fixture (sliding
// layers marked) and BERT; every attention box's strip is the chosen token's rows
// of the run's maps (read back from the canvas against the palette); choosing an
// attention box opens that layer in the head view; the keyboard walks the boxes;
// a phone's width keeps the page from scrolling sideways; dark mode repaints.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../../../../../dist/lib/index.js';
import { openPage, useBrowser } from '../../../../../../tests/browser/harness.mjs';

const env = useBrowser();
const chapter = '#chapter-model';
const ROOT = fileURLToPath(new URL('../../../../../../', import.meta.url));
const FIXTURES = join(ROOT, 'tests/fixtures');
const json = (path) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
const data = (page, key) => page.$eval(chapter, (root, k) => root.dataset[k], key);

async function open(options) {
  const page = await openPage(env.browser, `${env.url}#chapter=model`, options);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelExplained === 'true', chapter);
  return page;
}

/** Waits for the overview drawn after run `n` of the chapter (data-model-overview moves on). */
const overviewAfter = (page, before) =>
  page.waitForFunction(
    ([s, b]) => Number(document.querySelector(s)?.dataset.modelOverview) > b,
    [chapter, Number(before)],
  );

/** The boxes as drawn: { input, layers: [{ attention, boxes }], output }, each box [kind, name, shape]. */
const boxesOf = (page) =>
  page.$eval(`${chapter} .model-overview`, (figure) => {
    const read = (scope) =>
      Array.from(scope.querySelectorAll(':scope > .overview-box'), (b) => [
        b.dataset.kind,
        b.dataset.name,
        b.dataset.shape,
      ]);
    return {
      input: read(figure.querySelector('.overview-input')),
      layers: Array.from(figure.querySelectorAll('.overview-layer'), (li) => ({
        attention: li.dataset.attention,
        name: li.querySelector('.overview-layer-name').textContent,
        boxes: read(li),
      })),
      output: read(figure.querySelector('.overview-output')),
    };
  });

const tokenCount = (page) => page.locator(`${chapter} .model-token`).count();

test('GPT-2 demo: wte + wpe, L × [ln_1, attn, +, ln_2, mlp, +], ln_f, logits, with the config’s shapes', async () => {
  const page = await open();
  const c = json('web/assets/gpt2-demo/config.json');
  const T = await tokenCount(page);
  const [D, V] = [c.n_embd, c.vocab_size];
  const TD = `${T}×${D}`;
  const drawn = await boxesOf(page);
  assert.deepEqual(drawn.input, [['embed', 'wte + wpe', TD]]);
  assert.equal(drawn.layers.length, c.n_layer);
  for (const layer of drawn.layers) {
    assert.equal(layer.attention, 'causal');
    assert.deepEqual(layer.boxes, [
      ['norm', 'ln_1', TD],
      ['attention', 'attn', TD],
      ['add', '+', TD],
      ['norm', 'ln_2', TD],
      ['mlp', 'mlp', TD],
      ['add', '+', TD],
    ]);
  }
  assert.deepEqual(drawn.output, [
    ['norm', 'ln_f', TD],
    ['head', 'logits', `${T}×${V}`],
  ]);
  // A box explains itself on focus: what it computes, its shape and weights, from the config.
  const mlp = page.locator(`${chapter} .overview-layer >> nth=0`).locator('.overview-mlp');
  await mlp.focus();
  const readout = page.locator(`${chapter} .overview-readout`);
  assert.match(await readout.textContent(), new RegExp(`gelu_new.*c_fc D × F = ${D} × ${4 * D}`));
  assert.match(await readout.textContent(), new RegExp(`Output T × D = ${T} × ${D}`));
  // The arrow keys walk the boxes: → from the MLP is the residual add.
  await page.keyboard.press('ArrowRight');
  assert.match(await readout.textContent(), /residual add/);
  assert.equal(await page.locator(`${chapter} .overview-box[tabindex="0"]`).count(), 1, 'one Tab stop');
  // The output head says the next token's probability (the same as the next-token table's first row).
  await page.locator(`${chapter} .overview-head`).focus();
  const first = page.locator(`${chapter} table.model-next tbody tr >> nth=0`);
  const p = (await first.locator('td >> nth=1').textContent()).trim().split(' ')[0];
  assert.match(await readout.textContent(), /most likely next token is “.+”, p = 0\.\d+/);
  const said = (await readout.textContent()).match(/p = (\d+\.\d+)/)[1];
  assert.ok(Math.abs(Number(said) - Number(p)) < 1e-3, `readout ${said}, table ${p}`);

  // Each strip is the chosen (last) token's row of every head, painted with the light palette.
  const strips = await page.$$eval(`${chapter} canvas.overview-strip`, (canvases) =>
    canvases.map((c) => ({ width: c.width, height: c.height })),
  );
  assert.deepEqual(
    strips,
    Array.from({ length: c.n_layer }, () => ({ width: T, height: c.n_head })),
  );
  // Choosing token 1: its only key is itself, weight 1 in every head: the palette's darkest colour.
  const before = await data(page, 'modelOverview');
  await page.getByLabel('the token whose attention the overview shows').selectOption('0');
  await overviewAfter(page, before);
  const pixel = () =>
    page.$eval(`${chapter} canvas.overview-strip`, (c) => Array.from(c.getContext('2d').getImageData(0, 0, 1, 1).data));
  assert.deepEqual(await pixel(), [0x80, 0x00, 0x80, 255]); // purple at 1
  const dark = await data(page, 'modelOverview');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(
    (s) => document.querySelector(s).getContext('2d').getImageData(0, 0, 1, 1).data[0] !== 0x80,
    `${chapter} canvas.overview-strip`,
  );
  assert.deepEqual(await pixel(), [0xe6, 0x8a, 0xe6, 255]); // the dark purple at 1
  assert.equal(await data(page, 'modelOverview'), dark, 'a repaint, not a new run');

  // Choosing layer 2's attention box opens layer 2 in the head views.
  await page.getByRole('button', { name: /^layer 2, attention.*open this layer’s heads/ }).click();
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelHead === 'layer 2, head 1', chapter);
  assert.equal(await page.getByRole('button', { name: /^layer 2, attention/ }).getAttribute('aria-pressed'), 'true');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('every strip is the last token’s row of each head of the run, as the API gives it', async () => {
  const page = await open();
  const sentence = await page.inputValue(`${chapter} textarea.model-sentence >> nth=0`);
  const api = await loadAttention();
  const dir = join(ROOT, 'web/assets/gpt2-demo');
  const model = await api.openModel({
    'config.json': readFileSync(join(dir, 'config.json')),
    'model.safetensors': readFileSync(join(dir, 'model.safetensors')),
    'tokenizer.json': readFileSync(join(dir, 'tokenizer.json')),
  });
  const { attentions } = model.run(sentence);
  model.delete();
  const strips = await page.$$eval(`${chapter} canvas.overview-strip`, (canvases) =>
    canvases.map((c) => {
      const image = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      return Array.from({ length: c.height }, (_, h) =>
        Array.from({ length: c.width }, (_, j) => image[4 * (h * c.width + j)]),
      );
    }),
  );
  // The light purple ramp is linear in the weight: red = 0xee + (0x80 − 0xee)·w, rounded to a byte.
  const tolerance = 1 / (0xee - 0x80) + 1e-9;
  let worst = 0;
  strips.forEach((heads, l) =>
    heads.forEach((row, h) => {
      const m = attentions[l][h];
      assert.equal(row.length, m.cols);
      row.forEach((red, j) => {
        const weight = (0xee - red) / (0xee - 0x80);
        worst = Math.max(worst, Math.abs(weight - m.get(m.rows - 1, j)));
      });
    }),
  );
  console.log(
    `# strips vs the API's last rows: ${worst.toFixed(4)} (tolerance ${tolerance.toFixed(4)}, one colour step)`,
  );
  assert.ok(worst <= tolerance, `${worst}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Llama demo: embed_tokens, RMSNorm, self_attn with 4 query heads sharing 2, SwiGLU, norm, logits', async () => {
  const page = await open();
  await page.getByRole('button', { name: 'Use the Llama demo' }).click();
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelFamily === 'llama', chapter);
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.modelExplained === 'true', chapter);
  const c = json('web/assets/llama-demo/config.json');
  const T = await tokenCount(page);
  const TD = `${T}×${c.hidden_size}`;
  const drawn = await boxesOf(page);
  assert.deepEqual(drawn.input, [['embed', 'embed_tokens', TD]]);
  assert.equal(drawn.layers.length, c.num_hidden_layers);
  for (const layer of drawn.layers)
    assert.deepEqual(layer.boxes, [
      ['norm', 'input_layernorm', TD],
      ['attention', 'self_attn', TD],
      ['add', '+', TD],
      ['norm', 'post_attention_layernorm', TD],
      ['mlp', 'mlp', TD],
      ['add', '+', TD],
    ]);
  assert.deepEqual(drawn.output, [
    ['norm', 'norm', TD],
    ['head', 'logits', `${T}×${c.vocab_size}`],
  ]);
  const attention = page.locator(`${chapter} .overview-attention >> nth=0`);
  assert.match(
    await attention.textContent(),
    new RegExp(`${c.num_attention_heads} query heads sharing ${c.num_key_value_heads} key/value heads`),
  );
  await attention.focus();
  const hd = c.head_dim ?? c.hidden_size / c.num_attention_heads;
  const text = await page.textContent(`${chapter} .overview-readout`);
  assert.match(text, /RoPE turns q and k/);
  assert.match(text, new RegExp(`k_proj and v_proj D × KV·hd = ${c.hidden_size} × ${c.num_key_value_heads * hd}`));
  await page.locator(`${chapter} .overview-mlp >> nth=0`).focus();
  assert.match(
    await page.textContent(`${chapter} .overview-readout`),
    new RegExp(`silu\\(gate\\) times up.*gate_proj, up_proj D × F = ${c.hidden_size} × ${c.intermediate_size}`),
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

const fixtureFiles = (family, names) =>
  names.map((name) => ({
    name,
    mimeType: 'application/octet-stream',
    buffer: readFileSync(join(FIXTURES, family, name)),
  }));

/** Once `family` is open: a sentence within the fixtures' few positions, run and drawn. */
async function shortSentence(page, family) {
  await page.waitForFunction(([s, f]) => document.querySelector(s)?.dataset.modelFamily === f, [chapter, family]);
  const before = (await data(page, 'modelOverview')) ?? 0;
  await page.getByRole('textbox', { name: 'sentence for the model' }).fill('the cat sat');
  await overviewAfter(page, before);
}

test('Gemma 3 fixture: four norms a layer, scaled embeddings, sliding and global layers marked', async () => {
  const page = await open();
  await page
    .getByLabel('Or its files')
    .setInputFiles(fixtureFiles('gemma3', ['config.json', 'model.safetensors', 'tokenizer.json']));
  await shortSentence(page, 'gemma3');
  const c = json('tests/fixtures/gemma3/config.json');
  const T = await tokenCount(page);
  const TD = `${T}×${c.hidden_size}`;
  const drawn = await boxesOf(page);
  assert.deepEqual(drawn.input, [['embed', 'embed_tokens', TD]]);
  assert.deepEqual(
    drawn.layers.map((l) => l.attention),
    c.layer_types.map((t) => (t === 'sliding_attention' ? 'sliding' : 'global')),
  );
  assert.match(drawn.layers[0].name, new RegExp(`sliding window ${c.sliding_window}`));
  assert.match(drawn.layers[1].name, /global/);
  for (const layer of drawn.layers)
    assert.deepEqual(
      layer.boxes.map(([kind, name]) => `${kind} ${name}`),
      [
        'norm input_layernorm',
        'attention self_attn',
        'norm post_attention_layernorm',
        'add +',
        'norm pre_feedforward_layernorm',
        'mlp mlp',
        'norm post_feedforward_layernorm',
        'add +',
      ],
    );
  assert.equal(await page.textContent(`${chapter} .overview-embed .overview-box-title`), 'scaled token embedding');
  await page.locator(`${chapter} .overview-attention >> nth=0`).focus();
  const text = await page.textContent(`${chapter} .overview-readout`);
  assert.match(text, /q_norm and k_norm/);
  assert.match(text, new RegExp(`sliding window of ${c.sliding_window}`));
  assert.match(text, new RegExp(`√query_pre_attn_scalar = √${c.query_pre_attn_scalar}`));
  await page.locator(`${chapter} .overview-head`).focus();
  assert.match(
    await page.textContent(`${chapter} .overview-readout`),
    new RegExp(`${c.final_logit_softcapping}·tanh\\(z / ${c.final_logit_softcapping}\\)`),
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('BERT: embeddings + LayerNorm, post-norm layers, both directions, the masked-LM head', async () => {
  const page = await open();
  await page
    .getByLabel('Or its files')
    .setInputFiles(fixtureFiles('bert', ['config.json', 'model.safetensors', 'vocab.txt']));
  await shortSentence(page, 'bert');
  const c = json('tests/fixtures/bert/config.json');
  const T = await tokenCount(page);
  const TD = `${T}×${c.hidden_size}`;
  const drawn = await boxesOf(page);
  assert.deepEqual(drawn.input, [
    ['embed', 'embeddings', TD],
    ['norm', 'embeddings.LayerNorm', TD],
  ]);
  for (const layer of drawn.layers) {
    assert.equal(layer.attention, 'bidirectional');
    assert.deepEqual(
      layer.boxes.map(([kind]) => kind),
      ['attention', 'add', 'norm', 'mlp', 'add', 'norm'],
    );
  }
  assert.deepEqual(drawn.output, [['head', 'cls.predictions', `${T}×${c.vocab_size}`]]);
  // Every token reads every token: the strip is T wide whatever token is chosen.
  const widths = await page.$$eval(`${chapter} canvas.overview-strip`, (cs) => cs.map((x) => x.width));
  assert.deepEqual(widths, Array(c.num_hidden_layers).fill(T));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on a 390 px phone the overview wraps: the page does not scroll sideways', async () => {
  const page = await open({ viewport: { width: 390, height: 844 } });
  await page.locator(`${chapter} .model-overview`).scrollIntoViewIfNeeded();
  const { page: pageWidth, figure } = await page.evaluate((s) => {
    const f = document.querySelector(`${s} .model-overview`);
    return { page: document.documentElement.scrollWidth, figure: f.getBoundingClientRect().right };
  }, chapter);
  assert.ok(pageWidth <= 390, `page ${pageWidth} px wide`);
  assert.ok(figure <= 390, `overview ends at ${figure} px`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
