// The package in the tools course authors build with: the `npm pack` tarball
// installed with Vite 6, webpack 5 and VitePress 1 (from the npm registry) into a
// temporary project; a production build of each, opened in Chromium. Each page
// has a Basics lesson, a GloVe lesson and a heatmap: the elements render with
// their styles, the GloVe lesson loads its vectors (the bundler copied the file
// named by a `new URL(…, import.meta.url)` literal), and the page's API and the
// elements share one module (one wasm instance). VitePress also renders the page
// on the server, importing the elements in Node.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openPage, startBrowser } from '../browser/harness.mjs';
import { serve } from '../../scripts/serve.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TOOLS = ['vite@6', 'webpack@5', 'webpack-cli@6', 'vitepress@1'];
const NOTEBOOK = /array\(\[927\., 397\., 148\., 929\.\]\)/;

let work;
let unreachable = null; // why the registry could not be used (the tests then skip, saying so)
let env;

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'attention-lab-consumers-'));
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' }),
  );
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'course', private: true, type: 'module' }));
  try {
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--loglevel=error', join(work, packed.filename), ...TOOLS],
      { cwd: work, stdio: 'pipe', timeout: 300_000 },
    );
  } catch (error) {
    const text = String(error.stderr ?? error.message);
    if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|network/i.test(text)) unreachable = text.split('\n')[0];
    else throw error;
  }
  const page = `<attention-lesson chapter="basics"></attention-lesson>
<attention-lesson chapter="glove"></attention-lesson>
<attention-heatmap id="h" label="weighted annotations"></attention-heatmap>`;
  mkdirSync(join(work, 'app'));
  writeFileSync(
    join(work, 'app', 'main.js'),
    `import { loadAttention, Matrix } from 'attention-lab';
import 'attention-lab/elements';
const a = await loadAttention();
const m = a.scaleRows([0.5, 0.5], [[1, 2, 3], [4, 5, 6]]);
document.getElementById('h').matrix = m;
document.body.dataset.shared = String(m instanceof Matrix);
`,
  );
  writeFileSync(
    join(work, 'app', 'index.html'),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="./main.js"></script>
<h1>Course page</h1>
${page}
<attention-lesson chapter="nmt"></attention-lesson>`,
  );
  mkdirSync(join(work, 'docs', '.vitepress', 'theme'), { recursive: true });
  writeFileSync(
    join(work, 'docs', '.vitepress', 'config.mjs'),
    `export default {
  title: 'Course',
  head: [['link', { rel: 'icon', href: 'data:,' }]],
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('attention-') } } },
  vite: { build: { target: 'es2022' } },
};`,
  );
  writeFileSync(
    join(work, 'docs', '.vitepress', 'theme', 'index.js'),
    "import DefaultTheme from 'vitepress/theme';\nimport 'attention-lab/elements'; // also evaluated by the SSR build\nexport default DefaultTheme;\n",
  );
  writeFileSync(join(work, 'docs', 'index.md'), `# Attention\n\n${page}\n`);
  env = await startBrowser();
});
after(async () => {
  await env?.close();
  rmSync(work, { recursive: true, force: true });
});

const bin = (name) => join(work, 'node_modules', '.bin', name);

/** Opens the built page and checks what every consumer must get. */
async function checkBuiltPage(dir, { shared = true, nmt = false } = {}) {
  const { server, url } = await serve({ root: dir });
  try {
    const page = await openPage(env.browser, url, { waitForReady: false });
    const workers = [];
    page.on('worker', (w) => workers.push(w.url()));
    const basics = page.locator('attention-lesson article[data-chapter="basics"]');
    await basics.waitFor({ timeout: 30000 });
    assert.match(await basics.textContent(), NOTEBOOK);
    await page
      .locator('attention-lesson article[data-chapter="glove"][data-loaded="true"]')
      .waitFor({ timeout: 30000 });
    const look = await page.evaluate(() => {
      const lesson = document.querySelector('attention-lesson');
      const frame = lesson.shadowRoot.querySelector('.attention-lab');
      return {
        display: getComputedStyle(lesson).display,
        background: getComputedStyle(frame).backgroundColor,
        katex: getComputedStyle(lesson.shadowRoot.querySelector('.katex')).fontFamily,
        button: getComputedStyle(lesson.shadowRoot.querySelector('button')).borderRadius,
      };
    });
    assert.equal(look.display, 'block');
    assert.notEqual(look.background, 'rgba(0, 0, 0, 0)', 'the lesson paints its own background');
    assert.match(look.katex, /KaTeX_Main/, 'KaTeX CSS applies inside the lesson');
    assert.equal(look.button, '6px', 'component CSS applies inside the lesson');
    const fonts = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((f) => f.family.includes('KaTeX') && f.status === 'loaded').length;
    });
    assert.ok(fonts > 0, 'the bundler copied KaTeX fonts that load');
    if (shared) {
      await page.waitForSelector('body[data-shared]', { timeout: 20000 });
      assert.equal(await page.getAttribute('body', 'data-shared'), 'true', 'one API module, one wasm instance');
      const painted = await page.locator('attention-heatmap canvas').evaluate((c) => c.dataset.painted);
      assert.equal(painted, 'true');
    }
    if (nmt) {
      await page.locator('attention-lesson article[data-nmt-ready="true"]').waitFor({ timeout: 30000 });
      assert.equal(workers.length, 1, 'the NMT worker chunk started as a worker');
    }
    const errors = page.errors.filter((e) => !/favicon/.test(e));
    assert.deepEqual(errors, []);
    await page.context().close();
  } finally {
    await new Promise((ok) => server.close(ok));
  }
}

test('Vite 6: vite build, then the built page in Chromium', async (t) => {
  if (unreachable) return t.skip(`npm registry unreachable: ${unreachable}`);
  execFileSync(
    bin('vite'),
    ['build', 'app', '--outDir', '../vite-dist', '--emptyOutDir', '--target', 'es2022', '--logLevel', 'error'],
    {
      cwd: work,
      stdio: 'pipe',
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  const assets = readdirSync(join(work, 'vite-dist', 'assets'));
  assert.ok(
    assets.some((f) => f.startsWith('glove.6B.100d.14k') && f.endsWith('.bin')),
    'vectors copied',
  );
  assert.ok(assets.some((f) => f.startsWith('nmt-worker')) && assets.some((f) => f.startsWith('glove-worker')));
  await checkBuiltPage(join(work, 'vite-dist'), { nmt: true });
});

test('webpack 5 production build, then the page in Chromium', async (t) => {
  if (unreachable) return t.skip(`npm registry unreachable: ${unreachable}`);
  writeFileSync(
    join(work, 'webpack.config.js'),
    `import { fileURLToPath } from 'node:url';
export default {
  mode: 'production',
  entry: './app/main.js',
  output: { path: fileURLToPath(new URL('./webpack-dist', import.meta.url)), clean: true, publicPath: 'auto' },
  experiments: { topLevelAwait: true },
  performance: { hints: false },
};`,
  );
  execFileSync(bin('webpack'), ['--config', 'webpack.config.js'], { cwd: work, stdio: 'pipe' });
  const html = readFileSync(join(work, 'app', 'index.html'), 'utf8').replace(
    '<script type="module" src="./main.js"></script>',
    '<script defer src="./main.js"></script>',
  );
  writeFileSync(join(work, 'webpack-dist', 'index.html'), html);
  const files = readdirSync(join(work, 'webpack-dist'));
  assert.ok(
    files.some((f) => f.endsWith('.bin')),
    'vectors emitted as an asset (no file:// path baked in)',
  );
  // (The API's own loadDefaultEmbeddings() default still resolves against import.meta.url,
  // which webpack fills with the build path; the elements pass the vectors' URL literal.)
  await checkBuiltPage(join(work, 'webpack-dist'), { nmt: true });
});

test('VitePress 1: the SSR build imports the elements in Node, and the built site renders them', async (t) => {
  if (unreachable) return t.skip(`npm registry unreachable: ${unreachable}`);
  execFileSync(bin('vitepress'), ['build', 'docs'], { cwd: work, stdio: 'pipe' });
  const dist = join(work, 'docs', '.vitepress', 'dist');
  // Prerendered: the tags are in the HTML (isCustomElement), not hydration mismatches.
  assert.match(
    readFileSync(join(dist, 'index.html'), 'utf8'),
    /<attention-lesson chapter="basics"><\/attention-lesson>/,
  );
  await checkBuiltPage(dist, { shared: false });
});
