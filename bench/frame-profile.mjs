// Where the Transformer chapter's frame time goes (issue 15): the same edits as
// bench/frame.mjs (n = 128, d_model = 64, 2 heads), under Chromium's sampling
// profiler (CDP Profiler, 50 µs) and tracing (style, layout, paint). Prints the
// self time per part of the page per edit, e.g. the wasm calls, the heatmap
// drawing, NumPy text, DOM writes, style and layout.
//
//   node bench/frame-profile.mjs [--edits N] [--site DIR]
//
// Function names come from the site as built: minified, and wasm functions
// without names. To read them, build a copy of the site with esbuild's minify
// off and the wasm linked with --profiling-funcs, and pass it with --site DIR.
import { serve } from '../scripts/serve.mjs';
import { openPage, startBrowser } from '../scripts/browser.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const EDITS = Number(arg('--edits', 60));
const siteDir = arg('--site', null);

/** Runs `edits` edits of one kind (as bench/frame.mjs does), each followed by a frame. */
const edit = (page, kind, edits, first) =>
  page.evaluate(
    async ({ kind, edits, first }) => {
      const root = document.querySelector('#chapter-transformer');
      const seed = root.querySelector('input[aria-label="seed"]');
      const causal = root.querySelector('input[aria-label="causal (no looking ahead)"]');
      const times = [];
      for (let i = 0; i < edits; i++) {
        await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
        if (kind === 'seed') {
          seed.value = String(first + i);
          seed.dispatchEvent(new Event('input'));
        } else causal.click();
        times.push(Number(root.dataset.updateMs));
        await new Promise((ok) => requestAnimationFrame(ok));
      }
      times.sort((a, b) => a - b);
      return times[times.length >> 1];
    },
    { kind, edits, first },
  );

/** Self time (ms) per profile node, summed by a key made from its call frame. */
function selfTimes(profile, keyOf) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    const ms = (dt[i + 1] ?? 0) / 1000;
    const key = keyOf(node.callFrame);
    totals.set(key, (totals.get(key) ?? 0) + ms);
  }
  return totals;
}

const scriptOf = (url) => (url ? url.replace(/^.*\//, '').replace(/\?.*$/, '') : '');
const byFunction = ({ functionName, url, lineNumber }) =>
  `${functionName || '(anonymous)'}${url ? ` [${scriptOf(url)}:${lineNumber + 1}]` : ''}`;

const env = await startBrowser();
const other = siteDir ? await serve({ root: siteDir }) : null;
try {
  const page = await openPage(env.browser, `${(other ?? env).url}#chapter=transformer&tn=128&td=64&th=2`);
  const cdp = await page.context().newCDPSession(page);
  await edit(page, 'seed', 20, 5000); // warm up (JIT, wasm tiers)
  await edit(page, 'causal', 20, 0);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  for (const kind of ['seed', 'causal']) {
    await cdp.send('Profiler.start');
    const median = await edit(page, kind, EDITS, 1000);
    const { profile } = await cdp.send('Profiler.stop');
    const totals = [...selfTimes(profile, byFunction)]
      .filter(([key]) => key !== '(idle)')
      .map(([key, ms]) => [key, ms / EDITS])
      .sort((a, b) => b[1] - a[1]);
    const busy = totals.reduce((s, [, ms]) => s + ms, 0);
    console.log(
      `\n${kind}: update() median ${median.toFixed(2)} ms; busy per edit ${busy.toFixed(2)} ms, top self times:`,
    );
    for (const [key, ms] of totals.slice(0, 40)) console.log(`  ${ms.toFixed(3).padStart(7)} ms  ${key}`);
    // Who calls the functions named with --callers (a substring), by self time.
    const callersOf = arg('--callers', null);
    if (callersOf) {
      const parent = new Map();
      for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n);
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const sums = new Map();
      profile.samples.forEach((id, i) => {
        const node = byId.get(id);
        if (!node.callFrame.functionName.includes(callersOf)) return;
        const chain = [];
        for (let p = parent.get(id); p && chain.length < 4; p = parent.get(p.id))
          chain.push(p.callFrame.functionName.slice(0, 50) || '(anonymous)');
        const key = chain.join(' < ');
        sums.set(key, (sums.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000 / EDITS);
      });
      console.log(`  callers of ${callersOf}:`);
      for (const [key, ms] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, 8))
        console.log(`    ${ms.toFixed(3)} ms  ${key}`);
    }
  }
  // Style, layout and paint of an edit: trace events summed per edit.
  for (const kind of ['seed', 'causal']) {
    const events = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
    const done = new Promise((ok) => cdp.once('Tracing.tracingComplete', ok));
    await cdp.send('Tracing.start', {
      categories: 'devtools.timeline,disabled-by-default-devtools.timeline',
      transferMode: 'ReportEvents',
    });
    await edit(page, kind, EDITS, 2000);
    await cdp.send('Tracing.end');
    await done;
    const sums = new Map();
    for (const e of events) {
      if (e.ph !== 'X' || !e.dur) continue;
      sums.set(e.name, (sums.get(e.name) ?? 0) + e.dur / 1000);
    }
    const wanted = [
      'FunctionCall',
      'UpdateLayoutTree',
      'Layout',
      'Paint',
      'PrePaint',
      'Layerize',
      'UpdateLayer',
      'ParseHTML',
      'HitTest',
      'TimerFire',
      'FireAnimationFrame',
      'EventDispatch',
      'GPUTask',
      'CompositeLayers',
      'MajorGC',
      'MinorGC',
      'V8.GC_SCAVENGER',
    ];
    console.log(`\n${kind}: trace, ms per edit`);
    for (const [name, ms] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
      if (wanted.includes(name) || ms / EDITS > 0.05)
        console.log(`  ${(ms / EDITS).toFixed(3).padStart(7)} ms  ${name}`);
    }
  }
  if (page.errors.length) throw new Error(page.errors.join('\n'));
} finally {
  await env.close();
  if (other) await new Promise((ok) => other.server.close(ok));
}
