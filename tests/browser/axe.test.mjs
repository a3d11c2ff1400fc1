// Accessibility: axe-core (its WCAG 2 A/AA rules and best practices) finds no violation in any
// chapter, light or dark, at the default width and on a phone (390 × 844), once the chapter has
// loaded what it shows (models, vectors).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { chapterMetas } from '../../scripts/chapters.mjs';
import { DEFAULT_VIEWPORT, openPage, useBrowser } from './harness.mjs';

const CHAPTERS = await chapterMetas(); // chapters/*/meta.js, in order

const env = useBrowser();
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What each chapter sets on its article once it shows its numbers (the others show them at once). */
const LOADED = {
  glove: '[data-loaded="true"]',
  nmt: '[data-nmt-ready="true"]',
  trained: '[data-trained-ready="true"]',
  model: '[data-model-explained="true"]',
};

const WINDOWS = [
  ['', DEFAULT_VIEWPORT],
  [', 390 px', { width: 390, height: 844 }],
];

for (const [width, viewport] of WINDOWS) {
  for (const scheme of ['light', 'dark']) {
    test(`axe-core: no violation in any chapter (${scheme}${width})`, async () => {
      const found = {};
      for (const { id } of CHAPTERS) {
        const page = await openPage(env.browser, `${env.url}#chapter=${id}`, { viewport });
        await page.emulateMedia({ colorScheme: scheme });
        await page.locator(`article[data-chapter="${id}"]${LOADED[id] ?? ''}`).waitFor();
        // Two frames: the shell's once-a-frame passes (scroll-focus.js) have seen the loaded chapter.
        await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
        await page.addScriptTag({ content: AXE });
        const violations = await page.evaluate(async () => {
          const result = await globalThis.axe.run(document, { resultTypes: ['violations'] });
          return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        });
        if (violations.length) found[id] = violations;
        await page.context().close();
      }
      assert.deepEqual(found, {});
    });
  }
}
