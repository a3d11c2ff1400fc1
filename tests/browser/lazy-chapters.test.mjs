// The site loads each chapter when it is opened (scripts/build-site.mjs): over
// http and from file://, the Basics page requests chapters/basics.js and no
// other chapter; opening another chapter injects its script once; shared
// modules stay one copy (the palette setting reaches a lazily loaded chapter);
// the oEmbed discovery link follows the open chapter.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chapterMetas } from '../../scripts/chapters.mjs';
import { canvasHash, FILE_URL, openPage, useBrowser } from './harness.mjs';

const CHAPTERS = await chapterMetas(); // chapters/*/meta.js, in order

const env = useBrowser();

/** Opens `url`, recording the chapter scripts the page requests. */
async function openRecording(url) {
  const requested = [];
  const page = await openPage(env.browser, 'about:blank', { waitForReady: false });
  page.on('request', (r) => {
    const m = /\/chapters\/([\w-]+)\.js$/.exec(new URL(r.url()).pathname);
    if (m) requested.push(m[1]);
  });
  await page.goto(url);
  await page.waitForSelector('html[data-ready="true"]');
  return { page, requested };
}

const oembedLink = (page) =>
  page.$eval('link[rel="alternate"][type="application/json+oembed"]', (l) => ({ href: l.href, title: l.title }));

for (const [mode, base] of [
  ['http', () => env.url],
  ['file://', () => FILE_URL],
]) {
  test(`site over ${mode}: Basics loads only its own chapter script; another chapter loads on demand, once`, async () => {
    const { page, requested } = await openRecording(`${base()}#chapter=basics`);
    await page.waitForSelector('article[data-chapter="basics"] section.step');
    assert.deepEqual(requested, ['basics']);
    // The discovery link a build with ATTENTION_LAB_PUBLIC_URL writes (scripts/build-oembed.mjs).
    await page.evaluate(() =>
      document.head.insertAdjacentHTML(
        'beforeend',
        '<link rel="alternate" type="application/json+oembed" href="https://h.example/site/oembed/basics.json">',
      ),
    );

    await page.evaluate(() => {
      globalThis.location.hash = 'chapter=qkv';
    });
    await page.waitForSelector('article[data-chapter="qkv"] section.step');
    assert.deepEqual(requested, ['basics', 'qkv']);
    const link = await oembedLink(page);
    assert.equal(link.href, 'https://h.example/site/oembed/qkv.json');
    assert.equal(link.title, `${CHAPTERS.find((c) => c.id === 'qkv').title} · attention-lab`);

    await page.evaluate(() => {
      globalThis.location.hash = 'chapter=basics';
    });
    await page.waitForSelector('article[data-chapter="basics"] section.step');
    assert.deepEqual(requested, ['basics', 'qkv'], 'a chapter script loads once');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('site: a lazily loaded chapter shares the shell modules (the palette the shell set reaches its heatmaps)', async () => {
  const hashes = [];
  for (const palette of ['', '&palette=viridis']) {
    const { page } = await openRecording(`${env.url}#chapter=basics${palette}`);
    const shared = await page.evaluate(() => Object.keys(globalThis.attentionLabModules));
    assert.ok(
      shared.includes('web/src/site/figures/heatmap.js') && shared.includes('web/src/site/site-api.js'),
      shared.join(),
    );
    // The shell applied the palette at start; qkv arrives later, in its own script.
    await page.evaluate((p) => {
      globalThis.location.hash = `chapter=qkv${p}`;
    }, palette);
    const canvas = 'article[data-chapter="qkv"] canvas.heatmap-canvas[data-painted="true"]';
    await page.waitForSelector(canvas);
    hashes.push(await canvasHash(page, canvas));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  // A second copy of figures/heatmap.js inside the chapter script would not see the override.
  assert.notEqual(hashes[0], hashes[1]);
});

test('site: an unknown chapter id falls back to the first chapter; every chapter title in the contents bar', async () => {
  const { page, requested } = await openRecording(`${env.url}#chapter=nope`);
  await page.waitForSelector(`article[data-chapter="${CHAPTERS[0].id}"]`);
  assert.deepEqual(requested, [CHAPTERS[0].id]);
  assert.deepEqual(
    await page.$$eval('#contents li a', (links) => links.map((a) => a.textContent)),
    CHAPTERS.map((c) => c.title),
  );
  await page.context().close();
});
