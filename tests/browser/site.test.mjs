// Site-wide behaviour: strict CSP, embedding in an iframe, heatmap tools,
// palette switch, phone-width layout.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { chapterMetas } from '../../scripts/chapters.mjs';
import { serve } from '../../scripts/serve.mjs';
import { canvasHash, openPage, SITE_DIR, tableValues, useBrowser, waitUntil } from './harness.mjs';

const CHAPTERS = await chapterMetas(); // chapters/*/meta.js, in order

const env = useBrowser();

test("works under Content-Security-Policy: script-src 'self' 'wasm-unsafe-eval'", async () => {
  const csp =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'";
  const { server, url } = await serve({ root: SITE_DIR, headers: { 'Content-Security-Policy': csp } });
  try {
    const page = await openPage(env.browser, url);
    const text = await page.textContent('#chapter-basics');
    assert.match(text, /array\(\[ 3\.88079708, {2}4\.0728263 , 45\.26423912\]\)/);
    assert.deepEqual(page.errors, [], 'no CSP violations or other console errors');
    await page.context().close();
  } finally {
    await new Promise((ok) => server.close(ok));
  }
});

test('embed mode: the chapter alone in a cross-origin iframe, reporting its content height: it grows and shrinks', async () => {
  const hostDir = mkdtempSync(join(tmpdir(), 'attention-lab-host-'));
  const host = await serve({ root: hostDir });
  try {
    const src = `${env.url}#chapter=basics&embed=1`;
    writeFileSync(
      join(hostDir, 'index.html'),
      `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<h1>Course page</h1><iframe src="${src}" style="width:100%;border:0;height:100px"></iframe>
<script>
window.messages = [];
addEventListener('message', (e) => {
  if (e.data && e.data.type === 'attention-lab:resize')
    for (const f of document.querySelectorAll('iframe'))
      if (f.contentWindow === e.source) {
        window.messages.push({ origin: e.origin, data: e.data });
        f.style.height = e.data.height + 'px';
        document.body.dataset.chapter = e.data.chapter;
      }
});
</script>`,
    );
    const page = await openPage(env.browser, host.url, { waitForReady: false });
    const iframeHeight = () => page.evaluate(() => document.querySelector('iframe').getBoundingClientRect().height);
    await page.waitForFunction(() => document.querySelector('iframe').getBoundingClientRect().height > 2000, null);
    const contentHeight = () =>
      frame.evaluate(() => Math.ceil(document.getElementById('chapter').getBoundingClientRect().bottom));
    /** Waits until the iframe is as tall as its content (figures may still be painting), returns the height. */
    const fitsContent = async () => {
      let heights = [];
      await waitUntil(
        async () => {
          heights = [await iframeHeight(), await contentHeight()];
          return Math.abs(heights[0] - heights[1]) <= 1;
        },
        () => `the iframe (${heights[0]} px) to fit its content (${heights[1]} px)`,
      );
      return heights[0];
    };
    const tall = await iframeHeight();
    assert.equal(await page.getAttribute('body', 'data-chapter'), 'basics');
    const frame = page.frames().find((f) => f.url().startsWith(env.url));
    assert.equal(await frame.isVisible('.site-header'), false, 'no site chrome in embed mode');
    assert.equal(await frame.isVisible('#contents'), false);
    assert.match(await frame.textContent('#chapter-basics'), /array\(\[927\., 397\., 148\., 929\.\]\)/);

    // One step at a time: the content is much shorter, and the iframe follows it down.
    await frame.getByRole('button', { name: 'Step through' }).click();
    await page.waitForFunction((h) => document.querySelector('iframe').getBoundingClientRect().height < h / 2, tall);
    const short = await fitsContent();
    // And back up.
    await frame.getByRole('button', { name: 'All steps' }).click();
    await page.waitForFunction((h) => document.querySelector('iframe').getBoundingClientRect().height > 2 * h, short);
    await fitsContent();

    const messages = await page.evaluate(() => window.messages);
    for (const m of messages) {
      assert.equal(m.origin, new URL(env.url).origin);
      assert.deepEqual(Object.keys(m.data).sort(), ['chapter', 'height', 'type', 'version']);
      assert.equal(m.data.version, 1);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await new Promise((ok) => host.server.close(ok));
    rmSync(hostDir, { recursive: true, force: true });
  }
});

test('each chapter offers an embed snippet with its embed URL', async () => {
  const page = await openPage(env.browser, env.url);
  const snippet = await page.inputValue('textarea[aria-label="embed snippet"]');
  assert.match(snippet, /<iframe src="[^"]*#chapter=basics&embed=1"/);
  assert.match(snippet, /attention-lab:resize/);
  await page.context().close();
});

test('heatmaps: keyboard focus shows cell values; copy as NumPy; download PNG; table view', async () => {
  const page = await openPage(env.browser, env.url);
  const annotations = page.locator('#chapter-basics section.step:nth-of-type(4) figure.heatmap');
  await annotations.locator('canvas').focus();
  await page.keyboard.press('ArrowRight'); // entry 1 (labelled from 1, like the editors and H[1][2]), column h̄2: 59
  assert.equal(await annotations.locator('.heatmap-readout').textContent(), '1, h̄2: 59');
  await page.keyboard.press('ArrowDown'); // entry 2, column h̄2: 2
  assert.equal(await annotations.locator('.heatmap-readout').textContent(), '2, h̄2: 2');

  const menuButton = annotations.getByRole('button', { name: /PNG · Copy · Table/ });
  await menuButton.click();
  await annotations.getByRole('menuitem', { name: 'Copy as NumPy' }).click();
  await page.waitForFunction((el) => el.dataset.copied, await annotations.elementHandle());
  const literal = await annotations.getAttribute('data-copied');
  assert.equal(
    literal,
    'np.array([[ 3. , 59. ,  1. ,  4. ],\n          [12. ,  2. , 43. ,  3. ],\n          [45. ,  5. ,  5. , 45.3]])',
  );

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    menuButton.click().then(() => annotations.getByRole('menuitem', { name: 'Download as PNG' }).click()),
  ]);
  assert.match(download.suggestedFilename(), /\.png$/);

  const cells = await tableValues(annotations);
  assert.deepEqual(cells, ['3', '59', '1', '4', '12', '2', '43', '3', '45', '5', '5', '45.3']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the colour-blind-safe palette repaints every heatmap and lives in the URL', async () => {
  const page = await openPage(env.browser, env.url);
  const canvas = '#chapter-basics section.step:nth-of-type(1) canvas';
  const before = await canvasHash(page, canvas);
  await page.getByLabel('Colour-blind-safe colours').check();
  assert.notEqual(await canvasHash(page, canvas), before);
  assert.match(await page.evaluate(() => location.hash), /palette=viridis/);
  await page.context().close();
});

test('usable at phone width: nothing overflows the page horizontally', async () => {
  const page = await openPage(env.browser, env.url, { viewport: { width: 390, height: 844 } });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await page.context().close();
});

test('switching the OS to dark mode repaints the canvases in dark colours (heatmaps, the loss chart)', async () => {
  const page = await openPage(env.browser, `${env.url}#chapter=nmt`);
  await page.waitForFunction(() => document.querySelector('#chapter-nmt')?.dataset.nmtReady === 'true', null);
  // The loss chart has no background of its own (transparent: never a light box
  // on a dark page); its y axis (x = 48) is drawn in --al-muted. The heatmap's
  // axis labels are drawn in --al-heatmap-ink.
  const chart = () =>
    page.$eval('canvas.loss-curve', (canvas) => {
      const ctx = canvas.getContext('2d');
      const axis = ctx.getImageData(47, 60, 2, 1).data;
      const a = axis[3] >= axis[7] ? 0 : 4; // the more opaque of the two pixels the 1 px line covers
      return { cornerAlpha: ctx.getImageData(0, 0, 1, 1).data[3], axis: Array.from(axis.slice(a, a + 3)) };
    });
  const heatmap = '#chapter-nmt figure.nmt-attention canvas';
  const light = { chart: await chart(), heatmap: await canvasHash(page, heatmap) };
  assert.equal(light.chart.cornerAlpha, 0, 'transparent background');
  assert.ok(
    light.chart.axis.every((c) => c < 130),
    `dark axis on the light page ${light.chart.axis}`,
  );
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => {
    const d = document.querySelector('canvas.loss-curve').getContext('2d').getImageData(47, 60, 2, 1).data;
    return Math.max(d[0], d[4]) > 140;
  });
  const dark = await chart();
  assert.equal(dark.cornerAlpha, 0, 'still transparent');
  assert.notEqual(await canvasHash(page, heatmap), light.heatmap, 'the heatmap was repainted');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForFunction(() => {
    const d = document.querySelector('canvas.loss-curve').getContext('2d').getImageData(47, 60, 2, 1).data;
    return Math.max(d[0], d[4]) < 130;
  });
  assert.equal(await canvasHash(page, heatmap), light.heatmap, 'back to the light painting');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('phone width (390 px): every heatmap fits the column (colour bar below, narrower cells), steps clear the toolbar', async () => {
  for (const chapter of ['basics', 'bahdanau', 'qkv', 'transformer']) {
    const page = await openPage(env.browser, `${env.url}#chapter=${chapter}`, {
      viewport: { width: 390, height: 844 },
    });
    const wide = await page.$$eval(`#chapter-${chapter} figure.heatmap canvas`, (cs) =>
      cs.filter((c) => c.getBoundingClientRect().right > window.innerWidth).map((c) => c.getAttribute('aria-label')),
    );
    assert.deepEqual(wide, [], chapter);
    // The steps' scroll margin is the toolbar's measured height plus air (phone.test.mjs jumps to them),
    // set once the toolbar has a box.
    await page.waitForFunction(() => document.getElementById('chapter').style.getPropertyValue('--al-toolbar-height'));
    const { margin, toolbar } = await page.$eval(`#chapter-${chapter} section.step`, (s) => ({
      margin: parseFloat(getComputedStyle(s).scrollMarginTop),
      toolbar: document.querySelector('.step-toolbar').getBoundingClientRect().height,
    }));
    assert.ok(margin >= toolbar && margin <= toolbar + 16, `scroll margin ${margin} px, toolbar ${toolbar} px`);
    await page.context().close();
  }
});

test('phone width (390 px): display formulas fit the column (scaled down, or one part per line)', async () => {
  // NMT's table of four score functions is wider than 390 px at 70%: it scrolls, with shadows.
  for (const chapter of CHAPTERS.map((c) => c.id).filter((id) => id !== 'nmt')) {
    const page = await openPage(env.browser, `${env.url}#chapter=${chapter}`, {
      viewport: { width: 390, height: 844 },
    });
    // The fit runs in a ResizeObserver callback: wait until every formula says it was fitted to its width.
    await page.waitForFunction((id) => {
      const formulas = document.querySelectorAll(`#chapter-${id} .formula`);
      return formulas.length > 0 && [...formulas].every((f) => f.dataset.fitted === String(f.clientWidth));
    }, chapter);
    const over = await page.$$eval(`#chapter-${chapter} .formula`, (fs) =>
      fs.map((f) => f.scrollWidth - f.clientWidth).filter((x) => x > 1),
    );
    assert.deepEqual(over, [], `${chapter}: formulas wider than the column by ${over.join(', ')} px`);
    await page.context().close();
  }
});

test('phone width (390 px): header and contents take two short rows; the current chapter is in view in the contents', async () => {
  for (const chapter of ['basics', 'trained']) {
    const page = await openPage(env.browser, `${env.url}#chapter=${chapter}`, {
      viewport: { width: 390, height: 844 },
    });
    const layout = await page.evaluate((id) => {
      const current = document.querySelector('#contents a[aria-current="page"]').getBoundingClientRect();
      return {
        heading: document.querySelector(`#chapter-${id} h1`).getBoundingClientRect().top,
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        current: [current.left, current.right],
      };
    }, chapter);
    assert.ok(layout.heading < 300, `${chapter}: the lesson starts ${layout.heading}px down`);
    assert.ok(layout.overflow <= 0, `${chapter}: the page is ${layout.overflow}px too wide`);
    assert.ok(layout.current[0] >= 0 && layout.current[1] <= 390, `${chapter}: current link at ${layout.current}`);
    await page.context().close();
  }
});
