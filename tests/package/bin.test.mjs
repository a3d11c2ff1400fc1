// `npx attention-lab` on the packed tarball installed offline into an empty project:
// the server (MIME types, cross-origin isolation, the paths the tarball holds once
// answered from the package's copies) and `export <dir>` (a complete static site).
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { HANG_GUARD_MS, openPage, startBrowser } from '../browser/harness.mjs';
import { serve } from '../../scripts/serve.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

let work;
let project;
let cli;
let env;
before(async () => {
  work = mkdtempSync(join(tmpdir(), 'attention-lab-bin-'));
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' }),
  );
  project = join(work, 'consumer');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, packed.filename)],
    {
      cwd: project,
      stdio: 'pipe',
    },
  );
  cli = join(project, 'node_modules', '.bin', 'attention-lab'); // the link npm makes, as npx runs it
  env = await startBrowser();
});
after(async () => {
  await env?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Starts the installed command with `args`; resolves to { child, url } once it printed its URL. */
function startCli(args) {
  const child = spawn(cli, args, { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /attention-lab tutorial: (http:\/\/\S+)/.exec(out);
      if (match) ok({ child, url: match[1], out });
    });
    child.once('exit', (code) => fail(new Error(`attention-lab exited (${code}) before printing a URL: ${out}`)));
  });
}
const stop = (child) => new Promise((ok) => (child.exitCode !== null ? ok() : (child.once('exit', ok), child.kill())));

test('npx attention-lab --help prints the usage; a wrong argument is refused with it', () => {
  const help = spawnSync(cli, ['--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /npx attention-lab export <dir>/);
  const bad = spawnSync(cli, ['--port', 'eighty'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /port must be 0 to 65535, not eighty/);
});

test('npx attention-lab serves the site with the right types and cross-origin isolation', async () => {
  const { child, url } = await startCli(['--port', '0']);
  try {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const root = await fetch(url, { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(new URL(root.headers.get('location'), url).pathname, '/site/');
    // path, content type; the last four are not in the tarball's dist/site: the package's copies answer
    const expected = [
      ['site/', 'text/html; charset=utf-8'],
      ['site/chapters/basics.js', 'text/javascript; charset=utf-8'],
      ['site/styles.css', 'text/css; charset=utf-8'],
      ['lib/attention_core.wasm.js', 'text/javascript; charset=utf-8'],
      ['lib/embeddings/glove.6B.100d.14k.bin', 'application/octet-stream'],
      ['site/attention-lab.js', 'text/javascript; charset=utf-8'],
      ['site/nmt-checkpoint.js', 'text/javascript; charset=utf-8'],
      ['site/embeddings/glove.6B.100d.14k.bin', 'application/octet-stream'],
      ['site/vendor/katex/fonts/KaTeX_Main-Regular.woff2', 'font/woff2'],
    ];
    for (const [path, type] of expected) {
      const response = await fetch(new URL(path, url));
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-type'), type, path);
      assert.equal(response.headers.get('cross-origin-opener-policy'), 'same-origin', path);
      assert.equal(response.headers.get('cross-origin-embedder-policy'), 'require-corp', path);
      const body = Buffer.from(await response.arrayBuffer());
      assert.ok(body.length > 0 && body.length === Number(response.headers.get('content-length')), path);
    }
    const alias = await (await fetch(new URL('site/attention-lab.js', url))).text();
    assert.equal(
      alias,
      readFileSync(join(project, 'node_modules/attention-lab/dist/classic/attention-lab.js'), 'utf8'),
    );
    for (const path of ['site/vendor/katex/fonts/../../../../package.json', 'site/no-such-file.js', 'site/%zz'])
      assert.ok([400, 403, 404].includes((await fetch(new URL(path, url))).status), path);

    // In chromium: cross-origin isolated, a chapter computes, nothing fails to load.
    const page = await openPage(env.browser, `${url}#chapter=basics`);
    assert.equal(await page.evaluate(() => globalThis.crossOriginIsolated), true);
    await page.waitForSelector('article[data-chapter="basics"]');
    assert.match(await page.locator('article[data-chapter="basics"]').textContent(), /3\.88079708/);
    assert.deepEqual(page.errors, []);
    await page.context().close();

    // The model chapter's worker runs the demo on threads: the package's threaded module, served.
    const model = await openPage(env.browser, `${url}#chapter=model`, { waitForReady: false });
    await model.waitForFunction(
      () => document.querySelector('#chapter-model')?.dataset.modelExplained === 'true',
      null,
      {
        timeout: HANG_GUARD_MS,
      },
    );
    const cores = await model.evaluate(() => Math.min(8, navigator.hardwareConcurrency)); // threads: 'auto'
    assert.equal(await model.locator('#chapter-model').getAttribute('data-model-threads'), String(cores));
    assert.deepEqual(model.errors, []);
    await model.context().close();
  } finally {
    await stop(child);
  }
});

test('a busy default port: the command takes a free one and says so; a busy --port is an error', async () => {
  // Port 8080 held here (or by someone else already: busy either way).
  const held = await serve({ root: work, port: 8080 }).catch((error) => {
    if (error.code !== 'EADDRINUSE') throw error;
    return undefined;
  });
  try {
    const taken = spawnSync(cli, ['--port', '8080'], { encoding: 'utf8' });
    assert.equal(taken.status, 2);
    assert.match(taken.stderr, /EADDRINUSE/);
    const { child, out, url } = await startCli([]);
    await stop(child);
    assert.match(out, /port 8080 is busy; using another/);
    assert.notEqual(new URL(url).port, '8080');
  } finally {
    if (held) await new Promise((ok) => held.server.close(ok));
  }
});

test('npx attention-lab export <dir> writes a complete static site; a non-empty folder needs --force', async () => {
  const out = join(work, 'exported');
  const done = spawnSync(cli, ['export', out], { encoding: 'utf8' });
  assert.equal(done.status, 0, done.stderr);
  assert.match(done.stdout, /wrote the tutorial to .*exported \(\d+ files/);
  for (const file of [
    'index.html',
    'site/index.html',
    'site/app.js',
    'site/chapters/model.js',
    'site/attention-lab.js',
    'site/attention-lab-model.js',
    'site/katex.js',
    'site/nmt-checkpoint.js',
    'site/vendor/katex/fonts/KaTeX_Main-Regular.woff2',
    'lib/index.js',
    'lib/attention_core.wasm.js',
    'lib/model/model_core.wasm.js',
    'elements/lesson-worker.js',
    'classic/attention-lab.js',
  ])
    assert.ok(existsSync(join(out, file)), file);
  assert.ok(!existsSync(join(out, 'lib/index.d.ts')), 'no type declarations');
  const again = spawnSync(cli, ['export', out], { encoding: 'utf8' });
  assert.equal(again.status, 2);
  assert.match(again.stderr, /is not empty \(add --force/);
  assert.equal(spawnSync(cli, ['export', out, '--force'], { encoding: 'utf8' }).status, 0);

  // Hosted by a plain static server (no aliases, a sub-path): the model chapter loads with no failed request.
  const host = join(work, 'host');
  mkdirSync(host);
  execFileSync('cp', ['-r', out, join(host, 'course')]);
  const { server, url } = await serve({ root: host });
  try {
    const page = await openPage(env.browser, `${url}course/#chapter=basics`);
    await page.waitForSelector('article[data-chapter="basics"]');
    assert.equal(new URL(page.url()).pathname, '/course/site/');
    assert.match(await page.locator('article[data-chapter="basics"]').textContent(), /3\.88079708/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await new Promise((ok) => server.close(ok));
  }
});
