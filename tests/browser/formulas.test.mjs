// Formulas typeset at build time (scripts/prerender-formulas.mjs, math.js): the
// committed chapters/<id>/formulas.js files match what the chapters typeset; the HTML
// put on the page is exactly KaTeX's own rendering of the same TeX; no KaTeX
// code loads with a chapter; and a formula missing from a chapter's map is
// still typeset, by KaTeX loaded then (the site's injected katex.js, the
// elements' dist/classic/katex.js), coloured and linked like the others.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { HANG_GUARD_MS, openPage, SITE_DIR, useBrowser } from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';
import { CLASSES_FILE, prerenderedFiles, staleFiles } from '../../scripts/prerender-formulas.mjs';
import { parseStyleSheet } from '../../scripts/formula-style-classes.mjs';
import basics from '../../web/src/site/chapters/basics/formulas.js';

const env = useBrowser();

/** The classes that stand for KaTeX's inline styles in the prerendered HTML: { class: style }. */
const STYLE_CLASSES = Object.fromEntries(
  parseStyleSheet(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', CLASSES_FILE), 'utf8')),
);

const isKatexCode = (url) => /\/(katex\.js|chunks\/katex-[\w-]+\.js)$/.test(new URL(url).pathname);

/**
 * In the page: for every .formula and .tex under `roots`, whether its content
 * equals KaTeX's rendering (window.attentionLabData.katex, math.js's options) of
 * the TeX it shows (its MathML annotation): the same elements, attributes and
 * text, inline styles compared as the browser reads them (KaTeX's HTML writes
 * `height:1em`, its DOM builder gets `height: 1em`; an empty class is no class;
 * adjacent text nodes merged; a MathML space is an <mtext> in one, text in the other; xmlns aside). formula-links.js's classes
 * are taken off first, and the classes that stand for KaTeX's inline styles
 * (`styleClasses`, katex-classes.css) put back as the styles. Returns { count, different: [tex] }.
 */
function compareWithKatex(roots, styleClasses) {
  const same = (a, b) => {
    // A space in MathML: <mtext> </mtext> in KaTeX's HTML, a bare text node from its DOM builder.
    if (a.localName === 'mtext' && b.nodeType === Node.TEXT_NODE) return a.textContent === b.nodeValue;
    if (a.nodeType !== b.nodeType) return false;
    if (a.nodeType !== Node.ELEMENT_NODE) return a.nodeValue === b.nodeValue;
    if (a.namespaceURI !== b.namespaceURI || a.localName !== b.localName) return false;
    // KaTeX's DOM builder writes an empty class="" where its HTML writes none, and
    // its HTML an xmlns on <svg> (the namespace, compared above).
    const names = (n) =>
      n.getAttributeNames().filter((name) => name !== 'xmlns' && (name !== 'class' || n.getAttribute(name) !== ''));
    if (names(a).sort().join(' ') !== names(b).sort().join(' ')) return false;
    for (const name of names(a)) {
      const equal =
        name === 'style' ? a.style.cssText === b.style.cssText : a.getAttribute(name) === b.getAttribute(name);
      if (!equal) return false;
    }
    return a.childNodes.length === b.childNodes.length && [...a.childNodes].every((c, i) => same(c, b.childNodes[i]));
  };
  const katex = globalThis.attentionLabData.katex;
  const options = {
    throwOnError: false,
    output: 'htmlAndMathml',
    trust: (context) => context.command === '\\htmlClass',
    strict: (code) => (code === 'htmlExtension' ? 'ignore' : 'warn'),
  };
  const nodes = roots.flatMap((r) => [...r.querySelectorAll('.formula, .tex')]);
  const different = [];
  for (const node of nodes) {
    const source = node.querySelector('annotation[encoding="application/x-tex"]')?.textContent;
    const shown = node.cloneNode(true);
    shown.removeAttribute('style'); // fit-to-width's font size
    shown.removeAttribute('data-fitted'); // fit-to-width's signal (math.js)
    for (const sym of shown.querySelectorAll('.sym')) {
      for (const c of [...sym.classList]) if (c.startsWith('sym-pal-') || c === 'linked') sym.classList.remove(c);
    }
    for (const styled of shown.querySelectorAll('[class*="ks-"]')) {
      const name = [...styled.classList].find((c) => c in styleClasses);
      if (!name) continue;
      styled.classList.remove(name);
      if (!styled.classList.length) styled.removeAttribute('class');
      styled.style.cssText = styleClasses[name];
    }
    const fresh = document.createElement(node.tagName);
    fresh.className = node.className;
    katex.render(source ?? '', fresh, { ...options, displayMode: node.classList.contains('formula') });
    fresh.normalize(); // its DOM builder may split a word ("exp") into a text node per letter
    shown.normalize();
    if (source === undefined || !same(shown, fresh)) different.push(source ?? node.outerHTML.slice(0, 200));
  }
  return { count: nodes.length, different };
}

/** A desktop-sized page that records its uncaught errors and every URL it requests. */
async function recordingPage() {
  const context = await env.browser.newContext({ viewport: { width: 1200, height: 900 } });
  context.setDefaultTimeout(HANG_GUARD_MS);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  return { context, page, errors, requests };
}

test('chapters/<id>/formulas.js and katex-classes.css are up to date: each holds exactly the TeX its chapter typesets, rendered by KaTeX', async () => {
  const stale = staleFiles(await prerenderedFiles());
  assert.deepEqual(stale, [], 'run node scripts/prerender-formulas.mjs, then node scripts/build-web.mjs');
});

test('site: prerendered formulas are KaTeX’s rendering, on a wide screen and a phone, and no KaTeX code loads', async () => {
  for (const [id, viewport] of [
    ['basics', { width: 1200, height: 900 }],
    ['qkv', { width: 390, height: 844 }], // a formula in parts, one per line on a phone
    ['bahdanau', { width: 390, height: 844 }],
  ]) {
    const requests = [];
    const page = await openPage(env.browser, `${env.url}#chapter=${id}`, { viewport });
    page.on('request', (r) => requests.push(r.url()));
    await page.locator(`article[data-chapter="${id}"] .formula .katex`).first().waitFor();
    await page.evaluate(() => document.fonts.ready);
    assert.deepEqual(
      [...requests, ...(await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name)))].filter(
        isKatexCode,
      ),
      [],
      `${id}: KaTeX's code loaded`,
    );
    if (viewport.width < 400) {
      const lines = await page
        .locator('.formula annotation')
        .evaluateAll((a) => a.filter((n) => n.textContent.startsWith('\\begin{gathered}')));
      assert.ok(lines.length > 0, `${id}: a formula in parts is set one part per line on a phone`);
    }
    await page.addScriptTag({ url: 'katex.js' }); // the site's copy of KaTeX, to compare with
    const { count, different } = await page.locator('article.chapter').evaluateAll(compareWithKatex, STYLE_CLASSES);
    assert.ok(count > 10, `${id}: ${count} formulas`);
    assert.deepEqual(different, [], `${id}: prerendered HTML differs from KaTeX's`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

// Two of the Basics chapter's formulas, taken out of its map in the served file.
const INLINE_MISS = '\\sqrt{d_k}';
const DISPLAY_MISS = Object.keys(basics.display).find((tex) => tex.startsWith('\\htmlClass{sym sym-context}{c} ='));

/**
 * Serves `pattern`'s file with INLINE_MISS and DISPLAY_MISS renamed in its formula
 * maps; returns a function giving how many keys of each were renamed.
 */
async function withoutTwoFormulas(page, pattern) {
  const renamed = [0, 0];
  await page.route(pattern, async (route) => {
    const response = await route.fetch();
    let body = await response.text();
    [INLINE_MISS, DISPLAY_MISS].forEach((tex, i) => {
      const key = `${JSON.stringify(tex)}:`;
      renamed[i] += body.split(key).length - 1;
      body = body.replaceAll(key, `${JSON.stringify(`${tex} (not prerendered)`)}:`);
    });
    await route.fulfill({ response, body });
  });
  return () => renamed.every((n) => n > 0);
}

/** In the page: the two missed formulas under `root` (their TeX from KaTeX's annotation), typeset and coloured? */
async function missedFormulas(scope, inline, display) {
  return scope.evaluate(
    (root, [inlineTex, displayTex]) => {
      const find = (selector, tex) =>
        [...root.querySelectorAll(selector)].find(
          (n) => n.querySelector('annotation[encoding="application/x-tex"]')?.textContent === tex,
        );
      const inlineNode = find('.tex', inlineTex);
      const displayNode = find('.formula', displayTex);
      return {
        inline: Boolean(inlineNode?.querySelector('.katex-html')),
        display: Boolean(displayNode?.querySelector('.katex-display .katex-html')),
        coloured: [...(displayNode?.querySelectorAll('.sym') ?? [])].map((s) =>
          [...s.classList].some((c) => c.startsWith('sym-pal-')),
        ),
      };
    },
    [inline, display],
  );
}

test('site: a formula missing from the chapter’s map is typeset by KaTeX injected then (katex.js), coloured and linked', async () => {
  assert.ok(DISPLAY_MISS, 'the Basics map holds the context-vector formula');
  const { context, page, errors, requests } = await recordingPage();
  const renamed = await withoutTwoFormulas(page, '**/chapters/basics.js');
  await page.goto(`${env.url}#chapter=basics`);
  await page.waitForFunction(() =>
    [...document.querySelectorAll('article.chapter .formula, article.chapter .tex')].every((n) =>
      n.querySelector('.katex'),
    ),
  );
  assert.ok(renamed(), 'both formulas taken out of the served map');
  assert.equal(requests.filter(isKatexCode).length, 1, 'KaTeX injected once');
  const missed = await missedFormulas(page.locator('article.chapter'), INLINE_MISS, DISPLAY_MISS);
  assert.equal(missed.inline, true);
  assert.equal(missed.display, true);
  assert.ok(missed.coloured.length >= 3 && missed.coloured.every(Boolean), `symbols coloured: ${missed.coloured}`);
  const { different } = await page.locator('article.chapter').evaluateAll(compareWithKatex, STYLE_CLASSES);
  assert.deepEqual(different, []);
  assert.deepEqual(errors, []);
  await context.close();
});

// Both builds load the same data script, dist/classic/katex.js (the package holds KaTeX's code once).
const ELEMENT_BUILDS = [
  {
    name: 'module',
    script: '<script type="module" src="elements/attention-lab-elements.js"></script>',
    chapter: '**/site/chapters/basics.js', // both builds load the site's chapter scripts
    katex: /\/classic\/katex\.js$/,
  },
  {
    name: 'classic',
    script: '<script src="classic/attention-lab-elements.js"></script>',
    chapter: '**/site/chapters/basics.js', // the classic elements load the site's chapter scripts
    katex: /\/classic\/katex\.js$/,
  },
];

test('elements: a formula missing from the chapter’s map is typeset by KaTeX loaded then (classic/katex.js in both builds)', async () => {
  const hostDir = mkdtempSync(join(tmpdir(), 'attention-lab-formulas-'));
  for (const dir of ['lib', 'elements', 'classic', 'site'])
    cpSync(join(SITE_DIR, '..', dir), join(hostDir, dir), { recursive: true });
  for (const build of ELEMENT_BUILDS)
    writeFileSync(
      join(hostDir, `${build.name}.html`),
      `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">${build.script}` +
        '<attention-lesson chapter="basics"></attention-lesson>',
    );
  const host = await serve({ root: hostDir });
  try {
    for (const build of ELEMENT_BUILDS) {
      const { context, page, errors, requests } = await recordingPage();
      const renamed = await withoutTwoFormulas(page, build.chapter);
      await page.goto(`${host.url}${build.name}.html`);
      const lesson = page.locator('attention-lesson');
      await lesson.locator('article[data-chapter="basics"]').waitFor();
      await page.waitForFunction(() =>
        [...document.querySelector('attention-lesson').shadowRoot.querySelectorAll('.formula, .tex')].every((n) =>
          n.querySelector('.katex'),
        ),
      );
      assert.ok(renamed(), `${build.name}: both formulas taken out of the served file`);
      const katex = requests.filter(isKatexCode);
      assert.equal(katex.length, 1, `${build.name}: KaTeX loaded once (${katex})`);
      assert.match(katex[0], build.katex);
      const missed = await missedFormulas(lesson.locator('article'), INLINE_MISS, DISPLAY_MISS);
      assert.equal(missed.inline, true, build.name);
      assert.equal(missed.display, true, build.name);
      assert.ok(
        missed.coloured.length >= 3 && missed.coloured.every(Boolean),
        `${build.name}: symbols coloured: ${missed.coloured}`,
      );
      assert.deepEqual(errors, []);
      await context.close();
    }
  } finally {
    await new Promise((ok) => host.server.close(ok));
    rmSync(hostDir, { recursive: true, force: true });
  }
});
