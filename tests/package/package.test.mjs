// The npm package as users get it: `npm pack`, install the tarball offline
// into an empty project, then use it from Node, TypeScript (--strict), a
// bundler (esbuild) in chromium, and a plain <script type="module">.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { openPage, startBrowser, tableValues } from '../browser/harness.mjs';
import { serve } from '../../scripts/serve.mjs';
import { CHAPTERS_DIR, chapterMetas } from '../../scripts/chapters.mjs';

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
      /^(dist\/lib\/|dist\/elements\/|dist\/classic\/|dist\/site\/|elements\/package\.json$|bin\/attention-lab\.mjs$|scripts\/serve\.mjs$|README\.md$|CHANGELOG\.md$|THIRD-PARTY-NOTICES\.md$|package\.json$|LICENSE$)/,
      `unexpected file in package: ${f}`,
    );
});

test('the tarball: the GloVe vectors once, the site without its duplicates, size guarded', () => {
  const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: ROOT, encoding: 'utf8' }));
  const paths = pack.files.map((f) => f.path);
  const wasmCopies = pack.files
    .filter(
      (f) =>
        /\.m?js$/.test(f.path) &&
        /base64,AGFzbQ|application\/gzip;base64,H4sI/.test(readFileSync(join(ROOT, f.path), 'latin1')),
    )
    .map((f) => f.path);
  console.log(`# tarball: ${pack.size} bytes packed, ${pack.unpackedSize} unpacked; wasm in ${wasmCopies.join(', ')}`);
  assert.deepEqual(
    paths.filter((p) => p.includes('glove.6B.100d.14k')),
    ['dist/lib/embeddings/glove.6B.100d.14k.bin'],
  );
  assert.equal(paths.filter((p) => p.endsWith('nmt-checkpoint.js')).length, 1, 'the NMT checkpoint once');
  assert.ok(!paths.some((p) => p.endsWith('.map') || p.startsWith('dist/site/vendor/katex/fonts/')));
  assert.ok(paths.includes('dist/site/index.html') && paths.includes('THIRD-PARTY-NOTICES.md'));
  // The elements bundle holds no wasm (it imports dist/lib); neither does the classic elements script.
  assert.ok(!wasmCopies.some((p) => p.includes('elements')), wasmCopies.join(', '));
  // Each wasm module once: its binary in a data script beside its ES module glue (pack-wasm.mjs),
  // which the glue imports and the classic scripts (dist/classic/attention-lab.js, its -trainers.js
  // and -model.js, which the package's site loads from ../classic/) load from ../lib/.
  assert.deepEqual(wasmCopies.sort(), [
    'dist/lib/attention_core.wasm.js',
    'dist/lib/model/model_core.wasm.js',
    'dist/lib/model/model_core_threads.wasm.js', // the threaded model module (model/core.js), ES modules only
    'dist/lib/trainer_core.wasm.js',
  ]);
  // The vectors in their 12-bit form (encoding code 2 at byte 8: 1.5 bytes a value, not int16's 2).
  assert.equal(readFileSync(join(ROOT, 'dist/lib/embeddings/glove.6B.100d.14k.bin')).readUInt32LE(8), 2);
  // Issue 13 asks for ≤ 4 MB, which this guards (was 8.3 MB; 5.50 MB with the wasm held 5 times;
  // 4.37 MB with it gzip-packed and held twice; 4.63 MB with the trained-Transformer lesson, whose
  // checkpoint is 0.2 MB packed; 3.95 MB with the GloVe vectors in 12 bits, 2.17 MB packed instead
  // of 2.86 MB: README, "Package"). 3.995 MB before the GPT-2 core became a wasm module of its
  // own, shipped twice (above): 4.08 MB, over the 4 MB; 4.30 MB with the model chapter, BERT and
  // the chapters split by step (each in three copies: README, "Package"), guarded at 4.35 MB for a
  // while. Back under (2026-11-27): each wasm binary once (above), the classic elements loading the
  // site's chapter scripts (two copies of the chapters, not three) and the checkpoints' bytes in
  // planes: 3.97 MB (3,969,693 bytes); 3.99 MB with the model families; 3.93 MB (3,934,376) with
  // the `npx attention-lab` command and KaTeX's code once (the elements load dist/classic/katex.js).
  // 4.00 MB (3,999,692) with the sliding-window chapter, then 3.74 MB (3,744,579): each chapter
  // once (the module elements import dist/site/chapters/<id>.js instead of chunks of their own,
  // -189 KB), the elements' code once (the module elements run dist/classic/attention-lab-elements.js,
  // -48 KB), the checkpoints' exponent planes one character a byte and the demo GPT-2 in planes
  // (-10 KB), the CSS without comments (-8 KB). The guard is the target.
  assert.ok(pack.size <= 4_000_000, `packed ${pack.size} bytes`);
  // The chapters: the classic elements hold none (they load dist/site/chapters/<id>.js).
  const chapterText = readFileSync(join(ROOT, 'dist/site/chapters/basics.js'), 'utf8').slice(-2000);
  assert.ok(!readFileSync(join(ROOT, 'dist/classic/attention-lab-elements.js'), 'utf8').includes(chapterText));
});

test("each chapter ships once (dist/site/chapters/, which the site and both element builds load), and the elements' code", async () => {
  const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: ROOT, encoding: 'utf8' }));
  const scripts = pack.files.filter((f) => f.path.endsWith('.js')).map((f) => f.path);
  // No module chunks: the ES module elements import the chapter scripts (was a second copy, 0.2 MB packed).
  assert.deepEqual(
    scripts.filter((p) => p.startsWith('dist/elements/chunks/')),
    [],
  );
  const texts = new Map(scripts.map((p) => [p, readFileSync(join(ROOT, p), 'utf8')]));
  // The lesson element's code once, in the classic script the module elements run too (was a
  // second copy, 48 KB packed): its observed attributes name 'glove-worker-url'.
  assert.deepEqual(
    [...texts].filter(([, text]) => text.includes('glove-worker-url')).map(([p]) => p),
    ['dist/classic/attention-lab-elements.js'],
  );
  // Each chapter's prerendered formulas (chapters/<id>/formulas.js, about 60% of its bytes).
  const html = new Map();
  for (const { id } of await chapterMetas()) {
    const { default: f } = await import(pathToFileURL(join(CHAPTERS_DIR, id, 'formulas.js')).href);
    html.set(id, Object.values({ ...f.display, ...f.inline }).join('\n'));
  }
  for (const [id, own] of html) {
    // A marker the minifier keeps as is (no quote but ", no backslash, ASCII) that no other
    // chapter's formulas hold: the longest such run of this chapter's HTML.
    const others = [...html].filter(([other]) => other !== id).map(([, text]) => text);
    const marker = (own.match(/[^'`\\$\n\u0080-\uffff]{60,}/g) ?? [])
      .sort((a, b) => b.length - a.length)
      .find((run) => !others.some((text) => text.includes(run)));
    assert.ok(marker, `${id}: no marker in its formulas`);
    const holders = [...texts].filter(([, text]) => text.includes(marker)).map(([p]) => p);
    assert.deepEqual(holders, [`dist/site/chapters/${id}.js`], `${id}'s formulas are in ${holders.join(', ')}`);
  }
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

test('on a server: importing the elements defines nothing and throws nothing (SSR builds)', () => {
  const script = `const m = await import('attention-lab/elements');
console.log(JSON.stringify({ keys: Object.keys(m).sort(), lesson: typeof m.AttentionLessonElement,
  dot: (await m.loadAttention()).dot([5,1,20],[3,12,45]), customElements: typeof customElements }));`;
  writeFileSync(join(project, 'ssr-check.mjs'), script);
  const result = JSON.parse(execFileSync(process.execPath, ['ssr-check.mjs'], { cwd: project, encoding: 'utf8' }));
  assert.deepEqual(result, {
    keys: ['AttentionHeatmapElement', 'AttentionLessonElement', 'loadAttention'],
    lesson: 'function',
    dot: NOTEBOOK.dot,
    customElements: 'undefined',
  });
});

test("require('attention-lab') fails with the ESM-only message; the classic builds are CommonJS-readable", () => {
  writeFileSync(
    join(project, 'require-check.cjs'),
    `let message = null;
try { require('attention-lab'); } catch (e) { message = e.message; }
let elementsMessage = null;
try { require('attention-lab/elements'); } catch (e) { elementsMessage = e.message; }
const classic = require('attention-lab/classic');
classic.loadAttention().then((a) => console.log(JSON.stringify({ message, elementsMessage, dot: a.dot([5,1,20],[3,12,45]) })));`,
  );
  const result = JSON.parse(execFileSync(process.execPath, ['require-check.cjs'], { cwd: project, encoding: 'utf8' }));
  assert.match(result.message, /attention-lab is ESM only: use import\('attention-lab'\)/);
  assert.match(result.elementsMessage, /ESM only/);
  assert.equal(result.dot, NOTEBOOK.dot);
  // import of the classic build gets the same object as its default export.
  writeFileSync(
    join(project, 'classic-import.mjs'),
    "import AttentionLab from 'attention-lab/classic';\nconsole.log(typeof AttentionLab.loadAttention);",
  );
  assert.equal(
    execFileSync(process.execPath, ['classic-import.mjs'], { cwd: project, encoding: 'utf8' }).trim(),
    'function',
  );
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

test("React + TypeScript: JSX of the elements type-checks after import type {} from 'attention-lab/react'", () => {
  // @types/react (a dev dependency here) linked into the consumer, as a React project has it.
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
  for (const name of ['@types/react', 'csstype'])
    if (!existsSync(join(project, 'node_modules', name)))
      symlinkSync(join(ROOT, 'node_modules', name), join(project, 'node_modules', name), 'dir');
  writeFileSync(
    join(project, 'lesson.tsx'),
    `import type {} from 'attention-lab/react';
export const Lesson = () => (
  <div>
    <attention-lesson chapter="basics" theme="light" vectors-url="/vectors.bin" />
    <attention-heatmap data="[[1,2],[3,4]]" vmin={0} pixel-above="64" />
  </div>
);
// @ts-expect-error: not a chapter
export const Wrong = () => <attention-lesson chapter="no-such-chapter" />;
`,
  );
  writeFileSync(
    join(project, 'tsconfig.react.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        jsx: 'react-jsx',
        types: [],
        lib: ['es2022', 'dom'],
      },
      files: ['lesson.tsx'],
    }),
  );
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  // react-jsx needs react/jsx-runtime's types: @types/react has them.
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.react.json'], { cwd: project, stdio: 'pipe' });
  // Without the augmentation, React knows no such elements.
  writeFileSync(
    join(project, 'lesson.tsx'),
    readFileSync(join(project, 'lesson.tsx'), 'utf8').replace(/^import type .*\n/, ''),
  );
  assert.throws(
    () => execFileSync(process.execPath, [tsc, '-p', 'tsconfig.react.json'], { cwd: project, stdio: 'pipe' }),
    (e) => /Property 'attention-lesson' does not exist on type 'JSX.IntrinsicElements'/.test(String(e.stdout)),
  );
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
    await page.waitForSelector('#result');
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
    await page.waitForSelector('attention-lesson[chapter="basics"] article[data-chapter="basics"]');
    await page.waitForSelector('body[data-host-ready="true"]');
    const basics = page.locator('attention-lesson[chapter="basics"] article');
    assert.match(await basics.textContent(), /array\(\[ 3\.88079708, {2}4\.0728263 , 45\.26423912\]\)/);
    assert.equal(await page.evaluate(() => location.hash), '', 'a lesson never writes the host page URL');
    await page.getByRole('textbox', { name: 'decoder hidden state h, entry 1', exact: true }).fill('6');
    assert.match(await basics.textContent(), /array\(\[930\., 456\., 149\., 933\.\]\)/);
    assert.equal(await page.evaluate(() => location.hash), '');
    const cells = await tableValues(page.locator('#attr figure.heatmap'));
    assert.deepEqual(cells, ['1', '2', '3', '4']);
    assert.deepEqual(await tableValues(page.locator('#prop figure.heatmap')), ['0.5', '1', '1.5', '2', '2.5', '3']);
    const painted = await page.$$eval('attention-heatmap canvas', (cs) => cs.map((c) => c.dataset.painted));
    assert.deepEqual(painted, ['true', 'true']);
    assert.match(
      await page.locator('#bad p.error').textContent(),
      /unknown chapter "no-such-chapter"; known chapters: basics/,
    );
    assert.deepEqual(page.errors, [], 'no CSP violation or error');
    await page.context().close();
  } finally {
    await new Promise((ok) => server.close(ok));
  }
});

test('the classic elements script (no modules): a lesson and a heatmap render, with KaTeX fonts', async () => {
  writeFileSync(
    join(project, 'classic-elements.html'),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script src="node_modules/attention-lab/dist/classic/attention-lab-elements.js"></script>
<attention-lesson chapter="basics"></attention-lesson>
<attention-heatmap data="[[1,2],[3,4]]" label="demo"></attention-heatmap>`,
  );
  const { server, url } = await serve({ root: project });
  try {
    const page = await openPage(env.browser, `${url}classic-elements.html`, { waitForReady: false });
    const basics = page.locator('attention-lesson article[data-chapter="basics"]');
    await basics.waitFor();
    assert.match(await basics.textContent(), /array\(\[927\., 397\., 148\., 929\.\]\)/);
    assert.deepEqual(await tableValues(page.locator('attention-heatmap figure.heatmap')), ['1', '2', '3', '4']);
    const loaded = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((f) => f.family.includes('KaTeX') && f.status === 'loaded').length;
    });
    assert.ok(loaded > 0, 'KaTeX fonts found next to dist/elements');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await new Promise((ok) => server.close(ok));
  }
});

test('the site hosted from node_modules/attention-lab/dist: chapters, vectors, checkpoint and fonts from the package', async () => {
  const { server, url } = await serve({ root: join(project, 'node_modules', 'attention-lab', 'dist') });
  try {
    const page = await openPage(env.browser, `${url}site/index.html#chapter=glove`);
    await page.waitForSelector('article[data-loaded="true"]');
    await page.goto(`${url}site/index.html#chapter=nmt`);
    await page.waitForSelector('article[data-nmt-ready="true"]');
    const loadedFonts = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((f) => f.family.includes('KaTeX') && f.status === 'loaded').length;
    });
    assert.ok(loadedFonts > 0, 'KaTeX fonts found in dist/elements/fonts');
    // The site's own copies are not in the package: each is tried once (a 404), then the package's.
    const expected404 =
      /404 \(Not Found\)|status of 404|\/site\/(vendor\/katex\/fonts\/|nmt-checkpoint\.js|nmt-worker-source\.js|attention-lab\.js|embeddings\/)/;
    const other = page.errors.filter((e) => !expected404.test(e));
    assert.deepEqual(other, []);
    await page.context().close();
  } finally {
    await new Promise((ok) => server.close(ok));
  }
});
