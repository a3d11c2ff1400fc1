// Debian's chromium driven by playwright-core, and the built site served on
// 127.0.0.1: what the browser tests, the formula prerender, the benchmarks and
// the screenshot script share. Console errors are recorded on each page.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

export const SITE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'site');
export const FILE_URL = pathToFileURL(join(SITE_DIR, 'index.html')).href;

/**
 * The window pages open in unless a caller sets one. ATTENTION_LAB_WINDOW_HEIGHT changes its
 * height (`npm run test:stress` draws one at random), so that no test relies on where the fold is.
 */
export const DEFAULT_VIEWPORT = Object.freeze({
  width: 1200,
  height: Number(process.env.ATTENTION_LAB_WINDOW_HEIGHT) || 900,
});

/**
 * How long any wait on a page gives up after: a guard against a hang, never a measure of speed.
 * Tests wait on signals from the page (attributes, events) and a loaded machine only makes them
 * slower, so the guard is far above any time a wait takes.
 */
export const HANG_GUARD_MS = 5 * 60_000;

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
 * Opens `url` in a fresh page and records console errors and page errors in
 * `page.errors`. Waits until the app says it is ready. The site asks a question
 * before each step's results (predict.js) unless the reader turned that off;
 * pages opened here have it off unless `predict: true`, so tests see every result.
 */
export async function openPage(
  browser,
  url,
  { viewport = DEFAULT_VIEWPORT, deviceScaleFactor = 1, waitForReady = true, predict = false } = {},
) {
  const context = await browser.newContext({ viewport, deviceScaleFactor });
  context.setDefaultTimeout(HANG_GUARD_MS);
  if (!predict)
    await context.addInitScript(() => {
      try {
        localStorage.setItem('attention-lab.predict', 'off');
      } catch {
        // file:// or a sandboxed frame without storage: the site then asks; such tests pass predict
      }
    });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') page.errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => page.errors.push(`pageerror: ${error.message}`));
  page.on('requestfailed', (request) => page.errors.push(`requestfailed: ${request.url()}`));
  await page.goto(url);
  if (waitForReady) await page.waitForSelector('html[data-ready="true"]');
  return page;
}
