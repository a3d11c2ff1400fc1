// Shared set-up for the browser tests: Debian's chromium driven by
// playwright-core, the built site served on 127.0.0.1, console errors recorded.
import { after, before } from 'node:test';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

export const SITE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'site');
export const FILE_URL = pathToFileURL(join(SITE_DIR, 'index.html')).href;

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches the browser and the static server; call `close()` when done. */
export async function startBrowser({ headers } = {}) {
  if (!existsSync(join(SITE_DIR, 'index.html'))) throw new Error('dist/site is missing: run `npm run build` first');
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/setup.sh (apt package chromium)`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  const { server, url } = await serve({ root: SITE_DIR, headers });
  return {
    browser,
    url,
    async close() {
      await browser.close();
      await new Promise((ok) => server.close(ok));
    },
  };
}

/**
 * Starts Chromium and the site's server before a test file's tests and closes
 * both after them: `const env = useBrowser();`, then `env.browser` and `env.url`.
 */
export function useBrowser(options) {
  const env = {};
  before(async () => Object.assign(env, await startBrowser(options)));
  after(async () => env.close?.());
  return env;
}

/**
 * Opens `url` in a fresh page and records console errors and page errors in
 * `page.errors`. Waits until the app says it is ready.
 */
export async function openPage(
  browser,
  url,
  { viewport = { width: 1200, height: 900 }, deviceScaleFactor = 1, waitForReady = true } = {},
) {
  const context = await browser.newContext({ viewport, deviceScaleFactor });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') page.errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => page.errors.push(`pageerror: ${error.message}`));
  page.on('requestfailed', (request) => page.errors.push(`requestfailed: ${request.url()}`));
  await page.goto(url);
  if (waitForReady) await page.waitForSelector('html[data-ready="true"]', { timeout: 20000 });
  return page;
}

/** Counts pixels that differ from the canvas's top-left background, per canvas. */
export function paintedPixels(page, selector) {
  return page.$$eval(selector, (canvases) =>
    canvases.map((canvas) => {
      const ctx = canvas.getContext('2d');
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4)
        if (data[i + 3] > 0 && (data[i] < 250 || data[i + 1] < 250 || data[i + 2] < 250)) count++;
      return count;
    }),
  );
}

/** A cheap fingerprint of a canvas's pixels, to see that it was repainted differently. */
export function canvasHash(page, selector) {
  return page.$eval(selector, (canvas) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let h = 2166136261;
    for (let i = 0; i < data.length; i++) h = Math.imul(h ^ data[i], 16777619);
    return `${canvas.width}x${canvas.height}:${h >>> 0}`;
  });
}

/**
 * The cell texts of a heatmap's values table, opening it first as a reader
 * would (its menu button, then "Show the values as a table").
 * `figure` is a playwright Locator of the heatmap's <figure>.
 */
export async function tableValues(figure) {
  const details = figure.locator('details.heatmap-values');
  if (!(await details.evaluate((d) => d.open))) {
    await figure.locator('.heatmap-menu-button').click();
    await figure.getByRole('menuitem', { name: 'Show the values as a table' }).click();
  }
  await figure.locator('table td').first().waitFor();
  return figure.locator('table td').allTextContents();
}

/**
 * Checks formula symbols linked to figures (formula-links.js): for each
 * [name, label], the first `.sym-<name>` under `scope` is coloured by a palette
 * class, and a pointer over it lights exactly one heatmap, whose ARIA label
 * matches `label`.
 */
export async function assertFormulaLinks(page, scope, pairs) {
  for (const [name, label] of pairs) {
    const node = page.locator(`${scope} .formula .sym-${name}`).first();
    const coloured = await node.evaluate((n) => [...n.classList].some((c) => c.startsWith('sym-pal-')));
    if (!coloured) throw new Error(`formula symbol ${name} is not coloured like its figure`);
    await node.dispatchEvent('mouseover');
    const lit = await page
      .locator(`${scope} figure.heatmap.linked canvas`)
      .evaluateAll((cs) => cs.map((c) => c.getAttribute('aria-label')));
    if (lit.length !== 1 || !label.test(lit[0])) {
      throw new Error(`formula symbol ${name} lit [${lit.join('; ')}], expected one figure matching ${label}`);
    }
    await node.dispatchEvent('mouseout');
  }
}
