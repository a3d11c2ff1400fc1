// First-load bytes of the Basics lesson, as a reader's browser fetches them:
// the site over http and from file://, and a host page with one
// <attention-lesson chapter="basics"> (dist/lib + dist/elements, the package
// layout). Every resource the page loaded (performance entries: the document,
// scripts, styles, fonts, modules) is read from disk and gzipped (-9), as a
// server with compression would send it. `npm run bench` prints these lines;
// tests/browser/first-load.test.mjs guards them. Needs `npm run build`.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { startBrowser } from './browser.mjs';
import { serve } from './serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const ELEMENT_PAGE = 'first-load-element.html';

/**
 * Opens `url`, waits for `ready` (a selector), and sums raw and gzip bytes of
 * every request the page made (file:// included), mapping URLs under `base` to `dir`.
 */
async function weigh(browser, url, ready, base, dir) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const urls = [];
  page.on('request', (request) => urls.push(request.url()));
  await page.goto(url);
  await page.locator(ready).waitFor({ timeout: 20000 });
  await page.evaluate(() => globalThis.document.fonts.ready); // runs in the page
  await new Promise((ok) => setTimeout(ok, 300)); // late font and module requests
  await context.close();
  const files = [...new Set(urls.map((u) => u.split('#')[0]))].filter((u) => u.startsWith(base));
  let raw = 0;
  let gzip = 0;
  const rows = [];
  for (const url of files) {
    const path = decodeURIComponent(new URL(url).pathname.slice(new URL(base).pathname.length));
    const bytes = readFileSync(join(dir, path || 'index.html'));
    const packed = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gzip += packed;
    rows.push({ path, raw: bytes.length, gzip: packed });
  }
  return { raw, gzip, files: rows.sort((a, b) => b.gzip - a.gzip) };
}

/** The three first loads; returns { siteHttp, siteFile, element } each { raw, gzip, files }. */
export async function measureFirstLoad() {
  const env = await startBrowser();
  let server;
  try {
    const result = {};
    const siteReady = 'html[data-ready="true"]';
    result.siteHttp = await weigh(env.browser, `${env.url}#chapter=basics`, siteReady, env.url, join(dist, 'site'));
    const siteFile = pathToFileURL(join(dist, 'site')).href + '/';
    result.siteFile = await weigh(
      env.browser,
      `${siteFile}index.html#chapter=basics`,
      siteReady,
      siteFile,
      join(dist, 'site'),
    );
    // The element page, served from dist/ itself (dist/lib and dist/elements side by side).
    writeFileSync(
      join(dist, ELEMENT_PAGE),
      '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">' +
        '<script type="module" src="elements/attention-lab-elements.js"></script>' +
        '<attention-lesson chapter="basics"></attention-lesson>',
    );
    ({ server } = await serve({ root: dist }));
    const base = `http://127.0.0.1:${server.address().port}/`;
    result.element = await weigh(
      env.browser,
      `${base}${ELEMENT_PAGE}`,
      'attention-lesson article[data-chapter="basics"]',
      base,
      dist,
    );
    return result;
  } finally {
    if (server) await new Promise((ok) => server.close(ok));
    await env.close();
    rmSync(join(dist, ELEMENT_PAGE), { force: true });
  }
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const r = await measureFirstLoad();
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log('first load of the Basics lesson (every resource, gzip -9; target ≤ 300 KiB):');
  for (const [name, m] of [
    ['site over http', r.siteHttp],
    ['site from file://', r.siteFile],
    ['<attention-lesson> page', r.element],
  ]) {
    console.log(`  ${name.padEnd(24)} ${kb(m.gzip).padStart(11)} gzip  (${kb(m.raw)} raw, ${m.files.length} files)`);
    for (const f of m.files.slice(0, Number(process.env.FIRST_LOAD_FILES ?? 4)))
      console.log(`      ${f.path.padEnd(44)} ${kb(f.gzip).padStart(11)}`);
  }
}
