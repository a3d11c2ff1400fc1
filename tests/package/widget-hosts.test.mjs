// The anywidget module (dist/elements/anywidget.js) loaded the way two book and
// notebook hosts load it, offline:
// - MyST (Jupyter Book 2): its {anywidget} directive's renderer import()s the
//   module from an http(s) URL, builds the model from the directive's JSON (get,
//   set, on; off does nothing) and renders into a <div> inside a shadow root. A
//   real `myst build --html` cannot run offline (it downloads its site theme from
//   the network on first use), so this page does what that renderer does.
// - marimo: its static export inlines the widget's module as a data: URL; the
//   module then has no address in the package, so a heatmap must need no file
//   and a lesson an absolute elements_url.
// Each page: the heatmap drawn from the traits, the Basics lesson's scores
// (elements_url absolute), no request the host did not make, no console error.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { openPage, startBrowser, tableValues } from '../browser/harness.mjs';
import { serve } from '../../scripts/serve.mjs';
import { BASICS_SCORES } from './hosts/check-page.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = join(ROOT, 'dist');

let env;
let dir;
let host;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'attention-lab-widget-hosts-'));
  // The package's files where a site serves them; the page and its copy of the widget elsewhere.
  for (const part of ['lib', 'elements', 'classic', 'site'])
    cpSync(join(DIST, part), join(dir, 'attention-lab', part), { recursive: true });
  cpSync(join(DIST, 'elements', 'anywidget.js'), join(dir, 'book', 'build', 'widget-0f3a.js'));
  env = await startBrowser();
  host = await serve({ root: dir });
});
after(async () => {
  await env?.close();
  if (host) await new Promise((ok) => host.server.close(ok));
  rmSync(dir, { recursive: true, force: true });
});

// Both hosts' model: the traits as given, change events on set, no sync back.
const MODEL = `class Model {
  #state; #events = new EventTarget();
  constructor(state) { this.#state = state; }
  get(name) { return this.#state[name]; }
  set(name, value) { this.#state[name] = value; this.#events.dispatchEvent(new CustomEvent('change:' + name)); }
  on(name, callback) { this.#events.addEventListener(name, callback); }
  off() {}
  save_changes() {}
}`;

/** A page that imports the widget from `moduleUrl` and renders each model into a shadow root's <div>. */
function hostPage(moduleUrl, models) {
  return `<!doctype html><meta charset="utf-8"><title>Book</title><link rel="icon" href="data:,">
<h1>Book page</h1>
${models.map((_, i) => `<div class="widget" id="w${i}"></div>`).join('\n')}
<script type="module">
${MODEL}
const widget = (await import(${JSON.stringify(moduleUrl)})).default;
${JSON.stringify(models)}.forEach(async (traits, i) => {
  const model = new Model(traits);
  await widget.initialize?.({ model });
  const root = document.getElementById('w' + i).attachShadow({ mode: 'open' });
  const el = document.createElement('div');
  root.replaceChildren(el);
  await widget.render({ model, el });
});
</script>`;
}

/** Opens `file` (served from the test folder); resolves to the page and what it requested. */
async function open(file) {
  const page = await openPage(env.browser, 'about:blank', { waitForReady: false });
  const requests = [];
  page.on('request', (r) => !/^(data|blob):/.test(r.url()) && requests.push(new URL(r.url()).pathname));
  await page.goto(`${host.url}${file}`);
  return { page, requests };
}

const HEATMAP = {
  matrix: [
    [0.25, 0.75],
    [0.6, 0.4],
  ],
  row_labels: ['I', 'saw'],
  col_labels: ['ich', 'sah'],
  label: 'w',
};
const lesson = () => ({
  kind: 'lesson',
  chapter: 'basics',
  elements_url: `${host.url}attention-lab/elements/attention-lab-elements.js`,
});

async function assertHeatmap(page) {
  await page.locator('#w0 attention-heatmap canvas[data-painted="true"]').waitFor();
  assert.deepEqual(await tableValues(page.locator('#w0 attention-heatmap figure.heatmap')), [
    '0.25',
    '0.75',
    '0.6',
    '0.4',
  ]);
}

test('MyST {anywidget}: imported from the site over http into a shadow root, a heatmap and a Basics lesson', async () => {
  writeFileSync(join(dir, 'book', 'myst.html'), hostPage(`${host.url}book/build/widget-0f3a.js`, [HEATMAP, lesson()]));
  const { page, requests } = await open('book/myst.html');
  await assertHeatmap(page);
  const basics = page.locator('#w1 attention-lesson article[data-chapter="basics"]');
  await basics.waitFor();
  assert.match(await basics.textContent(), BASICS_SCORES);
  assert.ok(requests.includes('/attention-lab/elements/attention-lab-elements.js'), requests.join(' '));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('marimo: the module as a data: URL draws a heatmap with no request; a lesson needs an absolute elements_url', async () => {
  const source = readFileSync(join(DIST, 'elements', 'anywidget.js')).toString('base64');
  const moduleUrl = `data:text/javascript;base64,${source}`;
  writeFileSync(join(dir, 'marimo-heatmap.html'), hostPage(moduleUrl, [HEATMAP]));
  const only = await open('marimo-heatmap.html');
  await assertHeatmap(only.page);
  assert.deepEqual(only.requests, ['/marimo-heatmap.html'], 'a heatmap fetches nothing');
  assert.deepEqual(only.page.errors, []);
  await only.page.context().close();

  // Without elements_url the module cannot tell where the elements are: it says so in the output.
  const { elements_url: _, ...unplaced } = lesson();
  writeFileSync(join(dir, 'marimo.html'), hostPage(moduleUrl, [HEATMAP, lesson(), unplaced]));
  const { page } = await open('marimo.html');
  await assertHeatmap(page);
  const basics = page.locator('#w1 attention-lesson article[data-chapter="basics"]');
  await basics.waitFor();
  assert.match(await basics.textContent(), BASICS_SCORES);
  assert.match(await page.locator('#w2').evaluate((w) => w.shadowRoot.textContent), /set elements_url/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the README's size of the anywidget module is its gzip size (zlib's default level), to the KiB", () => {
  const said = /anywidget[\s\S]{0,200}?\((\d+) KiB gzip/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  assert.ok(said, 'the README gives the size');
  const kib = gzipSync(readFileSync(join(DIST, 'elements', 'anywidget.js'))).length / 1024;
  assert.ok(Math.abs(kib - Number(said[1])) <= 0.5, `README: ${said[1]} KiB, measured ${kib.toFixed(1)} KiB`);
});
