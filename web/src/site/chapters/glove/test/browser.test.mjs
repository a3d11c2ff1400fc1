// End to end: the GloVe chapter ("Attention between two sentences") in Debian's
// chromium. Expected weights come from tests/fixtures/glove_cosine.txt (NumPy on
// the package's float32 vectors); the page uses the shipped int12 vocabulary,
// which the chapter promises to keep within 1e-3 of them.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { serve } from '../../../../../../scripts/serve.mjs';
import { loadFixture } from '../../../../../../tests/js/fixtures.js';
import {
  assertFormulaLinks,
  canvasHash,
  FILE_URL,
  HANG_GUARD_MS,
  openPage,
  paintedPixels,
  SITE_DIR,
  tableValues,
  useBrowser,
} from '../../../../../../tests/browser/harness.mjs';

// The chapter masks words with no vector ("a", "A"): its weights are NumPy's masked ones.
const masked = loadFixture('glove_cosine.txt');
const env = useBrowser();

const CHAPTER = '#chapter-glove';
const stepSel = (n) => `${CHAPTER} section.step:nth-of-type(${n})`;

async function openChapter(url = `${env.url}#chapter=glove`) {
  const page = await openPage(env.browser, url);
  await page.waitForSelector(`${CHAPTER}[data-loaded="true"]`);
  return page;
}

/** The values of a step's heatmap, from its "Values as a table" view. */
async function heatmapValues(page, n, which = 0) {
  const cells = await tableValues(page.locator(`${stepSel(n)} figure.heatmap`).nth(which));
  return cells.map(Number);
}

const maxDiff = (a, b) => Math.max(...a.map((x, i) => Math.abs(x - b[i])));

test('renders the sentences’ 8 × 9 attention plots with no console errors', async () => {
  const page = await openChapter();
  const tokens = await page.textContent(`${stepSel(1)} pre.output`);
  assert.equal(
    tokens,
    "query_tokens = ['The', 'teacher', 'praised', 'a', 'student', 'because', 'she', 'improved']\n" +
      "key_tokens   = ['A', 'student', 'asked', 'the', 'teacher', 'to', 'help', 'her', 'improving']",
  );
  // "a" / "A" are flagged as missing, never given a vector.
  assert.deepEqual(await page.$$eval(`${CHAPTER} li.token.missing`, (n) => n.map((x) => x.firstChild.textContent)), [
    'a',
    'A',
  ]);
  assert.match(await page.textContent(`${stepSel(3)} .missing-note`), /No vector for “a”, “A”/);
  assert.match(await page.textContent(`${stepSel(2)}`), /In use: GloVe 6B 100d .*14,000 most frequent words/);

  // Every canvas painted: 2 embedding heatmaps, then dot, trainable, additive.
  const painted = await paintedPixels(page, `${CHAPTER} canvas`);
  assert.equal(painted.length, 5);
  painted.forEach((count, i) => assert.ok(count > 500, `canvas ${i} has only ${count} painted pixels`));

  // Dot-product attention: 8 × 9, within 1e-3 of the float32 result.
  const dot = await heatmapValues(page, 4);
  assert.equal(dot.length, 72);
  const diff = maxDiff(dot, Array.from(masked.get('notebook.dot.weights').data));
  assert.ok(diff < 1e-3, `dot-product weights differ by ${diff}`);
  assert.match(await page.textContent(`${stepSel(4)} pre.output`), /^array\(\[\[/);
  assert.match(
    await page.textContent(`${stepSel(4)} .mask-note`),
    /^Hatched: “a”, “A” have no vector, so they are masked/,
  );
  for (const n of [5, 6]) {
    const w = await heatmapValues(page, n);
    assert.equal(w.length, 72, `step ${n}`);
    for (let r = 0; r < 8; r++) {
      const sum = w.slice(r * 9, r * 9 + 9).reduce((s, x) => s + x, 0);
      const want = r === 3 ? 0 : 1; // "a" (row 3) has no vector: no weights
      assert.ok(Math.abs(sum - want) < 1e-9, `step ${n} row ${r} sums to ${sum}`);
    }
  }
  // The notebook's broadcasting bug, explained with these sentences' shapes.
  assert.match(
    await page.textContent(`${stepSel(6)} .notebook-bug`),
    /The size of tensor a \(8\) must match the size of tensor b \(9\)/,
  );
  assert.match(
    await page.textContent(`${stepSel(6)} .notebook-bug`),
    /calls trainable_attention\(\.\.\.\) where it meant additive_attention\(\.\.\.\)/,
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the vocabulary is fetched only when the chapter opens', async () => {
  const context = await env.browser.newContext();
  context.setDefaultTimeout(HANG_GUARD_MS);
  const page = await context.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${env.url}#chapter=basics`);
  await page.waitForSelector('html[data-ready="true"]');
  assert.ok(!requests.some((u) => u.includes('/embeddings/')), 'no embeddings on the basics chapter');
  await page.click('#contents a[href="#chapter=glove"]');
  await page.waitForSelector(`${CHAPTER}[data-loaded="true"]`);
  assert.deepEqual(
    requests.filter((u) => u.includes('/embeddings/')).map((u) => u.replace(env.url, '')),
    ['embeddings/glove.6B.100d.14k.bin'],
  );
  await context.close();
});

test('typing a sentence recomputes tokens, matrices and plots, and the URL keeps it', async () => {
  const page = await openChapter();
  const before = await canvasHash(page, `${stepSel(4)} canvas`);
  await page.getByLabel('query sentence').fill('The student  helped\tthe teacher');
  assert.match(
    await page.textContent(`${stepSel(1)} pre.output`),
    /^query_tokens = \['The', 'student', 'helped', 'the', 'teacher'\]/,
  );
  const dot = await heatmapValues(page, 4);
  assert.equal(dot.length, 5 * 9);
  assert.notEqual(await canvasHash(page, `${stepSel(4)} canvas`), before);
  assert.match(await page.textContent(`${stepSel(6)} .notebook-bug`), /Q is 5 × 64 and K is 9 × 64/);
  assert.match(
    decodeURIComponent(await page.evaluate(() => location.hash)),
    /q=The\+student\+\+helped\tthe\+teacher|q=The student {2}helped\tthe teacher/,
  );
  // Equal lengths: the notebook's Q + K would run, pairing i with i only.
  await page.getByLabel('key sentence').fill('a b c d e');
  assert.match(await page.textContent(`${stepSel(6)} .notebook-bug`), /both have 5 tokens/);
  // Empty sentence: a message in the first step that needs both sentences, not a crash; the
  // attention steps after it are greyed out rather than showing the last sentences' weights as current.
  await page.getByLabel('key sentence').fill('   ');
  assert.match(await page.textContent(`${stepSel(3)} .step-error-text`), /Type at least one word in each sentence/);
  assert.equal(await page.locator(`${CHAPTER} section.step.stale`).count(), 3);
  // A permalink restores the sentence.
  const url = await page.evaluate(() => location.href);
  const again = await openChapter(url);
  assert.equal(await again.getByLabel('query sentence').inputValue(), 'The student  helped\tthe teacher');
  assert.deepEqual(page.errors, []);
  await page.context().close();
  await again.context().close();
});

test('typed markup is shown as text and never executed', async () => {
  const page = await openChapter();
  let dialogs = 0;
  page.on('dialog', async (d) => {
    dialogs++;
    await d.dismiss();
  });
  const evil = '<img src=x onerror=alert(1)> <b>bold</b>';
  await page.getByLabel('query sentence').fill(evil);
  await page.getByLabel('key sentence').fill('<script>alert(2)</script> teacher');
  // No element was made from the typed markup, so no handler of it exists that could fire
  // later: the absence of elements is the proof (no wait for a dialog that cannot come).
  assert.equal(await page.$$eval(`${CHAPTER} img, ${CHAPTER} b, ${CHAPTER} script`, (n) => n.length), 0);
  assert.equal(dialogs, 0);
  const chips = await page.$$eval(`${CHAPTER} ol[aria-label="query tokens"] li`, (n) =>
    n.map((x) => x.firstChild.textContent),
  );
  assert.deepEqual(chips, ['<img', 'src=x', 'onerror=alert(1)>', '<b>bold</b>']);
  assert.match(
    await page.textContent(`${stepSel(1)} pre.output`),
    /\['<img', 'src=x', 'onerror=alert\(1\)>', '<b>bold<\/b>'\]/,
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('reseeding redraws the trainable and additive plots', async () => {
  const page = await openChapter();
  const t0 = await heatmapValues(page, 5);
  const a0 = await heatmapValues(page, 6);
  await page.getByRole('button', { name: 'Reseed W_q, W_k, W_v' }).click();
  assert.match(await page.textContent(`${stepSel(5)} .seed`), /seed 1/);
  assert.ok(maxDiff(await heatmapValues(page, 5), t0) > 1e-6);
  assert.deepEqual(await heatmapValues(page, 6), a0, 'additive attention untouched');
  await page.getByRole('button', { name: 'Reseed W_q, W_k, w_s' }).click();
  assert.ok(maxDiff(await heatmapValues(page, 6), a0) > 1e-6);
  await page.getByLabel('projection size d').selectOption('16');
  assert.match(await page.textContent(`${stepSel(5)}`), /Q, K and V are 8 × 16, 9 × 16 and 9 × 16/);
  assert.match(await page.evaluate(() => location.hash), /ts=1/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** A GloVe file (dim 4) with the sentences' words, and `extra` filler lines. */
function gloveFile(extra = 0) {
  const words = [
    'the',
    'teacher',
    'praised',
    'a',
    'student',
    'because',
    'she',
    'improved',
    'asked',
    'to',
    'help',
    'her',
    'improving',
  ];
  const lines = words.map((w, i) => `${w} ${[i, 1, -i / 2, 0.25].join(' ')}`);
  for (let i = 0; i < extra; i++) lines.push(`filler${i} 0.125 -0.5 1e-3 2`);
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

test('“Load your own GloVe file” streams it in a worker and uses it', async () => {
  const page = await openChapter();
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page
    .getByLabel('your GloVe text file')
    .setInputFiles({ name: 'tiny.glove.txt', mimeType: 'text/plain', buffer: Buffer.from(gloveFile(2000)) });
  await page.waitForFunction(() => document.querySelector('.progress-text')?.textContent.startsWith('Loaded'));
  assert.match(await page.textContent('.progress-text'), /Loaded tiny\.glove\.txt: 2,013 words of 4 numbers/);
  assert.deepEqual(
    workers.map((u) => u.replace(env.url, '')),
    ['glove-worker.js'],
    'parsed in the Web Worker',
  );
  assert.match(await page.textContent(`${stepSel(2)}`), /In use: your file tiny\.glove\.txt/);
  // "a" has a vector in this file: nothing is missing now, and the matrices are 4 numbers wide.
  assert.equal(await page.$$eval(`${CHAPTER} li.token.missing`, (n) => n.length), 0);
  assert.equal((await heatmapValues(page, 3, 0)).length, 4 * 8);
  // Back to the shipped vectors and forth.
  await page.getByRole('button', { name: 'Use the shipped GloVe 6B vectors' }).click();
  assert.equal((await heatmapValues(page, 3, 0)).length, 100 * 8);
  await page.getByRole('button', { name: 'Use tiny.glove.txt' }).click();
  assert.equal((await heatmapValues(page, 3, 0)).length, 4 * 8);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a malformed file reports the line; Cancel stops a long load', async () => {
  const page = await openChapter();
  await page
    .getByLabel('your GloVe text file')
    .setInputFiles({ name: 'bad.txt', mimeType: 'text/plain', buffer: Buffer.from('the 1 2 3\nof 4 five 6\n') });
  await page.waitForFunction(() => document.querySelector('.progress-text')?.textContent.startsWith('Could not'));
  assert.equal(
    await page.textContent('.progress-text'),
    "Could not load the file: loadEmbeddings: line 2: value 2 of 3 'five' is not a number",
  );
  assert.match(await page.textContent(`${stepSel(2)}`), /In use: GloVe 6B 100d/);

  // Cancel: a stand-in worker that reports progress and never finishes, so the
  // click always lands mid-load (the real worker is exercised above; aborting a
  // real stream mid-way is tested in tests/js/embeddings.test.mjs).
  await page.route('**/glove-worker.js', (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: "self.onmessage = (e) => self.postMessage({ type: 'progress', bytesRead: 1000000, totalBytes: e.data.file.size, lines: 1234, words: 56 });",
    }),
  );
  await page
    .getByLabel('your GloVe text file')
    .setInputFiles({ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.from(gloveFile(200_000)) });
  await page.waitForFunction(() =>
    /^1\.0 MB of 6\.\d MB · 1,234 lines · 56 words kept$/.test(
      document.querySelector('.progress-text')?.textContent ?? '',
    ),
  );
  assert.equal(await page.$eval(`${stepSel(2)} progress`, (p) => p.hidden), false);
  await page.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await page.textContent('.progress-text'), 'Cancelled.');
  assert.equal(await page.getByRole('button', { name: 'Cancel' }).isVisible(), false);
  assert.match(await page.textContent(`${stepSel(2)}`), /In use: GloVe 6B 100d/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('from file:// the shipped vectors load through their script twin', async () => {
  const page = await openPage(env.browser, `${FILE_URL}#chapter=glove`);
  await page.waitForSelector(`${CHAPTER}[data-loaded="true"]`);
  const dot = await heatmapValues(page, 4);
  assert.ok(maxDiff(dot, Array.from(masked.get('notebook.dot.weights').data)) < 1e-3);
  // No worker from file://: the loader runs on the page instead.
  await page
    .getByLabel('your GloVe text file')
    .setInputFiles({ name: 'tiny.txt', mimeType: 'text/plain', buffer: Buffer.from(gloveFile(10)) });
  await page.waitForFunction(() => document.querySelector('.progress-text')?.textContent.startsWith('Loaded'));
  assert.match(await page.textContent('.progress-text'), /Loaded tiny\.txt: 23 words of 4 numbers/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("under the strict CSP (default-src 'self'), the vectors load and the worker runs", async () => {
  const csp =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'";
  const { server, url } = await serve({ root: SITE_DIR, headers: { 'Content-Security-Policy': csp } });
  try {
    const page = await openChapter(`${url}#chapter=glove`);
    await page
      .getByLabel('your GloVe text file')
      .setInputFiles({ name: 'tiny.txt', mimeType: 'text/plain', buffer: Buffer.from(gloveFile(10)) });
    await page.waitForFunction(() => document.querySelector('.progress-text')?.textContent.startsWith('Loaded'));
    assert.deepEqual(page.errors, [], 'no CSP violations or other console errors');
    await page.context().close();
  } finally {
    await new Promise((ok) => server.close(ok));
  }
});

test('usable at phone width: nothing overflows the page horizontally', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=glove`, { viewport: { width: 390, height: 844 } });
  await page.waitForSelector(`${CHAPTER}[data-loaded="true"]`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await page.context().close();
});

test('<attention-lesson chapter="glove"> from copied dist/lib + dist/elements folders: the package vectors, the worker next to the module', async () => {
  const host = mkdtempSync(join(tmpdir(), 'attention-lab-glove-host-'));
  for (const dir of ['lib', 'elements', 'classic', 'site'])
    cpSync(join(SITE_DIR, '..', dir), join(host, 'dist', dir), { recursive: true });
  writeFileSync(
    join(host, 'index.html'),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="dist/elements/attention-lab-elements.js"></script>
<h1>Course page</h1><attention-lesson chapter="glove"></attention-lesson>`,
  );
  const { server, url } = await serve({ root: host });
  try {
    const page = await openPage(env.browser, url, { waitForReady: false });
    const workers = [];
    page.on('worker', (w) => workers.push(w.url().replace(url, '')));
    await page.waitForSelector('attention-lesson article[data-loaded="true"]');
    const cells = await tableValues(
      page.locator('attention-lesson section.step:nth-of-type(4) figure.heatmap').first(),
    );
    assert.ok(maxDiff(cells.map(Number), Array.from(masked.get('notebook.dot.weights').data)) < 1e-3);
    await page
      .getByLabel('your GloVe text file')
      .setInputFiles({ name: 'tiny.txt', mimeType: 'text/plain', buffer: Buffer.from(gloveFile(10)) });
    await page.waitForFunction(() =>
      document
        .querySelector('attention-lesson')
        .shadowRoot.querySelector('.progress-text')
        ?.textContent.startsWith('Loaded'),
    );
    assert.deepEqual(workers, ['dist/elements/lesson-worker.js']);
    const vectors = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .filter((n) => n.endsWith('.bin')),
    );
    assert.deepEqual(
      vectors.map((u) => u.replace(url, '')),
      ['dist/lib/embeddings/glove.6B.100d.14k.bin'],
      'the package copy of the vectors',
    );
    assert.equal(await page.evaluate(() => location.hash), '', 'the host page URL is untouched');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await new Promise((ok) => server.close(ok));
    rmSync(host, { recursive: true, force: true });
  }
});

test('sentence inputs and token chips have a visible border, on the site and in dist/elements', async () => {
  const borders = (page) =>
    page.evaluate(() =>
      ['input.sentence', 'ol.tokens .token'].map((s) => {
        const style = getComputedStyle(document.querySelector(s));
        return { width: style.borderTopWidth, style: style.borderTopStyle, color: style.borderTopColor };
      }),
    );
  const page = await openChapter();
  for (const b of await borders(page)) {
    assert.equal(b.width, '1px');
    assert.equal(b.style, 'solid');
    assert.notEqual(b.color, 'rgba(0, 0, 0, 0)');
  }
  await page.context().close();
  // The elements carry components.css in their bundle (their shadow roots adopt it; the module
  // elements run the classic script, which holds it without white space).
  const css = readFileSync(join(SITE_DIR, '..', 'classic', 'attention-lab-elements.js'), 'utf8');
  assert.match(css, /\.attention-lab input\.sentence ?\{[^}]*border: ?1px solid var\(--al-muted\)/);
  assert.doesNotMatch(css, /var\(--(border|bg|fg|muted|panel|error|accent)\)/);
});

test('provenance: a dot-product weight shows its softmax row and outlines the two embedding columns', async () => {
  const page = await openChapter();
  const dot = `${CHAPTER} figure.heatmap:has(canvas[aria-label^="dot-product attention"])`;
  await page.focus(`${dot} canvas`);
  await page.keyboard.press('ArrowRight'); // 'The' → 'student'
  assert.match(
    await page.textContent(`${dot} .heatmap-story`),
    /^weight\[1\]\[2\] \(The → student\) = .* = 0\.\d+; 1 masked key left out; scaled\[1\]\[2\] \(The → student\) = q·k\[1\]\[2\] \/ √100 = .*; q·k\[1\]\[2\] \(The → student\) = q1 \(The\) · k2 \(student\) = .* \(100 products\) = /,
  );
  const sources = await page.$$eval(`${CHAPTER} figure.heatmap.is-source canvas`, (cs) =>
    cs.map((c) => c.getAttribute('aria-label').split(':')[0]),
  );
  assert.deepEqual(sources, ['query embeddings, one column per token', 'key embeddings, one column per token']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('formulas: Q, K and the three attention matrices are coloured like their figures and light them up', async () => {
  const page = await openChapter();
  await assertFormulaLinks(page, `${CHAPTER}`, [
    ['queryEmbed', /^query embeddings/],
    ['dot', /^dot-product attention/],
    ['additive', /additive/],
  ]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('"Try:" experiments say what happened only once it has: a word with no vector, the notebook’s d', async () => {
  const page = await openChapter();
  const experiment = (label) =>
    page.locator(`${CHAPTER} p.experiment`).filter({ has: page.getByRole('button', { name: label }) });
  await page.getByLabel('query sentence').fill('the teacher smiled');
  await page.getByLabel('key sentence').fill('the students listened');
  const unknown = experiment('Try: a word with no vector');
  assert.match(await unknown.textContent(), /Adds the made-up word “qzxv” to the query sentence: it has no vector/);
  await unknown.getByRole('button').click();
  assert.equal(await page.getByLabel('query sentence').inputValue(), 'the teacher smiled qzxv');
  assert.match(await unknown.textContent(), /Here “qzxv” has no vector: hatched in step 3/);
  const row = (await heatmapValues(page, 4)).slice(3 * 3, 4 * 3);
  assert.deepEqual(row, [0, 0, 0], 'its row of weights is masked');

  const notebook = experiment('Try: d = 256');
  assert.doesNotMatch(await notebook.textContent(), /largest weight/);
  await notebook.getByRole('button').click();
  assert.equal(await page.getByLabel('projection size d').inputValue(), '256');
  const kept = (w) => w.filter((_, x) => x < 9); // the first three query rows have vectors
  const [trained, dot] = [kept(await heatmapValues(page, 5)), kept(await heatmapValues(page, 4))];
  const [now, before] = [Math.max(...trained), Math.max(...dot)];
  const verdict = now < before ? 'flatter than' : 'sharper than';
  assert.match(await notebook.textContent(), new RegExp(`leave the weights ${verdict} the raw vectors’`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
