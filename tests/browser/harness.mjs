// Shared set-up for the browser tests: the launcher (scripts/browser.mjs) and
// what only tests need — one browser per test file, pixel and table readers.
import { after, before } from 'node:test';
import { HANG_GUARD_MS, openPage, startBrowser } from '../../scripts/browser.mjs';

export { DEFAULT_VIEWPORT, FILE_URL, HANG_GUARD_MS, openPage, SITE_DIR, startBrowser } from '../../scripts/browser.mjs';

/**
 * Resolves once `condition()` (checked in Node, e.g. across a page and its iframe, where no one
 * page function can see both) is true; checks again on each animation-frame-sized tick.
 * Gives up only after HANG_GUARD_MS, with `describe()` in the message.
 */
export async function waitUntil(condition, describe = () => 'condition') {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > HANG_GUARD_MS) throw new Error(`gave up waiting for ${await describe()}`);
    await new Promise((ok) => setTimeout(ok, 16));
  }
}

/** What each chapter's root says once its figures hold numbers (default: it exists). */
const CHAPTER_READY = {
  glove: (root) => root?.dataset.loaded === 'true',
  nmt: (root) => root?.dataset.nmtReady === 'true' && Boolean(root.dataset.nmtOutput),
  trained: (root) =>
    root?.dataset.trainedReady === 'true' && Boolean(root.dataset.trainedOutput) && root.dataset.trainedRnn === 'true',
};

/** Opens chapter `id` on the site of `env` (useBrowser) and waits until its figures hold numbers. */
export async function openChapter(env, id, options = {}) {
  const page = await openPage(env.browser, `${env.url}#chapter=${id}`, options);
  const ready = CHAPTER_READY[id] ?? ((root) => Boolean(root));
  await page.waitForFunction(
    ([sel, fn]) => new Function(`return (${fn})`)()(document.querySelector(sel)),
    [`#chapter-${id}`, ready.toString()],
  );
  return page;
}

/** Resolves when every worker in `workers` (playwright Workers) has closed. */
export function workersClosed(workers) {
  return Promise.all([...workers].map((worker) => new Promise((ok) => worker.on('close', ok))));
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
