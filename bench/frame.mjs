// Part of `npm run bench`: the Transformer chapter at sequence length 128 and
// d_model 64 in headless Chromium. Each edit (a new seed) recomputes every step
// through the wasm API and repaints every figure; we time the chapter's
// update() (recompute + canvas drawing, as the page records it in
// data-update-ms) and the time from the edit until the next animation frame
// starts. Budget: one frame, 16.7 ms.
import { openPage, startBrowser } from '../tests/browser/harness.mjs';

const EDITS = 30;
const env = await startBrowser();
try {
  const page = await openPage(env.browser, `${env.url}#chapter=transformer&tn=128&td=64&th=2`);
  const samples = await page.evaluate(async (edits) => {
    const root = document.querySelector('#chapter-transformer');
    const seed = root.querySelector('input[aria-label="seed"]');
    const out = [];
    for (let i = 0; i < edits; i++) {
      await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      const t0 = performance.now();
      seed.value = String(1000 + i);
      seed.dispatchEvent(new Event('input'));
      const handler = performance.now() - t0;
      await new Promise((ok) => requestAnimationFrame(ok));
      out.push({ update: Number(root.dataset.updateMs), handler, toFrame: performance.now() - t0 });
    }
    return out;
  }, EDITS);
  if (page.errors.length) throw new Error(page.errors.join('\n'));
  const stat = (key) => {
    const xs = samples.map((s) => s[key]).sort((a, b) => a - b);
    return { min: xs[0], median: xs[xs.length >> 1], max: xs[xs.length - 1] };
  };
  const f = (t) => `${t.median.toFixed(1)} ms median (best ${t.min.toFixed(1)}, worst ${t.max.toFixed(1)})`;
  const u = stat('update');
  console.log(`\nChapter frame time, headless Chromium, n = 128, d_model = 64, 2 heads, ${EDITS} edits of the seed:`);
  console.log(`  recompute + repaint (update()): ${f(u)} -> ${u.median <= 16.7 ? 'within' : 'OVER'} one 16.7 ms frame`);
  console.log(`  edit -> next animation frame:   ${f(stat('toFrame'))}`);
  await page.context().close();
} finally {
  await env.close();
}
