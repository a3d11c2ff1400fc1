// The npm package as users get it: `npm pack`, install the tarball offline
// into an empty project, then use it from Node, TypeScript (--strict), a
// bundler (esbuild) in chromium, and a plain <script type="module">.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { openPage, startBrowser, tableValues } from '../browser/harness.mjs';
import { serve } from '../../scripts/serve.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CONSUMER_SRC = join(ROOT, 'tests', 'package', 'consumer');
const NOTEBOOK = { dot: 927, scores: [927, 397, 148, 929] };
const CONTEXT = [3.8807970779778764, 4.072826298199112, 45.26423912339336]; // tests/fixtures/basics.txt

let work;
let project;
before(() => {
  work = mkdtempSync(join(tmpdir(), 'attention-lab-pack-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' }),
  );
  const tarball = join(work, packed[0].filename);
  project = join(work, 'consumer');
  cpSync(CONSUMER_SRC, project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
    cwd: project,
    stdio: 'pipe',
  });
});
after(() => rmSync(work, { recursive: true, force: true }));

function checkResult(result) {
  assert.equal(result.dot, NOTEBOOK.dot);
  assert.deepEqual(result.scores, NOTEBOOK.scores);
  result.context.forEach((x, i) => assert.ok(Math.abs(x - CONTEXT[i]) <= 1e-9, `context[${i}] = ${x}`));
}

test('the tarball holds only the whitelisted files', () => {
  const files = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: ROOT, encoding: 'utf8' }),
  )[0].files.map((f) => f.path);
  assert.ok(
    files.includes('dist/lib/index.js') &&
      files.includes('dist/lib/index.d.ts') &&
      files.includes('dist/lib/attention_core.mjs'),
  );
  for (const f of files)
    assert.match(
      f,
      /^(dist\/lib\/|dist\/elements\/|dist\/classic\/|README\.md$|CHANGELOG\.md$|package\.json$|LICENSE$)/,
      `unexpected file in package: ${f}`,
    );
});

test('installs offline into an empty project and works in Node 20 by package name', () => {
  const script = `import { loadAttention } from 'attention-lab';
const a = await loadAttention();
const s = a.dotScores([5,1,20], [[3,12,45],[59,2,5],[1,43,5],[4,3,45.3]]);
console.log(JSON.stringify({ dot: a.dot([5,1,20],[3,12,45]), scores: Array.from(s),
  context: Array.from(a.weightedSum(a.softmax(s), [[3,12,45],[59,2,5],[1,43,5],[4,3,45.3]])) }));`;
  writeFileSync(join(project, 'node-check.mjs'), script);
  checkResult(JSON.parse(execFileSync(process.execPath, ['node-check.mjs'], { cwd: project, encoding: 'utf8' })));
});

test('the .d.ts compiles under tsc --strict in the consumer, and rejects a wrong argument type', () => {
  writeFileSync(
    join(project, 'elements.ts'),
    "import { loadAttention } from 'attention-lab/elements';\nconst lesson = document.createElement('attention-lesson');\nconst heatmap = document.querySelector('attention-heatmap');\nif (heatmap) heatmap.matrix = [[1, 2]];\nexport const ready: Promise<unknown> = loadAttention().then(() => lesson);\n",
  );
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        types: [],
        lib: ['es2022', 'dom'],
      },
      files: ['usage.ts', 'elements.ts'],
    }),
  );
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, stdio: 'pipe' });
  // Without the @ts-expect-error line, the wrong call must be an error.
  writeFileSync(
    join(project, 'usage.ts'),
    readFileSync(join(project, 'usage.ts'), 'utf8').replace('// @ts-expect-error', '//'),
  );
  assert.throws(() => execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, stdio: 'pipe' }));
});

let env;
before(async () => {
  env = await startBrowser();
});
after(async () => env?.close());

async function resultOnPage(root, file) {
  const { server, url } = await serve({ root });
  try {
    const page = await openPage(env.browser, `${url}${file}`, { waitForReady: false });
    await page.waitForSelector('#result', { timeout: 20000 });
    const result = JSON.parse(await page.textContent('#result'));
    assert.deepEqual(page.errors, []);
    await page.context().close();
    return result;
  } finally {
    await new Promise((ok) => server.close(ok));
  }
}

test('bundled by esbuild, the app computes the notebook numbers in chromium', async () => {
  await build({
    entryPoints: [join(project, 'app.js')],
    outfile: join(project, 'out', 'bundle.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    absWorkingDir: project,
    logLevel: 'error',
  });
  writeFileSync(
    join(project, 'out', 'index.html'),
    '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="bundle.js"></script>',
  );
  checkResult(await resultOnPage(join(project, 'out'), 'index.html'));
});

test('a plain <script type="module"> importing the installed files works in chromium', async () => {
  writeFileSync(
    join(project, 'plain.html'),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module">
import { loadAttention } from './node_modules/attention-lab/dist/lib/index.js';
const a = await loadAttention();
const s = a.dotScores([5,1,20], [[3,12,45],[59,2,5],[1,43,5],[4,3,45.3]]);
const out = document.createElement('output'); out.id = 'result';
out.textContent = JSON.stringify({ dot: a.dot([5,1,20],[3,12,45]), scores: Array.from(s),
  context: Array.from(a.weightedSum(a.softmax(s), [[3,12,45],[59,2,5],[1,43,5],[4,3,45.3]])) });
document.body.append(out);
</script>`,
  );
  checkResult(await resultOnPage(project, 'plain.html'));
});

test('the classic script defines window.AttentionLab for pages without modules', async () => {
  writeFileSync(
    join(project, 'classic.js'),
    `AttentionLab.loadAttention().then((a) => {
  const s = a.dotScores([5,1,20], [[3,12,45],[59,2,5],[1,43,5],[4,3,45.3]]);
  const out = document.createElement('output'); out.id = 'result';
  out.textContent = JSON.stringify({ dot: a.dot([5,1,20],[3,12,45]), scores: Array.from(s),
    context: Array.from(a.weightedSum(a.softmax(s), [[3,12,45],[59,2,5],[1,43,5],[4,3,45.3]])) });
  document.body.append(out);
});`,
  );
  writeFileSync(
    join(project, 'classic.html'),
    '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">' +
      '<script src="node_modules/attention-lab/dist/classic/attention-lab.js"></script><script src="classic.js"></script>',
  );
  checkResult(await resultOnPage(project, 'classic.html'));
});

test("custom elements work on a page with CSP script-src 'self' 'wasm-unsafe-eval' (no inline script)", async () => {
  writeFileSync(
    join(project, 'elements.html'),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<link rel="stylesheet" href="node_modules/attention-lab/dist/elements/attention-lab.css">
<script type="module" src="elements-host.js"></script>
<h1>My course</h1>
<attention-lesson chapter="basics"></attention-lesson>
<attention-heatmap id="attr" data="[[1,2],[3,4]]" row-labels='["a","b"]' col-labels='["x","y"]' label="demo"></attention-heatmap>
<attention-heatmap id="prop" label="weighted annotations" palette="orange"></attention-heatmap>
<attention-lesson id="bad" chapter="no-such-chapter"></attention-lesson>`,
  );
  writeFileSync(
    join(project, 'elements-host.js'),
    `import { loadAttention } from './node_modules/attention-lab/dist/elements/attention-lab-elements.js';
const a = await loadAttention();
document.getElementById('prop').matrix = a.scaleRows([0.5, 0.5], [[1, 2, 3], [4, 5, 6]]);
document.body.dataset.hostReady = 'true';`,
  );
  const { server, url } = await serve({
    root: project,
    headers: { 'Content-Security-Policy': "script-src 'self' 'wasm-unsafe-eval'" },
  });
  try {
    const page = await openPage(env.browser, `${url}elements.html`, { waitForReady: false });
    await page.waitForSelector('attention-lesson[chapter="basics"] article[data-chapter="basics"]', { timeout: 20000 });
    await page.waitForSelector('body[data-host-ready="true"]');
    assert.match(
      await page.textContent('attention-lesson[chapter="basics"]'),
      /array\(\[ 3\.88079708, {2}4\.0728263 , 45\.26423912\]\)/,
    );
    assert.equal(await page.evaluate(() => location.hash), '', 'a lesson never writes the host page URL');
    await page.getByRole('textbox', { name: 'decoder hidden state h, entry 1', exact: true }).fill('6');
    assert.match(
      await page.textContent('attention-lesson[chapter="basics"]'),
      /array\(\[930\., 456\., 149\., 933\.\]\)/,
    );
    assert.equal(await page.evaluate(() => location.hash), '');
    const cells = await tableValues(page.locator('#attr figure.heatmap'));
    assert.deepEqual(cells, ['1', '2', '3', '4']);
    assert.deepEqual(await tableValues(page.locator('#prop figure.heatmap')), ['0.5', '1', '1.5', '2', '2.5', '3']);
    const painted = await page.$$eval('attention-heatmap canvas', (cs) => cs.map((c) => c.dataset.painted));
    assert.deepEqual(painted, ['true', 'true']);
    assert.match(await page.textContent('#bad'), /unknown chapter "no-such-chapter"; known chapters: basics/);
    assert.deepEqual(page.errors, [], 'no CSP violation or error');
    await page.context().close();
  } finally {
    await new Promise((ok) => server.close(ok));
  }
});
