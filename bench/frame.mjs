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
// animation frame starts. Target: 8 ms median (half a 60 Hz frame).
//
// Where the time goes: bench/frame-profile.mjs (CDP sampling profile and trace of
// the same edits). Before the second pass of issue 15 (load average ~8), a seed
// edit's update() was ~9 ms of wasm (GEMM 2.5, randn 3.1, softmax 1.5, input
// checks 1.5), ~3 ms of copies in and out of the wasm heap, ~2.6 ms drawing 14
// heatmaps and ~2.5 ms of the chapter's own loops, and the permalink's
// history.replaceState (2 to 7 ms) ran before the next frame. Since then the
// one-call multi-head check runs after the frame (timed here apart: "one-call
// check after the frame"), the permalink once edits pause, figures off screen are painted when
// they scroll in (--step N measures with the page scrolled to step N), the
// scaled scores are divided in JS, the checks scan rows with one vectorised
// probe, and randn is ~1.4x faster (docs/benchmarks.md, "Chapter frame time"). Third pass:
// the chapter writes its results into matrices kept across edits (options.out,
// web/src/site/workspace.js; a new array's first-touch page faults cost more
// than its copy) and randn takes its logarithms two at a time in SIMD lanes.
//
//   node bench/frame.mjs                  dist/site
//   node bench/frame.mjs --before DIR     DIR (e.g. a copy of dist/site built before a change)
//                                         and dist/site in alternating rounds, with ratios
//   node bench/frame.mjs --step N         the page scrolled to step N (5: the masks, 6: the heads)
import { serve } from '../scripts/serve.mjs';
import { openPage, SITE_DIR, startBrowser } from '../scripts/browser.mjs';

const ROUNDS = 4;
const EDITS = 10; // per round, per site, per kind
const TARGET_MS = 8;
const at = process.argv.indexOf('--before');
const beforeDir = at > 0 ? process.argv[at + 1] : null;
// --step N: the page scrolled to step N first (lazy figures near the viewport are
// the ones an edit repaints; at the top of the chapter that is step 1's).
const stepAt = process.argv.indexOf('--step');
const step = stepAt > 0 ? Number(process.argv[stepAt + 1]) : null;

/** Times `edits` edits of one kind on an open chapter page; returns [{update, toFrame, check, total}]. */
function run(page, kind, first, deferred) {
  return page.evaluate(
    async ({ kind, edits, first, deferred }) => {
      const root = document.querySelector('#chapter-transformer');
      const seed = root.querySelector('input[aria-label="seed"]');
      const causal = root.querySelector('input[aria-label="causal (no looking ahead)"]');
      const out = [];
      for (let i = 0; i < edits; i++) {
        await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
        delete root.dataset.checkMs;
        const t0 = performance.now();
        if (kind === 'seed') {
          seed.value = String(first + i);
          seed.dispatchEvent(new Event('input'));
        } else {
          causal.click();
        }
        await new Promise((ok) => requestAnimationFrame(ok));
        const toFrame = performance.now() - t0;
        // The one-call check of step 6 runs after the frame (afterNextPaint): wait for it
        // (a site built before that change did it inside update(): check 0).
        await new Promise(function wait(ok) {
          if (!deferred || root.dataset.checkMs) ok();
          else setTimeout(() => wait(ok), 0);
        });
        const update = Number(root.dataset.updateMs);
        const check = deferred ? Number(root.dataset.checkMs) : 0;
        out.push({ update, toFrame, check, total: update + check });
      }
      return out;
    },
    { kind, edits: EDITS, first, deferred },
  );
}

const stat = (samples, key) => {
  const xs = samples.map((s) => s[key]).sort((a, b) => a - b);
  return { min: xs[0], median: xs[xs.length >> 1], max: xs[xs.length - 1] };
};
const f = (t) => `${t.median.toFixed(1)} ms median (best ${t.min.toFixed(1)}, worst ${t.max.toFixed(1)})`;
const KINDS = [
  ['seed', 'new seed (steps 1, 2, 4, 5, 6 recomputed)'],
  ['causal', 'causal mask toggled'],
];

const env = await startBrowser();
const before = beforeDir ? await serve({ root: beforeDir }) : null;
try {
  const sites = [{ name: beforeDir ? 'after (dist/site)' : SITE_DIR, url: env.url }];
  if (before) sites.unshift({ name: `before (${beforeDir})`, url: before.url });
  for (const site of sites) {
    site.page = await openPage(env.browser, `${site.url}#chapter=transformer&tn=128&td=64&th=2`);
    if (step) {
      await site.page
        .locator(`#chapter-transformer section.step:nth-of-type(${step})`)
        .evaluate((n) => n.scrollIntoView());
    }
    await site.page.waitForTimeout(300); // the first one-call check, if the site defers it
    site.deferred = await site.page.evaluate(() => 'checkMs' in document.querySelector('#chapter-transformer').dataset);
    site.samples = { seed: [], causal: [] };
  }
  // Rounds alternate between the sites so a change of machine load hits both.
  for (let round = 0; round < ROUNDS; round++) {
    for (const site of sites) {
      for (const [kind] of KINDS)
        site.samples[kind].push(...(await run(site.page, kind, 1000 + round * EDITS, site.deferred)));
    }
  }
  console.log(
    `\nChapter frame time, headless Chromium, n = 128, d_model = 64, 2 heads, ${ROUNDS * EDITS} edits each` +
      `, page ${step ? `scrolled to step ${step}` : 'at the top of the chapter'}` +
      `${before ? `, ${ROUNDS} alternating rounds` : ''}:`,
  );
  for (const site of sites) {
    if (before) console.log(`  ${site.name}:`);
    for (const [kind, what] of KINDS) {
      const u = stat(site.samples[kind], 'update');
      console.log(
        `  ${what}: recompute + repaint ${f(u)} -> ${u.median <= TARGET_MS ? 'within' : 'OVER'} ${TARGET_MS} ms`,
      );
      console.log(
        `  ${' '.repeat(what.length)}  edit -> next animation frame ${f(stat(site.samples[kind], 'toFrame'))}`,
      );
      if (site.deferred) {
        console.log(
          `  ${' '.repeat(what.length)}  + one-call check after the frame ${f(stat(site.samples[kind], 'check'))}`,
        );
        console.log(`  ${' '.repeat(what.length)}  = all the edit's work ${f(stat(site.samples[kind], 'total'))}`);
      }
    }
  }
  if (before) {
    const [b, a] = sites;
    for (const [kind, what] of KINDS) {
      const ratio = (key) => (stat(b.samples[kind], key).median / stat(a.samples[kind], key).median).toFixed(2);
      console.log(
        `  ${what}: before / after ${ratio('update')}x (recompute + repaint), ${ratio('toFrame')}x (to next frame), ` +
          `${ratio('total')}x (all the edit's work, the check included)`,
      );
    }
  }
  for (const site of sites) {
    if (site.page.errors.length) throw new Error(site.page.errors.join('\n'));
    await site.page.context().close();
  }
} finally {
  await env.close();
  if (before) await new Promise((ok) => before.server.close(ok));
}
