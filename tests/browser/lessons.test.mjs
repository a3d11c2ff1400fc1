// One-file lessons (scripts/build-lessons.mjs): each opens from file:// and inside
// <iframe sandbox="allow-scripts"> (no storage, an opaque origin) with nothing
// fetched but the file itself, computes its chapter (the NMT one in its Blob
// worker), throws nothing, and posts its height to the embedding page.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openPage, startBrowser } from './harness.mjs';
import { chapterMetas } from '../../scripts/chapters.mjs';
import { serve } from '../../scripts/serve.mjs';

const CHAPTERS = await chapterMetas(); // every chapter folder's meta.js
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// The GloVe lesson's step 4 prints the sentences' vectors: numbers from the shipped file.
const GLOVE_VECTORS = 'article[data-chapter="glove"] section.step:nth-of-type(4) pre.output';
const BASICS_CONTEXT = /array\(\[ 3\.88079708, {2}4\.0728263 , 45\.26423912\]\)/; // tests/fixtures/basics.txt

let env;
let dir;
let host;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'attention-lab-lessons-'));
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-lessons.mjs'), join(dir, 'lessons')], { stdio: 'pipe' });
  env = await startBrowser();
  host = await serve({ root: dir });
});
after(async () => {
  await env?.close();
  if (host) await new Promise((ok) => host.server.close(ok));
  rmSync(dir, { recursive: true, force: true });
});

/** Opens `url` recording every request that is not data: or blob:; resolves to { page, fetched }. */
async function recorded(url) {
  const page = await openPage(env.browser, 'about:blank', { waitForReady: false });
  const fetched = [];
  page.on('request', (r) => !/^(data|blob):/.test(r.url()) && fetched.push(r.url()));
  await page.goto(url);
  return { page, fetched };
}

test('a lesson per chapter', () => {
  const files = readdirSync(join(dir, 'lessons')).sort();
  assert.deepEqual(files, CHAPTERS.map(({ id }) => `${id}.html`).sort());
});

test('from file://: Basics computes, embed mode, only the file itself is read, nothing throws', async () => {
  const url = pathToFileURL(join(dir, 'lessons', 'basics.html')).href;
  const { page, fetched } = await recorded(url);
  await page.waitForSelector('html[data-ready="true"]');
  const article = page.locator('article[data-chapter="basics"]');
  assert.match(await article.textContent(), BASICS_CONTEXT);
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains('embed')), true);
  assert.deepEqual(fetched, [url]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('from file://: the NMT lesson translates in its Blob worker; the model lesson explains the demo model; GloVe reads its inlined vectors', async () => {
  for (const [id, ready] of [
    ['nmt', '[data-nmt-output="2026-11-21"]'],
    ['model', '[data-model-explained="true"]'],
    ['glove', '[data-loaded="true"]'],
  ]) {
    const url = pathToFileURL(join(dir, 'lessons', `${id}.html`)).href;
    const { page, fetched } = await recorded(url);
    await page.locator(`article[data-chapter="${id}"]${ready}`).waitFor();
    if (id === 'nmt') assert.doesNotMatch(await page.textContent('.nmt-status'), /main thread/);
    if (id === 'glove') assert.match(await page.textContent(GLOVE_VECTORS), /^array\(\[\[ *-?\d/);
    assert.deepEqual(fetched, [url], id);
    assert.deepEqual(page.errors, [], id);
    await page.context().close();
  }
});

test('in <iframe sandbox="allow-scripts">: no storage, nothing throws, the height reaches the host page', async () => {
  writeFileSync(
    join(dir, 'host.html'),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><h1>Course</h1>
<iframe sandbox="allow-scripts" src="lessons/basics.html" title="lesson" style="width:900px;height:300px"></iframe>
<script>
  window.addEventListener('message', (e) => {
    if (e.data?.type === 'attention-lab:resize') document.body.dataset.height = e.data.chapter + ':' + e.data.height;
  });
</script>`,
  );
  const page = await openPage(env.browser, 'about:blank', { waitForReady: false });
  // Every frame records what it throws (uncaught errors, unhandled rejections).
  await page.context().addInitScript(() => {
    globalThis.thrown = [];
    addEventListener('error', (e) => globalThis.thrown.push(String(e.message)));
    addEventListener('unhandledrejection', (e) => globalThis.thrown.push(String(e.reason)));
  });
  const fetched = [];
  page.on('request', (r) => !/^(data|blob):/.test(r.url()) && fetched.push(r.url()));
  await page.goto(`${host.url}host.html`);
  const frame = page.frameLocator('iframe');
  await frame.locator('html[data-ready="true"]').waitFor();
  assert.match(await frame.locator('article[data-chapter="basics"]').textContent(), BASICS_CONTEXT);
  await page.waitForSelector('body[data-height^="basics:"]');
  const height = Number((await page.getAttribute('body', 'data-height')).split(':')[1]);
  assert.ok(height > 1000, `height ${height}`);
  const lesson = page.frames().find((f) => f.url().endsWith('lessons/basics.html#chapter=basics&embed=1'));
  assert.equal(
    await lesson.evaluate(() => {
      try {
        return typeof localStorage;
      } catch (error) {
        return error.name;
      }
    }),
    'SecurityError',
    'the sandbox leaves the lesson no storage',
  );
  assert.deepEqual(await lesson.evaluate(() => globalThis.thrown), []);
  assert.deepEqual(fetched, [`${host.url}host.html`, `${host.url}lessons/basics.html`]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('GloVe in <iframe sandbox="allow-scripts">: the inlined vectors load with nothing fetched, nothing throws', async () => {
  writeFileSync(
    join(dir, 'glove-host.html'),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><h1>Course</h1>
<iframe sandbox="allow-scripts" src="lessons/glove.html" title="lesson" style="width:900px;height:300px"></iframe>`,
  );
  const page = await openPage(env.browser, 'about:blank', { waitForReady: false });
  await page.context().addInitScript(() => {
    globalThis.thrown = [];
    addEventListener('error', (e) => globalThis.thrown.push(String(e.message)));
    addEventListener('unhandledrejection', (e) => globalThis.thrown.push(String(e.reason)));
  });
  const fetched = [];
  page.on('request', (r) => !/^(data|blob):/.test(r.url()) && fetched.push(r.url()));
  await page.goto(`${host.url}glove-host.html`);
  const frame = page.frameLocator('iframe');
  await frame.locator('article[data-chapter="glove"][data-loaded="true"]').waitFor();
  assert.match(await frame.locator(GLOVE_VECTORS).textContent(), /^array\(\[\[ *-?\d/);
  const lesson = page.frames().find((f) => f.url().endsWith('lessons/glove.html#chapter=glove&embed=1'));
  assert.deepEqual(await lesson.evaluate(() => globalThis.thrown), []);
  assert.deepEqual(fetched, [`${host.url}glove-host.html`, `${host.url}lessons/glove.html`]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
