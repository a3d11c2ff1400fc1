// Every chapter on a phone (390 × 844 CSS px, the width of an iPhone 12–15): the page never
// scrolls sideways, no label in a figure is drawn under 11 px, a step jumped to (a link's hash,
// or Next in step-through mode) has its heading below the sticky toolbar, and heatmaps say when
// their numbers do not fit. Also the contrast of SVG labels, which axe-core does not measure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chapterMetas } from '../../scripts/chapters.mjs';
import { openPage, useBrowser } from './harness.mjs';
import { svgTextContrasts } from './svg-contrast.mjs';

const CHAPTERS = await chapterMetas(); // chapters/*/meta.js, in order

const env = useBrowser();
const PHONE = { width: 390, height: 844 };
const MIN_TEXT_PX = 11;

/** What each chapter sets on its article once it shows its numbers (the others show them at once). */
const LOADED = {
  glove: '[data-loaded="true"]',
  nmt: '[data-nmt-ready="true"]',
  trained: '[data-trained-ready="true"]',
};

async function openChapter(id, hash = '') {
  const page = await openPage(env.browser, `${env.url}#chapter=${id}${hash}`, { viewport: PHONE });
  await page.locator(`article[data-chapter="${id}"]${LOADED[id] ?? ''}`).waitFor();
  return page;
}

/** Resolves after the page has laid out and painted twice (a scroll and its layout have settled). */
const twoFrames = (page) =>
  page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));

/**
 * The size every figure label is drawn at, in CSS px. A label is an element inside a <figure>
 * with text of its own (a non-blank text node child), rendered (it has a box). Its size is its
 * computed font-size, and for SVG text that times the scale from the SVG's user units to the
 * screen (getScreenCTM(), which includes the viewBox's scaling to the figure's width): an SVG
 * 560 units wide shown 280 px wide draws its 12 px text at 6 px. Canvas text (the heatmaps)
 * has no computed size; heatmap.js draws it at 11 or 12 px and says when a number does not fit.
 * Formulas (KaTeX) are not labels: their scripts are sized relative to the text, as in print.
 */
function labelSizes(page) {
  return page.evaluate(() => {
    const found = [];
    for (const figure of document.querySelectorAll('article figure')) {
      for (const node of figure.querySelectorAll('*')) {
        if (node.closest('.katex, .katex-display, script, style, title, desc')) continue;
        const own = [...node.childNodes].some((c) => c.nodeType === Node.TEXT_NODE && c.textContent.trim());
        if (!own || node.getClientRects().length === 0) continue;
        let size = parseFloat(getComputedStyle(node).fontSize);
        if (node instanceof SVGGraphicsElement) {
          const m = node.getScreenCTM();
          if (m) size *= Math.hypot(m.a, m.b);
        }
        found.push({
          size: Math.round(size * 100) / 100,
          text: node.textContent.trim().slice(0, 30),
          tag: node.tagName,
        });
      }
    }
    return found;
  });
}

for (const { id } of CHAPTERS) {
  test(`phone 390 px, ${id}: no sideways scroll, figure labels >= ${MIN_TEXT_PX} px, steps clear the toolbar`, async () => {
    const page = await openChapter(id);
    try {
      // No horizontal overflow of the page (wide figures scroll inside their own boxes).
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      assert.ok(scrollWidth <= clientWidth, `page is ${scrollWidth} px wide in a ${clientWidth} px window`);

      // Figures painted where they are lazy: every part of the page scrolled through once.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0; y < height; y += PHONE.height) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        await twoFrames(page);
      }
      const labels = await labelSizes(page);
      assert.ok(labels.length > 0, 'the chapter has figure labels to measure');
      const small = labels.filter((l) => l.size < MIN_TEXT_PX);
      assert.deepEqual(small, [], `${small.length} of ${labels.length} figure labels under ${MIN_TEXT_PX} px`);

      // A hash jump to a middle step: its heading stops just below the toolbar, not under it.
      const steps = await page.locator('section.step').count();
      const middle = Math.max(2, Math.ceil(steps / 2));
      await page.evaluate(([chapter, step]) => (location.hash = `#chapter=${chapter}&step=${step}`), [id, middle]);
      await twoFrames(page);
      const jump = await page.evaluate((step) => {
        const heading = document.querySelector(`section.step[data-step="${step}"] :is(h2, h3)`);
        return {
          heading: heading.getBoundingClientRect().top,
          toolbar: document.querySelector('.step-toolbar').getBoundingClientRect().bottom,
        };
      }, middle);
      assert.ok(
        jump.heading >= jump.toolbar,
        `step ${middle}'s heading at ${jump.heading} px, under the toolbar (to ${jump.toolbar} px)`,
      );
      assert.ok(
        jump.heading < jump.toolbar + 48,
        `step ${middle}'s heading at ${jump.heading} px: the jump scrolled to it`,
      );
      assert.deepEqual(page.errors, []);
    } finally {
      await page.context().close();
    }
  });
}

test('phone 390 px: step-through Next scrolls each step heading below the wrapped toolbar', async () => {
  const page = await openChapter('transformer', '&mode=steps&step=1');
  try {
    const toolbarHeight = await page.locator('.step-toolbar').evaluate((bar) => bar.getBoundingClientRect().height);
    // At 390 px the toolbar wraps to two rows: a fixed 4.5rem margin (72 px) was too small.
    assert.ok(toolbarHeight > 72, `toolbar ${toolbarHeight} px high`);
    for (let step = 2; step <= 4; step++) {
      await page.getByRole('button', { name: 'next step' }).click();
      await page.locator(`section.step[data-step="${step}"]:not([hidden])`).waitFor();
      await twoFrames(page);
      const { heading, toolbar } = await page.evaluate((n) => {
        const h = document.querySelector(`section.step[data-step="${n}"] :is(h2, h3)`);
        return {
          heading: h.getBoundingClientRect().top,
          toolbar: document.querySelector('.step-toolbar').getBoundingClientRect().bottom,
        };
      }, step);
      assert.ok(heading >= toolbar, `step ${step}: heading at ${heading} px, toolbar to ${toolbar} px`);
    }
  } finally {
    await page.context().close();
  }
});

test('heatmaps whose numbers do not fit a phone say how many are not shown; at 1280 px all are shown', async () => {
  const notes = async (viewport) => {
    const page = await openPage(env.browser, `${env.url}#chapter=bahdanau`, { viewport });
    try {
      await page.locator('article[data-chapter="bahdanau"]').waitFor();
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0; y < height; y += viewport.height) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        await twoFrames(page);
      }
      return await page.$$eval('.heatmap-fit-note:not([hidden])', (ps) => ps.map((p) => p.textContent));
    } finally {
      await page.context().close();
    }
  };
  const phone = await notes(PHONE);
  assert.ok(phone.length > 0, 'some heatmap drops its numbers at 390 px');
  for (const text of phone) assert.match(text, /^(\d+) of (\d+) numbers are not shown: the cells are too narrow/);
  assert.deepEqual(await notes({ width: 1280, height: 900 }), []);
});

for (const scheme of ['light', 'dark']) {
  test(`SVG labels in every chapter's figures have contrast >= 4.5:1 on what they are drawn on (${scheme})`, async () => {
    const low = {};
    let measured = 0;
    for (const { id } of CHAPTERS) {
      const page = await openChapter(id);
      try {
        await page.emulateMedia({ colorScheme: scheme });
        const labels = await svgTextContrasts(page);
        measured += labels.length;
        const failing = labels.filter((l) => l.ratio < 4.5);
        if (failing.length) low[id] = failing;
      } finally {
        await page.context().close();
      }
    }
    assert.ok(measured > 100, `${measured} SVG labels measured`);
    assert.deepEqual(low, {});
  });
}
