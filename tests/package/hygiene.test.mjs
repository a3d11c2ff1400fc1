// The npm package's hygiene, on the packed tarball installed offline into empty
// projects: one version everywhere; no build-machine address or path in any
// shipped file; publint and @arethetypeswrong/cli clean; types for every export
// path (TypeScript --strict, ES module project); and a CommonJS TypeScript
// project that imports the ESM-only package fails at type-check (it used to
// type-check, then throw at run time), while import() and the classic build work.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const bin = (name) => join(ROOT, 'node_modules', '.bin', name);

let work;
let tarball;
/** Makes an empty project `name` (package.json `type`) with the tarball installed; returns its folder. */
function project(name, type) {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
    cwd: dir,
    stdio: 'pipe',
  });
  return dir;
}
let esm;
let cjs;
before(() => {
  work = mkdtempSync(join(tmpdir(), 'attention-lab-hygiene-'));
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' }),
  );
  tarball = join(work, packed.filename);
  esm = project('esm-consumer', 'module');
  cjs = project('cjs-consumer', 'commonjs');
});
after(() => rmSync(work, { recursive: true, force: true }));

/** Runs tsc --strict on `files` in `dir` with `module` (nodenext or node16); returns { ok, output }. */
function typecheck(dir, files, module = 'nodenext', extra = {}) {
  const compilerOptions = { strict: true, noEmit: true, target: 'es2022', module, types: [], ...extra };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
  try {
    execFileSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
    return { ok: true, output: '' };
  } catch (error) {
    return { ok: false, output: `${error.stdout}${error.stderr}` };
  }
}

test('one version: package.json, package-lock.json and the newest CHANGELOG entry agree', () => {
  const changelog = /^## (\d+\.\d+\.\d+)/m.exec(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'));
  assert.ok(changelog, 'CHANGELOG.md has a "## x.y.z" entry');
  assert.equal(PACKAGE.version, changelog[1]);
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  assert.equal(lock.version, PACKAGE.version);
  assert.equal(lock.packages[''].version, PACKAGE.version);
  assert.equal(
    JSON.parse(readFileSync(join(esm, 'node_modules', 'attention-lab', 'package.json'), 'utf8')).version,
    PACKAGE.version,
  );
});

test('no shipped file holds a build-machine address or path (127.0.0.1, localhost, file:///…, the checkout)', () => {
  const installed = join(esm, 'node_modules', 'attention-lab');
  const files = readdirSync(installed, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
  assert.ok(files.length > 50, `${files.length} files`);
  const found = [];
  // The command line's server listens on the reader's own machine by default: its address is meant.
  const listens = new Set(['bin/attention-lab.mjs', 'scripts/serve.mjs']);
  for (const file of files) {
    const text = readFileSync(file, 'latin1');
    const loopback = listens.has(relative(installed, file)) ? [] : [/127\.0\.0\.1/];
    for (const pattern of [...loopback, /localhost/i, /file:\/\/\/\w/, new RegExp(ROOT.replaceAll('/', '\\/'))]) {
      const match = pattern.exec(text);
      if (match) found.push(`${relative(installed, file)}: ${text.slice(match.index - 40, match.index + 40)}`);
    }
  }
  assert.deepEqual(found, []);
});

test('publint --strict: no error, warning or suggestion', () => {
  const output = execFileSync(bin('publint'), ['run', tarball, '--strict'], { encoding: 'utf8' });
  assert.match(output, /All good!/);
});

test('@arethetypeswrong/cli: every code entry point resolves to matching types (Node 16+, bundlers)', () => {
  // node10 resolution is left out: it predates "exports" and cannot reach any subpath.
  // cjs-resolves-to-esm: 'attention-lab/react' (types only) and 'attention-lab/elements.css'
  // are not modules to require(); ".", "./elements" and "./anywidget" require() the
  // ESM-only stub (checked below). The data files are not modules.
  const output = execFileSync(
    bin('attw'),
    [
      tarball,
      '--profile',
      'node16',
      '--ignore-rules',
      'cjs-resolves-to-esm',
      '--exclude-entrypoints',
      'embeddings/glove.6B.100d.14k.bin',
      'THIRD-PARTY-NOTICES.md',
      '--no-definitely-typed',
      '--format',
      'table-flipped',
      '--no-color',
      '--no-emoji',
    ],
    { encoding: 'utf8' },
  );
  // attw exits non-zero on any problem left (execFileSync throws); the paths typed in this release:
  for (const path of ['anywidget', 'classic', 'classic/elements', 'elements.css'])
    assert.match(output, new RegExp(`"attention-lab/${path.replace('.', '\\.')}" *│ OK \\((CJS|ESM)\\) *│ OK`), path);
});

test('types for every export path: an ES module project under tsc --strict (side-effect imports checked)', () => {
  // 'attention-lab/react' needs @types/react: package.test.mjs checks it in a React project.
  const code = Object.keys(PACKAGE.exports).filter((path) => !/\.(bin|md|json)$|\*|^\.\/react$/.test(path));
  writeFileSync(
    join(esm, 'paths.ts'),
    `import 'attention-lab/elements.css';
import { loadAttention, Matrix } from 'attention-lab';
import { AttentionLessonElement } from 'attention-lab/elements';
import widget from 'attention-lab/anywidget';
import AttentionLab, { loadAttention as classicLoad } from 'attention-lab/classic';
import AttentionLabElements from 'attention-lab/classic/elements';

export const dot: Promise<number> = loadAttention().then((a) => a.dot([1, 2], [3, 4]));
export const classicDot: Promise<number> = AttentionLab.loadAttention().then((a) => a.dot([1], [2]));
export const same: typeof loadAttention = classicLoad;
export const lesson: typeof AttentionLessonElement = AttentionLabElements.AttentionLessonElement;
export const isMatrix = (x: unknown): boolean => x instanceof Matrix;
export const cleanUp: () => void = widget.render({
  model: { get: () => undefined, set: () => {}, save_changes: () => {}, on: () => {} },
  el: document.createElement('div'),
});
// @ts-expect-error render takes { model, el }
widget.render(42);
// @ts-expect-error the classic API is typed: dot needs two vectors
AttentionLab.loadAttention().then((a) => a.dot([1]));
`,
  );
  const source = readFileSync(join(esm, 'paths.ts'), 'utf8');
  for (const path of code) assert.ok(source.includes(`'attention-lab${path.slice(1)}'`), `paths.ts imports ${path}`);
  const checked = typecheck(esm, ['paths.ts'], 'nodenext', {
    noUncheckedSideEffectImports: true,
    lib: ['es2022', 'dom'],
  });
  assert.equal(checked.output, '');
  // The side-effect import is checked: a path without types is an error.
  writeFileSync(join(esm, 'untyped.ts'), "import 'attention-lab/THIRD-PARTY-NOTICES.md';\n");
  const untyped = typecheck(esm, ['untyped.ts'], 'nodenext', { noUncheckedSideEffectImports: true });
  assert.match(untyped.output, /TS2882|TS2307/);
});

test('a CommonJS TypeScript project: a static import fails at type-check; import() and the classic build work', () => {
  writeFileSync(
    join(cjs, 'static.ts'),
    "import { loadAttention } from 'attention-lab';\nexport const load = loadAttention;\n",
  );
  for (const module of ['nodenext', 'node16']) {
    const { ok, output } = typecheck(cjs, ['static.ts'], module);
    assert.equal(ok, false, `${module}: a static import of the ESM-only package type-checks`);
    assert.match(output, /TS2305: Module '"attention-lab"' has no exported member 'loadAttention'/, module);
  }
  writeFileSync(
    join(cjs, 'dynamic.ts'),
    `import AttentionLab = require('attention-lab/classic');
async function main(): Promise<void> {
  const { loadAttention } = await import('attention-lab');
  const a = await loadAttention();
  const b = await AttentionLab.loadAttention();
  console.log(JSON.stringify([a.dot([5, 1, 20], [3, 12, 45]), b.dot([5, 1, 20], [3, 12, 45])]));
}
main();
`,
  );
  const { output } = typecheck(cjs, ['dynamic.ts'], 'nodenext', { noEmit: false });
  assert.equal(output, '');
  // Compiled to CommonJS, it runs: 5·3 + 1·12 + 20·45 = 927 from both.
  const printed = execFileSync(process.execPath, ['dynamic.js'], { cwd: cjs, encoding: 'utf8' });
  assert.deepEqual(JSON.parse(printed), [927, 927]);
});
