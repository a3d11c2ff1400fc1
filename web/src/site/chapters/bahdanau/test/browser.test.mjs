// End to end: the "Bahdanau additive attention" chapter in Debian's chromium.
// Expected numbers are the article's printed ones (seed 42) or NumPy's, read
// from tests/fixtures/additive.txt (made by tests/fixtures/make_additive.py).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadFixture } from '../../../../../../tests/js/fixtures.js';
import {
  canvasHash,
  FILE_URL,
  openPage,
  paintedPixels,
  assertFormulaLinks,
  tableValues,
  useBrowser,
} from '../../../../../../tests/browser/harness.mjs';

const ref = loadFixture('additive.txt');
const CANVASES = 11; // steps 2-9: encoder + decoder, inputs, W1 + activations, w2 + scores, weights, weighted, context, comparison

const env = useBrowser();

const outputs = (page) => page.$$eval('#chapter-bahdanau pre.output', (nodes) => nodes.map((n) => n.textContent));
const field = (page, name) => page.getByRole('textbox', { name, exact: true });
/** NumPy's 8-decimal rendering of x, as it appears inside a printed array. */
const printed = (x) => x.toFixed(8).replace(/0+$/, '');

async function checkArticleNumbers(page) {
  const text = (await outputs(page)).join('\n');
  // The article's print(scores) and print(context_vector), in repr form.
  assert.match(
    text,
    /array\(\[\[4\.35790943\],\n {7}\[5\.92373433\],\n {7}\[4\.18673175\],\n {7}\[2\.11437202\],\n {7}\[0\.95767155\]\]\)/,
  );
  for (const x of [
    '-0.63514569',
    '0.04917298',
    '-0.43930867',
    '-0.9268003 ',
    '1.01903919',
    '-0.43181409',
    '0.13365099',
    '-0.84746874',
    '-0.37572203',
    '0.18279832',
    '-0.90452701',
    '0.17872958',
    '-0.58015282',
    '-0.58294027',
    '-0.75457577',
    '1.32985756',
  ]) {
    assert.ok(text.includes(x), `context entry ${x} is missing`);
  }
  assert.match(text, /array\(\[-0\.63514569, {2}0\.04917298, -0\.43930867, -0\.9268003 , {2}1\.01903919,/);
  // np.random.seed(42); np.random.randn(5, 16) starts 0.49671415, -0.1382643
  assert.match(text, /array\(\[\[ 0\.49671415, -0\.1382643 , {2}0\.64768854/);
}

async function checkFixtureCase(page, i) {
  const text = (await outputs(page)).join('\n');
  for (const x of ref.get(`case${i}.scores`).data)
    assert.ok(text.includes(printed(x)), `score ${printed(x)} of case${i} is missing`);
  for (const x of ref.get(`case${i}.context`).data)
    assert.ok(text.includes(printed(x)), `context ${printed(x)} of case${i} is missing`);
}

test("loads over http with no console errors, paints every canvas, shows the article's numbers", async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=bahdanau`);
  await checkArticleNumbers(page);
  const painted = await paintedPixels(page, '#chapter-bahdanau canvas');
  assert.equal(painted.length, CANVASES);
  painted.forEach((count, i) => assert.ok(count > 300, `canvas ${i} has only ${count} painted pixels`));
  assert.match(
    await page.textContent('#chapter-bahdanau'),
    /inputs\.shape == \(5, 32\) == \(input_length, 2\*hidden_size\)/,
  );
  const credits = await page.$$eval('#chapter-bahdanau .credit a', (links) => links.map((a) => a.href));
  assert.ok(credits.includes('https://arxiv.org/abs/1409.0473'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('loads from file:// with no console errors', async () => {
  const page = await openPage(env.browser, `${FILE_URL}#chapter=bahdanau`);
  await checkArticleNumbers(page);
  const painted = await paintedPixels(page, '#chapter-bahdanau canvas');
  painted.forEach((count, i) => assert.ok(count > 300, `canvas ${i} is blank`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('editing seed and sizes redraws, recomputes (NumPy fixture values), repaints and updates the URL', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=bahdanau`);
  const scoresCanvas = '#chapter-bahdanau section.step:nth-of-type(6) canvas:nth-of-type(1)';
  const before = await canvasHash(page, '#chapter-bahdanau section.step:nth-of-type(6) figure:nth-of-type(2) canvas');
  // Fixture case 1: seed 0, input_length 3, hidden_size 4, attention_size 2.
  assert.deepEqual(Array.from(ref.get('case1.config').data), [0, 3, 4, 2]);
  await field(page, 'seed').fill('0');
  await field(page, 'input_length').fill('3');
  await field(page, 'hidden_size').fill('4');
  await field(page, 'attention_size').fill('2');
  await checkFixtureCase(page, 1);
  assert.match((await outputs(page))[0], /encoder_states = np\.random\.randn\(3, 4\)/);
  assert.notEqual(
    await canvasHash(page, '#chapter-bahdanau section.step:nth-of-type(6) figure:nth-of-type(2) canvas'),
    before,
    'scores heatmap was not repainted',
  );
  assert.ok((await paintedPixels(page, scoresCanvas))[0] > 100);
  const hash = await page.evaluate(() => location.hash);
  for (const part of ['seed=0', 'len=3', 'hidden=4', 'att=2'])
    assert.ok(hash.includes(part), `${part} missing from ${hash}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a permalink restores seed and sizes; the reset button returns to the article', async () => {
  // Fixture case 4: seed 123, input_length 12, hidden_size 8, attention_size 6.
  assert.deepEqual(Array.from(ref.get('case4.config').data), [123, 12, 8, 6]);
  const page = await openPage(env.browser, `${env.url}#chapter=bahdanau&seed=123&len=12&hidden=8&att=6`);
  assert.equal(await field(page, 'seed').inputValue(), '123');
  await checkFixtureCase(page, 4);
  await page.getByRole('button', { name: 'back to the article (42, 5, 16, 10)' }).click();
  await checkArticleNumbers(page);
  assert.equal(await field(page, 'hidden_size').inputValue(), '16');
  assert.doesNotMatch(await page.evaluate(() => location.hash), /seed=|len=/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('big sizes still paint every heatmap (drawn without cell labels)', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=bahdanau`);
  await field(page, 'hidden_size').fill('32');
  await field(page, 'attention_size').fill('32');
  await field(page, 'input_length').fill('20');
  const painted = await paintedPixels(page, '#chapter-bahdanau canvas');
  assert.equal(painted.length, CANVASES);
  painted.forEach((count, i) => assert.ok(count > 300, `canvas ${i} has only ${count} painted pixels`));
  const widths = await page.$$eval('#chapter-bahdanau canvas', (cs) => cs.map((c) => c.getBoundingClientRect().width));
  widths.forEach((w, i) => assert.ok(w < 900, `canvas ${i} is ${w}px wide`));
  assert.match((await outputs(page))[0], /layer_1 {8}= np\.random\.randn\(64, 32\)/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('invalid entries are marked and ignored: the last good numbers stay', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=bahdanau`);
  for (const [name, text] of [
    ['input_length', '0'],
    ['hidden_size', 'x'],
    ['seed', '4294967296'],
    ['attention_size', '2.5'],
  ]) {
    await field(page, name).fill(text);
    assert.equal(await field(page, name).getAttribute('aria-invalid'), 'true', `${name} = ${text}`);
  }
  await checkArticleNumbers(page);
  await field(page, 'seed').fill('4294967295'); // the largest seed is fine
  assert.equal(await field(page, 'seed').getAttribute('aria-invalid'), 'false');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the contents bar lists the chapter', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=bahdanau`);
  const current = await page.$eval('#contents a[aria-current="page"]', (a) => a.textContent);
  assert.equal(current, 'Bahdanau additive attention');
  assert.equal(await page.title(), 'Bahdanau additive attention · attention-lab');
  await page.context().close();
});

test('provenance and diagram: a score explains itself through the tanh layer; the diagram has a line per step', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=bahdanau`);
  const figure = (label) => `#chapter-bahdanau figure.heatmap:has(canvas[aria-label^="${label}"])`;
  await page.focus(`${figure('alignment scores e')} canvas`);
  await page.keyboard.press('ArrowDown'); // e2
  const text = await page.textContent(`${figure('alignment scores e')} .heatmap-story`);
  assert.match(text, /^e2 = a2 · w2 = .* = −?[\d.]+$/);
  const sources = await page.$$eval('#chapter-bahdanau figure.heatmap.is-source canvas', (cs) =>
    cs.map((c) => c.getAttribute('aria-label').split(':')[0]),
  );
  assert.deepEqual(sources, ['tanh activations, one row per encoder step', 'layer_2 weights w2']);
  await page.focus(`${figure('tanh activations')} canvas`);
  assert.match(
    await page.textContent(`${figure('tanh activations')} .heatmap-story`),
    /^A\[1\]\[1\] = tanh\(z\[1\]\[1\]\) = tanh\(.*; z\[1\]\[1\] = x1 · W1\[:, 1\] = /,
  );
  const widths = await page.$$eval('#chapter-bahdanau .flow-diagram .flow-weight', (ls) =>
    ls.map((l) => Number(l.getAttribute('data-weight'))),
  );
  assert.equal(widths.length, 5);
  assert.ok(Math.abs(widths.reduce((p, q) => p + q, 0) - 1) < 1e-12);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('formulas: h_i, s, W1, w2, a_i, e, α and c are coloured like their figures and light them up', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=bahdanau`);
  await assertFormulaLinks(page, '#chapter-bahdanau', [
    ['encoder', /^encoder states/],
    ['decoder', /^decoder state s/],
    ['activations', /^tanh activations/],
    ['layer2', /^layer_2 weights w2/],
    ['weights', /^attention weights α/],
    ['layer1', /^layer_1 weights W1/],
    ['scores', /^alignment scores e/],
    ['context', /^context vector c/],
  ]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('drag handles on the fields; "Try:" experiments whose claims follow the numbers', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=bahdanau`);
  const experiment = (label) =>
    page.locator('#chapter-bahdanau p.experiment').filter({ has: page.getByRole('button', { name: label }) });
  assert.equal(await page.locator('#chapter-bahdanau .scrubbable .scrub').count(), 4, 'one handle per field');
  // Dragging the seed's handle up by 12 px adds 3 (4 px a step): seed 45.
  const handle = page.locator('#chapter-bahdanau .scrub').first();
  await handle.scrollIntoViewIfNeeded();
  const box = await handle.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 - 12, { steps: 4 });
  await page.mouse.up();
  assert.equal(await field(page, 'seed').inputValue(), '45');
  assert.match((await outputs(page))[0], /^np\.random\.seed\(45\)/);

  // Before the click the text only says what the button does; after it, what the weights show.
  const one = experiment('Try: input_length = 1');
  assert.doesNotMatch(await one.textContent(), /α1 = /);
  await one.getByRole('button').click();
  assert.equal(await field(page, 'input_length').inputValue(), '1', 'the field shows the new size');
  assert.match(
    await one.textContent(),
    /One encoder step: softmax has nothing to choose from, α1 = 1, and the context is h1 itself\./,
  );
  // The next-seed experiment names the step the weights table shows.
  await field(page, 'input_length').fill('5');
  const next = experiment('Try: the next seed');
  await next.getByRole('button').click();
  assert.equal(await field(page, 'seed').inputValue(), '46');
  const weights = page.locator('#chapter-bahdanau section.step:nth-of-type(7) figure.heatmap');
  const values = (await tableValues(weights)).map(Number);
  const best = values.indexOf(Math.max(...values));
  assert.match(
    await next.textContent(),
    new RegExp(`With seed 46 and these sizes, the largest weight goes to h${best + 1} \\(`),
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
