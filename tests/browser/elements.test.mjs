// The custom elements on a host page, as a course author uses them: dist/ served
// whole (the package layout: the elements load ../classic/ and ../site/chapters/). Isolation both ways
// (shadow DOM), display and colours on a light page with the OS in dark mode,
// per-instance state, workers ended on removal, one wasm instance, and
// <attention-heatmap> attribute values that used to crash (issue 14, item 10).
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openPage, SITE_DIR, startBrowser, tableValues, workersClosed } from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';

let env;
let hostDir;
let host;
before(async () => {
  env = await startBrowser();
  hostDir = mkdtempSync(join(tmpdir(), 'attention-lab-elements-'));
  for (const dir of ['lib', 'elements', 'classic', 'site'])
    cpSync(join(SITE_DIR, '..', dir), join(hostDir, 'dist', dir), { recursive: true });
  host = await serve({ root: hostDir });
});
after(async () => {
  await env?.close();
  if (host) await new Promise((ok) => host.server.close(ok));
  rmSync(hostDir, { recursive: true, force: true });
});

/** Writes a host page (module script: the installed elements) and opens it. */
async function hostPage(name, body, { colorScheme = 'light', head = '' } = {}) {
  writeFileSync(
    join(hostDir, `${name}.html`),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">${head}
<script type="module" src="dist/elements/attention-lab-elements.js"></script>
${body}`,
  );
  const page = await openPage(env.browser, `${host.url}${name}.html`, { waitForReady: false });
  await page.emulateMedia({ colorScheme });
  return page;
}

const lessonText = (page, nth) => page.locator('attention-lesson').nth(nth).locator('article').textContent();
const decoderEntry = (page, nth, i) =>
  page
    .locator('attention-lesson')
    .nth(nth)
    .getByRole('textbox', { name: `decoder hidden state h, entry ${i}`, exact: true });

test('two lessons on one page keep their own state; host CSS and lesson CSS stay apart', async () => {
  const page = await hostPage(
    'two',
    `<style>
  body { background: #fff; color: #111; font-size: 16px; }
  pre { color: lime !important; }
  .attention-lab, .output { color: red !important; }
</style>
<h1>Course page</h1>
<p>Host formula: <span class="katex" id="host-katex">x</span> and <span class="formula" id="host-formula">f</span></p>
<attention-lesson chapter="basics"></attention-lesson>
<attention-lesson chapter="basics"></attention-lesson>`,
    { colorScheme: 'dark' },
  );
  await page.locator('attention-lesson article[data-chapter="basics"]').nth(1).waitFor();
  const notebook = /array\(\[927\., 397\., 148\., 929\.\]\)/;
  assert.match(await lessonText(page, 0), notebook);
  assert.match(await lessonText(page, 1), notebook);

  // An edit in the first lesson changes only the first.
  await decoderEntry(page, 0, 1).fill('6');
  assert.match(await lessonText(page, 0), /array\(\[930\., 456\., 149\., 933\.\]\)/);
  assert.match(await lessonText(page, 1), notebook, 'the second lesson kept its own inputs');
  assert.equal(await decoderEntry(page, 1, 1).inputValue(), '5');
  // Re-rendered (moved in the page) and newly added lessons start from their own state too.
  await page.evaluate(() => {
    const [, second] = document.querySelectorAll('attention-lesson');
    document.body.append(second, document.createElement('attention-lesson'));
  });
  await page.locator('attention-lesson article[data-chapter="basics"]').nth(2).waitFor();
  assert.match(await lessonText(page, 1), notebook, 'the moved lesson kept its own inputs');
  assert.match(await lessonText(page, 2), notebook, 'a new lesson starts from the defaults');
  await page.evaluate(() => document.querySelectorAll('attention-lesson')[2].remove());
  assert.equal(await page.evaluate(() => location.hash), '', 'lessons never write the host URL');

  // Block boxes in shadow roots; the host's `pre { color: lime !important }` does not reach the outputs.
  const look = await page.evaluate(() =>
    [...document.querySelectorAll('attention-lesson')].map((lesson) => {
      const frame = lesson.shadowRoot.querySelector('.attention-lab');
      const pre = lesson.shadowRoot.querySelector('pre.output');
      return {
        display: getComputedStyle(lesson).display,
        shadow: lesson.shadowRoot !== null,
        lightChildren: lesson.children.length,
        pre: getComputedStyle(pre).color,
        frameBg: getComputedStyle(frame).backgroundColor,
        frameFg: getComputedStyle(frame).color,
      };
    }),
  );
  for (const l of look) {
    assert.equal(l.display, 'block');
    assert.ok(l.shadow);
    assert.equal(l.lightChildren, 0, 'nothing rendered into the host light DOM');
    assert.notEqual(l.pre, 'rgb(0, 255, 0)', 'host pre colour leaked into the lesson');
    assert.notEqual(l.frameFg, 'rgb(255, 0, 0)', 'host .attention-lab rule leaked into the lesson');
  }
  // The OS is dark, the host page light: the lesson paints its own dark background under its light text.
  const luminance = (css) => {
    const [r, g, b] = css.match(/\d+(\.\d+)?/g).map(Number);
    const lin = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const contrast = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  assert.ok(contrast(look[0].frameFg, look[0].frameBg) >= 7, `text ${look[0].frameFg} on ${look[0].frameBg}`);
  assert.ok(luminance(look[0].frameBg) < 0.1, 'dark OS: the lesson draws its own dark background');

  // theme="light" pins light colours whatever the OS says.
  await page.evaluate(() => document.querySelector('attention-lesson').setAttribute('theme', 'light'));
  const pinned = await page.evaluate(() => {
    const frame = document.querySelector('attention-lesson').shadowRoot.querySelector('.attention-lab');
    return [getComputedStyle(frame).color, getComputedStyle(frame).backgroundColor];
  });
  assert.ok(luminance(pinned[1]) > 0.8 && contrast(...pinned) >= 7, `theme=light: ${pinned}`);
  // So are the formulas' symbol colours (theme variables): the dark scheme's pastels would read
  // at under 2.3:1 on this light background.
  const symbols = await page.evaluate(() =>
    [...document.querySelector('attention-lesson').shadowRoot.querySelectorAll('.formula .sym')].map(
      (s) => getComputedStyle(s).color,
    ),
  );
  assert.ok(symbols.length > 0, 'the Basics formulas have coloured symbols');
  for (const color of symbols)
    assert.ok(contrast(color, pinned[1]) >= 3, `theme=light: symbol ${color} on ${pinned[1]}`);

  // KaTeX's CSS stays inside: the host's own .katex / .formula keep the host's font.
  const hostStyles = await page.evaluate(() =>
    ['host-katex', 'host-formula'].map((id) => {
      const s = getComputedStyle(document.getElementById(id));
      return { size: s.fontSize, family: s.fontFamily, display: s.display };
    }),
  );
  for (const s of hostStyles) {
    assert.equal(s.size, '16px');
    assert.doesNotMatch(s.family, /KaTeX/);
    assert.equal(s.display, 'inline');
  }
  // Formulas in the lessons are typeset with KaTeX's fonts, declared once in the document.
  const fonts = await page.evaluate(async () => {
    await document.fonts.ready;
    const lesson = document.querySelector('attention-lesson').shadowRoot;
    return {
      family: getComputedStyle(lesson.querySelector('.katex')).fontFamily,
      loaded: [...document.fonts].filter((f) => f.family.includes('KaTeX') && f.status === 'loaded').length,
      declared: [...document.fonts].filter((f) => f.family.replace(/"/g, '') === 'KaTeX_Main').length,
    };
  });
  assert.match(fonts.family, /KaTeX_Main/);
  assert.ok(fonts.loaded > 0, 'KaTeX fonts loaded');
  // once each: as many KaTeX_Main faces as the package ships (only those the formulas select)
  const mainFaces = readdirSync(join(SITE_DIR, '..', 'elements', 'fonts')).filter((f) =>
    f.startsWith('KaTeX_Main-'),
  ).length;
  assert.ok(mainFaces >= 1);
  assert.equal(fonts.declared, mainFaces, 'KaTeX_Main declared once per shipped face');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a lesson with an unknown chapter lists the site's chapters, in the site's order", async () => {
  const CHAPTERS = await (await import('../../scripts/chapters.mjs')).chapterMetas();
  const page = await hostPage('unknown', '<attention-lesson chapter="nope" theme="sepia"></attention-lesson>');
  const messages = page.locator('attention-lesson p.error');
  await messages.first().waitFor();
  assert.deepEqual(await messages.allTextContents(), [
    `attention-lesson: unknown chapter "nope"; known chapters: ${CHAPTERS.map((c) => c.id).join(', ')}`,
    'attention-lesson: theme "sepia" is not one of auto, light, dark',
  ]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('one wasm instance: the elements use the API module the page imports', async () => {
  const page = await hostPage(
    'shared',
    `<attention-lesson chapter="basics"></attention-lesson>
<script type="module">
  const api = await import('./dist/lib/index.js');
  const elements = await import('./dist/elements/attention-lab-elements.js');
  const same = (await api.loadAttention()) === (await elements.loadAttention());
  document.body.dataset.same = String(same);
</script>`,
  );
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.locator('attention-lesson article[data-chapter="basics"]').waitFor();
  await page.waitForSelector('body[data-same]');
  assert.equal(await page.getAttribute('body', 'data-same'), 'true');
  // Fonts still loading when the page reloads would be cancelled (reported as failed requests):
  // after a frame (laid out, so every font it needs is requested), wait until they arrived.
  const fontsLoaded = () => page.evaluate(() => new Promise(requestAnimationFrame).then(() => document.fonts.ready));
  await fontsLoaded();
  requests.length = 0; // the API loads when the lesson asks for it, maybe after the listener started: count the reload's
  await page.reload();
  await page.locator('attention-lesson article[data-chapter="basics"]').waitFor();
  await fontsLoaded();
  assert.equal(requests.filter((u) => u.endsWith('attention_core.mjs')).length, 1, 'the wasm module loads once');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('removing NMT lessons terminates their workers (3 mount/unmount cycles)', async () => {
  const page = await hostPage('nmt', '<main id="slot"></main>');
  const alive = new Set();
  page.on('worker', (worker) => {
    alive.add(worker);
    worker.on('close', () => alive.delete(worker));
  });
  for (let cycle = 0; cycle < 3; cycle++) {
    await page.evaluate(() => {
      const lesson = document.createElement('attention-lesson');
      lesson.setAttribute('chapter', 'nmt');
      document.getElementById('slot').append(lesson);
    });
    await page.locator('attention-lesson article[data-nmt-ready="true"]').waitFor();
    assert.equal(alive.size, 1, `cycle ${cycle}: one worker while the lesson is on the page`);
    await page.evaluate(() => document.querySelector('attention-lesson').remove());
    await workersClosed(alive); // the worker's own close event (a worker never ended would hang here)
    assert.equal(alive.size, 0, `cycle ${cycle}: the removed lesson's worker was terminated`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a trained-Transformer lesson loads its checkpoint in the module worker, translates, and ends its worker when removed', async () => {
  const page = await hostPage('trained', '<main id="slot"></main>');
  const alive = new Set();
  page.on('worker', (worker) => {
    alive.add(worker);
    worker.on('close', () => alive.delete(worker));
  });
  await page.evaluate(() => {
    const lesson = document.createElement('attention-lesson');
    lesson.setAttribute('chapter', 'trained');
    document.getElementById('slot').append(lesson);
  });
  await page.locator('attention-lesson article[data-trained-output="2026-11-21"]').waitFor();
  await page.locator('attention-lesson article[data-trained-rnn="true"]').waitFor();
  assert.equal(alive.size, 1, 'one worker while the lesson is on the page');
  await page.evaluate(() => document.querySelector('attention-lesson').remove());
  await workersClosed(alive); // the worker's own close event (a worker never ended would hang here)
  assert.equal(alive.size, 0, 'the removed lesson’s worker was terminated');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('<attention-heatmap>: large matrices draw one pixel per cell, bad values show a message, nothing throws', async () => {
  const page = await hostPage('heatmaps', '<main id="slot"></main>');
  await page.waitForFunction(() => customElements.get('attention-heatmap'));
  const show = (attrs) =>
    page.evaluate((attrs) => {
      const slot = document.getElementById('slot');
      const map = document.createElement('attention-heatmap');
      slot.replaceChildren(map);
      let thrown = null;
      try {
        for (const [k, v] of Object.entries(attrs)) map.setAttribute(k, v);
      } catch (e) {
        thrown = String(e);
      }
      const canvas = map.shadowRoot.querySelector('canvas');
      return {
        thrown,
        error: map.shadowRoot.querySelector('.error')?.textContent ?? null,
        canvas: canvas && { w: canvas.width, h: canvas.height, cssW: canvas.getBoundingClientRect().width },
        pixel: canvas?.classList.contains('pixel-map') ?? false,
      };
    }, attrs);
  const square = (n) => JSON.stringify(Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => r - c)));

  // 362 × 362 used to fail with "Maximum call stack size exceeded"; 300 × 300 built a 22,294 × 9,616 canvas.
  for (const n of [362, 300]) {
    const r = await show({ data: square(n) });
    assert.equal(r.thrown, null);
    assert.equal(r.error, null);
    assert.ok(r.pixel, `${n} × ${n} in pixel mode`);
    assert.deepEqual([r.canvas.w, r.canvas.h], [n, n], 'one canvas pixel per cell');
    assert.ok(r.canvas.cssW <= 4 * n, `shown ${r.canvas.cssW}px wide`);
  }
  // A small matrix keeps the annotated drawing; pixel-above="0" asks for pixels.
  assert.equal((await show({ data: square(4) })).pixel, false);
  assert.equal((await show({ data: square(4), 'pixel-above': '0' })).pixel, true);

  const refused = [
    [{ data: '[[1,2],[3,4]]', vmin: 'NaN' }, /vmin="NaN" is not a finite number/],
    [{ data: '[[1,2],[3,4]]', vmax: 'Infinity' }, /vmax="Infinity" is not a finite number/],
    [{ data: '[[1,2],[3,4]]', vmin: '2', vmax: '1' }, /vmin \(2\) is above vmax \(1\)/],
    [{ data: '[[1,2],[3' }, /attribute data is not valid JSON/],
    [{ data: '[[1,2],[3]]' }, /row 1 has 1 entries, row 0 has 2/],
    [{ data: '[[1,"x"]]' }, /data\[0\]\[1\] is not a number/],
    [{ data: '[]' }, /at least one row and one column/],
    [{ data: '[[1,2]]', 'row-labels': '["a","b"]' }, /row-labels has 2 labels for 1 rows/],
    [{ data: '[[1,2]]', palette: 'no-such' }, /palette "no-such" is not one of/],
    [{ data: '[[1,2]]', 'pixel-above': '1e9' }, /pixel-above="1e9" must be a whole number/],
  ];
  for (const [attrs, expected] of refused) {
    const r = await show(attrs);
    assert.equal(r.thrown, null, `${JSON.stringify(attrs)} threw`);
    assert.match(r.error ?? '', expected, JSON.stringify(attrs));
  }
  // Too large to draw at all: refused before reading the values.
  const huge = await page.evaluate(() => {
    const map = document.createElement('attention-heatmap');
    document.getElementById('slot').replaceChildren(map);
    map.matrix = { rows: 5000, cols: 5000, data: { length: 25e6 } };
    return map.shadowRoot.querySelector('.error')?.textContent;
  });
  assert.match(huge, /5000 × 5000 is too large to draw/);
  // A valid value after an invalid one draws again.
  const fixed = await page.evaluate(() => {
    const map = document.querySelector('attention-heatmap');
    map.matrix = [
      [1, 2],
      [3, 4],
    ];
    return [map.shadowRoot.querySelector('canvas')?.dataset.painted, map.dataset.error ?? null];
  });
  assert.deepEqual(fixed, ['true', null]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('anywidget module: a heatmap from model traits (updates, clicks written back) and a lesson, with a stub model', async () => {
  const page = await hostPage(
    'widget',
    `<div id="out-heatmap"></div><div id="out-lesson"></div>
<script type="module">
  // A stub of anywidget's model: get / set / on / off / save_changes.
  function stubModel(traits) {
    const listeners = {};
    return {
      saved: 0,
      get: (name) => traits[name],
      set: (name, value) => { traits[name] = value; (listeners['change:' + name] ?? []).forEach((f) => f()); },
      on: (event, f) => (listeners[event] ??= []).push(f),
      off: (event, f) => (listeners[event] = (listeners[event] ?? []).filter((g) => g !== f)),
      save_changes() { this.saved++; },
      traits,
    };
  }
  const widget = (await import('./dist/elements/anywidget.js')).default;
  window.heatmapModel = stubModel({ matrix: [[1, 2], [3, 4]], row_labels: ['a', 'b'], col_labels: ['x', 'y'], label: 'w' });
  window.cleanupHeatmap = widget.render({ model: window.heatmapModel, el: document.getElementById('out-heatmap') });
  window.lessonModel = stubModel({ kind: 'lesson', chapter: 'basics' });
  window.cleanupLesson = widget.render({ model: window.lessonModel, el: document.getElementById('out-lesson') });
</script>`,
  );
  const figure = page.locator('#out-heatmap attention-heatmap figure.heatmap');
  await figure.waitFor();
  assert.deepEqual(await tableValues(figure), ['1', '2', '3', '4']);
  // A trait change from Python redraws.
  await page.evaluate(() =>
    window.heatmapModel.set('matrix', [
      [5, 6],
      [7, 8],
    ]),
  );
  assert.deepEqual(await figure.locator('table td').allTextContents(), ['5', '6', '7', '8']);
  // A click on cell (row 1, column 0) is written back as `selected`.
  const box = await page.evaluate(() => {
    const map = document.querySelector('#out-heatmap attention-heatmap');
    const { left, top, cellW, cellH } = map.heatmap.layout;
    const rect = map.shadowRoot.querySelector('canvas').getBoundingClientRect();
    return { x: rect.left + left + cellW / 2, y: rect.top + top + cellH * 1.5 };
  });
  await page.mouse.click(box.x, box.y);
  assert.deepEqual(await page.evaluate(() => [window.heatmapModel.traits.selected, window.heatmapModel.saved]), [
    [1, 0],
    1,
  ]);
  // The lesson kind loads the elements module next to the widget's.
  const basics = page.locator('#out-lesson attention-lesson article[data-chapter="basics"]');
  await basics.waitFor();
  assert.match(await basics.textContent(), /array\(\[927\., 397\., 148\., 929\.\]\)/);
  // The cleanup functions remove what render added.
  await page.evaluate(() => {
    window.cleanupHeatmap();
    window.cleanupLesson();
  });
  assert.equal(await page.locator('attention-heatmap, attention-lesson').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
