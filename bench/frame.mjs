// Part of `npm run bench`: the Transformer chapter at sequence length 128 and
// d_model 64 (2 heads) in headless Chromium. Two kinds of edit:
//   seed   a new seed regenerates the embeddings and the four weight matrices:
//          steps 1, 2, 4, 5 and 6 (every n x n and n x d_model matrix) are
//          recomputed through the wasm API and repainted (the sqrt(d_k) demo and
//          the three-uses example have their own seeds);
//   causal toggling the causal mask recomputes and repaints what depends on the
//          mask (masked attention, every head, the multi-head output).
// We time the chapter's update() (recompute + canvas drawing, as the page
// records it in data-update-ms) and the time from the edit until the next
// animation frame starts. Budget: one frame, 16.7 ms.
import { openPage, startBrowser } from '../tests/browser/harness.mjs';

const EDITS = 30;
const env = await startBrowser();
try {
  const page = await openPage(env.browser, `${env.url}#chapter=transformer&tn=128&td=64&th=2`);
  const run = (kind) =>
    page.evaluate(
      async ({ kind, edits }) => {
        const root = document.querySelector('#chapter-transformer');
        const seed = root.querySelector('input[aria-label="seed"]');
        const causal = root.querySelector('input[aria-label="causal (no looking ahead)"]');
        const out = [];
        for (let i = 0; i < edits; i++) {
          await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
          const t0 = performance.now();
          if (kind === 'seed') {
            seed.value = String(1000 + i);
            seed.dispatchEvent(new Event('input'));
          } else {
            causal.click();
          }
          await new Promise((ok) => requestAnimationFrame(ok));
          out.push({ update: Number(root.dataset.updateMs), toFrame: performance.now() - t0 });
        }
        return out;
      },
      { kind, edits: EDITS },
    );
  const stat = (samples, key) => {
    const xs = samples.map((s) => s[key]).sort((a, b) => a - b);
    return { min: xs[0], median: xs[xs.length >> 1], max: xs[xs.length - 1] };
  };
  const f = (t) => `${t.median.toFixed(1)} ms median (best ${t.min.toFixed(1)}, worst ${t.max.toFixed(1)})`;
  console.log(`\nChapter frame time, headless Chromium, n = 128, d_model = 64, 2 heads, ${EDITS} edits each:`);
  for (const [kind, what] of [
    ['seed', 'new seed (steps 1, 2, 4, 5, 6 recomputed)'],
    ['causal', 'causal mask toggled'],
  ]) {
    const samples = await run(kind);
    const u = stat(samples, 'update');
    console.log(`  ${what}: recompute + repaint ${f(u)} -> ${u.median <= 16.7 ? 'within' : 'OVER'} one 16.7 ms frame`);
    console.log(`  ${' '.repeat(what.length)}  edit -> next animation frame ${f(stat(samples, 'toFrame'))}`);
  }
  if (page.errors.length) throw new Error(page.errors.join('\n'));
  await page.context().close();
} finally {
  await env.close();
}
