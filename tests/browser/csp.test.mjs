// A strict Content-Security-Policy, the one README.md ("Content-Security-Policy")
// gives: the site (every chapter) and <attention-lesson> elements of every
// chapter on a host page (the module build and the classic scripts), all served
// with CSP_POLICY. No console error, no `securitypolicyviolation` event (the
// prerendered formulas used to carry inline style attributes: 442 refusals for
// one Basics lesson), and the Basics formulas keep their layout: each is as wide
// and as tall as KaTeX's own rendering of its TeX put beside it (KaTeX's DOM
// builder sets styles through the CSSOM, which the policy allows). One formula is
// taken out of the served prerendered map, so KaTeX's fallback path (loaded then)
// runs under the policy too.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { HANG_GUARD_MS, SITE_DIR, startBrowser } from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';
import { chapterMetas } from '../../scripts/chapters.mjs';
import basics from '../../web/src/site/chapters/basics/formulas.js';

const CHAPTERS = await chapterMetas(); // chapters/*/meta.js, in order

/** README.md's policy: style-src, img-src, font-src and connect-src are 'self' (the first written out). */
const CSP_POLICY =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; worker-src 'self' blob:";

/** The builds of the elements, as a host page loads them, and the file holding the Basics formulas in each. */
const ELEMENT_BUILDS = {
  module: {
    script: '<script type="module" src="elements/attention-lab-elements.js"></script>',
    formulas: '**/site/chapters/basics.js', // both builds load the site's chapter scripts
  },
  classic: {
    script: '<script src="classic/attention-lab-elements.js"></script>',
    formulas: '**/site/chapters/basics.js', // the classic elements load the site's chapter scripts
  },
};

let env;
let site;
let hostDir;
let host;
before(async () => {
  env = await startBrowser();
  site = await serve({ root: SITE_DIR, headers: { 'Content-Security-Policy': CSP_POLICY } });
  hostDir = mkdtempSync(join(tmpdir(), 'attention-lab-csp-'));
  for (const dir of ['lib', 'elements', 'classic', 'site']) symlinkSync(join(SITE_DIR, '..', dir), join(hostDir, dir));
  cpSync(join(SITE_DIR, 'favicon.svg'), join(hostDir, 'favicon.ico')); // no data: icon: img-src is 'self'
  const lessons = CHAPTERS.map(({ id }) => `<attention-lesson chapter="${id}"></attention-lesson>`).join('\n');
  for (const [name, { script }] of Object.entries(ELEMENT_BUILDS))
    writeFileSync(
      join(hostDir, `${name}.html`),
      `<!doctype html><meta charset="utf-8">${script}\n<h1>Course page</h1>\n${lessons}
<attention-heatmap data="[[1,2],[3,4]]" row-labels='["a","b"]' col-labels='["x","y"]'></attention-heatmap>`,
    );
  host = await serve({ root: hostDir, headers: { 'Content-Security-Policy': CSP_POLICY } });
});
after(async () => {
  await env?.close();
  for (const server of [site?.server, host?.server]) if (server) await new Promise((ok) => server.close(ok));
  if (hostDir) rmSync(hostDir, { recursive: true, force: true });
});

/** The Basics formula whose struts were lost (`e = hᵀH = [hᵀh̄₁, …]` read `e=h H=[h ,…,h ]`). */
const SCORES = Object.keys(basics.display).find((tex) => tex.startsWith('\\htmlClass{sym sym-scores}{e} = '));
/** The Basics formula taken out of the served map: typeset by KaTeX loaded then. */
const MISSING = Object.keys(basics.display).find((tex) => tex.startsWith('\\htmlClass{sym sym-context}{c} ='));
const isKatexCode = (url) => /\/(katex\.js|chunks\/katex-[\w-]+\.js)$/.test(new URL(url).pathname);

/** What a chapter's article shows once its asynchronous work (vectors, workers) is done. */
const SETTLED = {
  glove: '[data-loaded="true"]',
  nmt: '[data-nmt-ready="true"]',
  trained: '[data-trained-ready="true"]',
};
const settled = (id) => `article[data-chapter="${id}"]${SETTLED[id] ?? ''}`;

/**
 * A page that records console errors, page errors, CSP violations (in any
 * shadow root too: the event is composed) and KaTeX code requests, and is
 * served the Basics formulas from `formulas` (a URL glob) without MISSING.
 */
async function recordingPage(formulas) {
  const context = await env.browser.newContext({ viewport: { width: 1200, height: 900 } });
  context.setDefaultTimeout(HANG_GUARD_MS);
  const page = await context.newPage();
  const errors = [];
  const katexLoads = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => isKatexCode(r.url()) && katexLoads.push(r.url()));
  await page.addInitScript(() => {
    globalThis.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      globalThis.cspViolations.push(`${e.violatedDirective}: ${e.blockedURI} ${e.sample}`),
    );
  });
  let renamed = 0;
  await page.route(formulas, async (route) => {
    const response = await route.fetch();
    const key = `${JSON.stringify(MISSING)}:`;
    const body = await response.text();
    renamed += body.split(key).length - 1;
    await route.fulfill({ response, body: body.replaceAll(key, `${JSON.stringify(`${MISSING} (not prerendered)`)}:`) });
  });
  const violations = () => page.evaluate(() => globalThis.cspViolations);
  return { context, page, errors, katexLoads, violations, renamed: () => renamed };
}

/**
 * In the page: each formula under `root` (an element, or its shadow root if it
 * has one) against KaTeX's own rendering of its TeX (the data script's
 * window.attentionLabData.katex) put beside it: [{ tex, shown, katex }], boxes
 * as [width, height] of the formula's pieces (a line may break between them):
 * their summed width, the tallest height.
 */
function formulaBoxes(root) {
  const katex = globalThis.attentionLabData.katex;
  const options = {
    throwOnError: false,
    output: 'htmlAndMathml',
    trust: (context) => context.command === '\\htmlClass',
    strict: (code) => (code === 'htmlExtension' ? 'ignore' : 'warn'),
  };
  const box = (node) => {
    const rects = [...node.querySelectorAll('.katex-html > .base')].map((b) => b.getBoundingClientRect());
    return [rects.reduce((sum, r) => sum + r.width, 0), Math.max(...rects.map((r) => r.height))];
  };
  return [...(root.shadowRoot ?? root).querySelectorAll('article[data-chapter="basics"] :is(.formula, .tex)')].map(
    (node) => {
      const tex = node.querySelector('annotation[encoding="application/x-tex"]').textContent;
      const fresh = document.createElement(node.tagName);
      fresh.className = node.className;
      fresh.style.fontSize = node.style.fontSize; // fit-to-width's scale
      node.after(fresh);
      katex.render(tex, fresh, { ...options, displayMode: node.classList.contains('formula') });
      const result = { tex, shown: box(node), katex: box(fresh) };
      fresh.remove();
      return result;
    },
  );
}

/** Every formula's box within half a pixel of KaTeX's; the scores formula and the missing one among them. */
function assertKatexLayout(boxes, where) {
  assert.ok(boxes.length > 10, `${where}: ${boxes.length} formulas`);
  for (const tex of [SCORES, MISSING])
    assert.ok(
      boxes.some((b) => b.tex === tex),
      `${where}: ${tex.slice(0, 40)} is on the page`,
    );
  const off = boxes.filter((b) => b.shown.some((x, i) => !(Math.abs(x - b.katex[i]) <= 0.5)));
  assert.deepEqual(
    off.map((b) => `${b.tex.slice(0, 50)}: ${b.shown.map((x) => x.toFixed(1))} vs ${b.katex.map((x) => x.toFixed(1))}`),
    [],
    `${where}: formulas laid out unlike KaTeX's rendering`,
  );
  const scores = boxes.find((b) => b.tex === SCORES);
  console.log(`# ${where}: the scores formula is ${scores.shown.map((x) => x.toFixed(1)).join(' × ')} px, as KaTeX's`);
}

const CONTEXT_VECTOR = /array\(\[ 3\.88079708, {2}4\.0728263 , 45\.26423912\]\)/; // tests/fixtures/basics.txt

test(`the site under ${CSP_POLICY}: every chapter without a violation; formulas laid out as KaTeX's`, async () => {
  const { context, page, errors, katexLoads, violations, renamed } = await recordingPage('**/chapters/basics.js');
  const perChapter = [];
  for (const { id } of CHAPTERS) {
    await page.goto(`${site.url}#chapter=${id}`);
    await page.waitForSelector(settled(id));
    perChapter.push(`${id}: ${(await violations()).length}`);
  }
  await page.goto(`${site.url}#chapter=basics`);
  await page.waitForSelector(settled('basics'));
  assert.match(await page.textContent('#chapter-basics'), CONTEXT_VECTOR);
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.formula, .tex')].every((n) => n.querySelector('.katex')),
  );
  await page.evaluate(() => document.fonts.ready);
  assert.ok(renamed() > 0 && katexLoads.length === 1, `the missing formula loaded KaTeX (${katexLoads})`);
  await page.addScriptTag({ url: 'katex.js' }); // the reference (a 'self' script)
  const boxes = await page.locator('main').evaluate(formulaBoxes);
  console.log(`# site: violations after each chapter: ${perChapter.join(', ')}; ${errors.length} console errors`);
  assert.deepEqual(await violations(), []);
  assert.deepEqual(errors, []);
  assertKatexLayout(boxes, 'site');
  await context.close();
});

for (const [build, { formulas }] of Object.entries(ELEMENT_BUILDS)) {
  test(`a lesson of every chapter (${build} build) under the same policy: no violation, formulas laid out as KaTeX's`, async () => {
    const { context, page, errors, katexLoads, violations, renamed } = await recordingPage(formulas);
    await page.goto(`${host.url}${build}.html`);
    for (const [i, { id }] of CHAPTERS.entries())
      await page.locator('attention-lesson').nth(i).locator(settled(id)).waitFor();
    const basicsLesson = page.locator('attention-lesson[chapter="basics"]');
    assert.match(await basicsLesson.locator('article').textContent(), CONTEXT_VECTOR);
    await page.locator('attention-heatmap canvas').first().waitFor();
    await page.waitForFunction(() =>
      [
        ...document.querySelector('attention-lesson[chapter="basics"]').shadowRoot.querySelectorAll('.formula, .tex'),
      ].every((n) => n.querySelector('.katex')),
    );
    await page.evaluate(() => document.fonts.ready);
    assert.ok(renamed() > 0 && katexLoads.length === 1, `the missing formula loaded KaTeX (${katexLoads})`);
    await page.addScriptTag({ url: 'classic/katex.js' }); // the reference (a 'self' data script)
    const boxes = await basicsLesson.evaluate(formulaBoxes);
    console.log(`# ${build}: ${(await violations()).length} violations, ${errors.length} console errors`);
    assert.deepEqual(await violations(), []);
    assert.deepEqual(errors, []);
    assertKatexLayout(boxes, build);
    await context.close();
  });
}
