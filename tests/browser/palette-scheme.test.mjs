// Heatmap palettes follow the colour scheme (issue 35): on a light page the
// smallest weight is the lightest cell, on a dark page the darkest (it blends
// into the background) and the largest the brightest; the colour bar runs the
// same way as the cells in both. Read from the Basics chapter's weights, whose
// largest and smallest values come from its values table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tableValues, useBrowser } from './harness.mjs';
import { DEFAULT_VIEWPORT } from '../../scripts/browser.mjs';

const env = useBrowser();

/** Relative luminance of an sRGB pixel [r, g, b] (0..255). */
const luminance = ([r, g, b]) => {
  const lin = (c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
};

/** The pixel at CSS position (x, y) of the canvas (device pixels read through its size ratio). */
const pixelAt = (canvas, x, y) =>
  canvas.evaluate(
    (node, [cx, cy]) => {
      const k = node.width / parseFloat(node.style.width);
      return Array.from(node.getContext('2d').getImageData(Math.round(cx * k), Math.round(cy * k), 1, 1).data);
    },
    [x, y],
  );

for (const scheme of ['light', 'dark']) {
  test(`${scheme}: the weights’ smallest cell is ${scheme === 'dark' ? 'darkest' : 'lightest'}, and the colour bar agrees`, async () => {
    const context = await env.browser.newContext({ viewport: DEFAULT_VIEWPORT, colorScheme: scheme });
    await context.addInitScript(() => localStorage.setItem('attention-lab.predict', 'off')); // results shown
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${env.url}#chapter=basics`);
    await page.waitForSelector('html[data-ready="true"]');
    const figure = page.locator('#chapter-basics figure.heatmap').filter({
      has: page.locator('canvas[aria-label^="attention weights α"]'),
    });
    const canvas = figure.locator('canvas.heatmap-canvas');
    await canvas.scrollIntoViewIfNeeded();
    await page.waitForFunction(
      () =>
        document.querySelector('#chapter-basics canvas[aria-label^="attention weights α"]')?.dataset.painted === 'true',
    );
    const values = (await tableValues(figure)).map(Number);
    assert.equal(values.length, 4, 'four weights');
    const cols = await figure.locator('table tbody tr').first().locator('td').count();
    const [left, top, w, h] = (await canvas.getAttribute('data-cells')).split(',').map(Number);
    // Near a cell's corner, clear of its number.
    const centre = (k) => [left + (k % cols) * w + 4, top + Math.floor(k / cols) * h + 4];
    const hi = values.indexOf(Math.max(...values));
    const lo = values.indexOf(Math.min(...values));
    const [bright, faint] = [
      luminance(await pixelAt(canvas, ...centre(hi))),
      luminance(await pixelAt(canvas, ...centre(lo))),
    ];
    // The bar beside the grid: its top is the largest value, its bottom the smallest.
    const rows = values.length / cols;
    const barX = left + cols * w + 14 + 3;
    const barBottom = top + Math.max(rows * h, 110) - 2;
    const [barTop, barLow] = [
      luminance(await pixelAt(canvas, barX, top + 1)),
      luminance(await pixelAt(canvas, barX, barBottom)),
    ];
    if (scheme === 'dark') {
      assert.ok(faint < 0.05, `the smallest weight blends into the dark page: luminance ${faint}`);
      assert.ok(bright > faint + 0.15, `the largest weight is bright: ${bright} vs ${faint}`);
      assert.ok(barTop > barLow + 0.15, `the bar runs dark to bright upwards: ${barLow} → ${barTop}`);
    } else {
      assert.ok(faint > 0.7, `the smallest weight is light on a light page: luminance ${faint}`);
      assert.ok(bright < faint - 0.3, `the largest weight is dark: ${bright} vs ${faint}`);
      assert.ok(barTop < barLow - 0.3, `the bar runs light to dark upwards: ${barLow} → ${barTop}`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}
