// Regenerates docs/screenshot.png (the README's picture) from the built site.
// Usage: node scripts/screenshot.mjs [hash]   e.g. '#chapter=basics'
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPage, startBrowser } from './browser.mjs';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'screenshot.png');
const { browser, url, close } = await startBrowser();
try {
  const page = await openPage(browser, url + (process.argv[2] ?? '#chapter=basics'), {
    viewport: { width: 1280, height: 860 },
  });
  const step = page.locator('section.step').nth(Number(process.argv[3] ?? 5));
  await step.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, -60));
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await close();
}
