// The hosts layer: the packed tarball installed from the npm registry with each
// framework course authors use (tests/hosts/projects.mjs: Vite 8 and 7, Astro 5,
// SvelteKit 2, Docusaurus 3), each project built or served the way its
// documentation says, with nothing but the README's line for that host, and its
// page checked in Chromium (check.mjs: the Basics, GloVe, NMT and model lessons,
// fonts, one wasm instance of each binary, no console error). The installs
// run at once into one temporary folder each, sharing npm's cache.
// Skipped, with the reason, when the registry cannot be reached or when
// ATTENTION_LAB_SKIP_HOSTS=1; any other failure fails.
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startBrowser } from '../browser/harness.mjs';
import { serve } from '../../scripts/serve.mjs';
import { startServer } from '../package/hosts/dev-server.mjs';
import { checkHost } from './check.mjs';
import { DOCUSAURUS_FONTS, writeProjects } from './projects.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);

// Each group is one `npm install` (tools that need different Vite majors apart).
// Astro 5 and SvelteKit 2: the newest majors that run on Node 20 (Astro 6+ and
// SvelteKit 3 need Node 22; they run on Vite 8, tested here as itself).
const GROUPS = {
  vite8: ['vite@8'],
  vite7: ['vite@7'],
  vite6: [
    'vite@6',
    'astro@5',
    '@sveltejs/kit@2',
    '@sveltejs/vite-plugin-svelte@5',
    '@sveltejs/adapter-static@3',
    'svelte@5',
  ],
  docusaurus: ['@docusaurus/core@3', '@docusaurus/preset-classic@3', 'react@19', 'react-dom@19'],
};
const QUIET = { NEXT_TELEMETRY_DISABLED: '1', ASTRO_TELEMETRY_DISABLED: '1' };

/** Why the layer cannot run here, or '' when it can. */
async function reasonToSkip() {
  if (process.env.ATTENTION_LAB_SKIP_HOSTS === '1') return 'ATTENTION_LAB_SKIP_HOSTS=1: hosts not tested';
  try {
    await run('npm', ['ping', '--loglevel=error'], { timeout: 30_000 });
    return '';
  } catch (error) {
    return `the npm registry cannot be reached (npm ping: ${
      String(error.stderr || error.message)
        .trim()
        .split('\n')[0]
    }): hosts not tested`;
  }
}
const skip = (await reasonToSkip()) || false;

const bin = (dir, name) => join(dir, 'node_modules', '.bin', name);
const build = (dir, name, args, cwd = dir) =>
  run(bin(dir, name), args, { cwd, env: { ...process.env, ...QUIET }, maxBuffer: 64 << 20 });

async function served(root) {
  const { server, url } = await serve({ root });
  return { url, close: () => new Promise((ok) => server.close(ok)) };
}
async function devServer(dir, name, args, cwd = dir) {
  const { url, stop } = await startServer(bin(dir, name), args, { cwd, env: QUIET });
  return { url, close: stop };
}
const listen = (port) => ['--host', '127.0.0.1', '--port', String(port)];

// mode: what the host does; line: the README's line it needs ('' for none).
const HOSTS = [
  {
    name: 'Vite 8 build',
    group: 'vite8',
    line: '',
    async open(dir) {
      await build(dir, 'vite', [
        'build',
        'vite-app',
        '--outDir',
        '../vite-dist',
        '--emptyOutDir',
        '--logLevel',
        'error',
      ]);
      return served(join(dir, 'vite-dist'));
    },
  },
  {
    name: 'Vite 8 dev server',
    group: 'vite8',
    line: '',
    open: (dir) => devServer(dir, 'vite', (port) => ['vite-app', ...listen(port), '--strictPort']),
  },
  {
    name: 'Vite 7 dev server',
    group: 'vite7',
    line: 'optimizeDeps.exclude',
    open: (dir) =>
      devServer(dir, 'vite', (port) => [
        'vite-app',
        '--config',
        'vite-app/vite.dev.config.js',
        ...listen(port),
        '--strictPort',
      ]),
  },
  {
    name: 'Astro 5 build',
    group: 'vite6',
    line: '',
    async open(dir) {
      await build(dir, 'astro', ['build'], join(dir, 'astro-app'));
      return served(join(dir, 'astro-app', 'dist'));
    },
  },
  {
    name: 'Astro 5 dev server',
    group: 'vite6',
    line: 'vite.optimizeDeps.exclude',
    open: (dir) =>
      devServer(
        dir,
        'astro',
        (port) => ['dev', '--config', 'astro.dev.config.mjs', ...listen(port)],
        join(dir, 'astro-app'),
      ),
  },
  {
    name: 'SvelteKit 2 build (adapter-static)',
    group: 'vite6',
    line: '',
    async open(dir) {
      await build(dir, 'vite', ['build', '--logLevel', 'error'], join(dir, 'sveltekit-app'));
      return served(join(dir, 'sveltekit-app', 'build'));
    },
  },
  {
    name: 'SvelteKit 2 dev server',
    group: 'vite6',
    line: 'optimizeDeps.exclude',
    open: (dir) =>
      devServer(
        dir,
        'vite',
        (port) => ['dev', '--config', 'vite.dev.config.js', ...listen(port), '--strictPort'],
        join(dir, 'sveltekit-app'),
      ),
  },
  {
    name: 'Docusaurus 3 build',
    group: 'docusaurus',
    line: 'fonts plugin',
    async open(dir) {
      const flat = (text) => text.replace(/\s+/g, '');
      const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
      assert.ok(flat(readme).includes(flat(DOCUSAURUS_FONTS)), "the README's Docusaurus plugin is the one tested");
      await build(dir, 'docusaurus', ['build', 'docusaurus-app']);
      return served(join(dir, 'docusaurus-app', 'build'));
    },
  },
];

let work;
let env;
const dirs = {};
const open = new Set(); // pages or servers of a test that stopped early: closed in after()
const report = [];

before(async () => {
  if (skip) {
    console.log(skip);
    return;
  }
  work = mkdtempSync(join(tmpdir(), 'attention-lab-hosts-'));
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' }),
  );
  const started = Date.now();
  await Promise.all(
    Object.entries(GROUPS).map(async ([group, tools]) => {
      const dir = join(work, group);
      mkdirSync(dir);
      // Docusaurus require()s its server bundle and reads its generated files as either
      // module kind: its project has no "type".
      const type = group === 'docusaurus' ? {} : { type: 'module' };
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `course-${group}`, private: true, ...type }));
      try {
        await run(
          'npm',
          [
            'install',
            '--prefer-offline',
            '--no-audit',
            '--no-fund',
            '--loglevel=error',
            join(work, packed.filename),
            ...tools,
          ],
          { cwd: dir, timeout: 900_000, maxBuffer: 64 << 20 },
        );
      } catch (error) {
        throw new Error(
          `hosts: npm install of ${tools.join(' ')} failed:\n${String(error.stderr ?? error.message).slice(0, 2000)}`,
        );
      }
      writeProjects(dir);
      dirs[group] = dir;
    }),
  );
  console.log(
    `hosts: ${Object.keys(GROUPS).length} installs at once in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  env = await startBrowser();
});
after(async () => {
  for (const server of open) await server.close();
  await env?.close();
  // Tens of thousands of installed files take minutes to delete on some disks (ext4
  // mounted with discard): removed by a process of their own, which the tests need not wait for.
  if (work) spawn('rm', ['-rf', work], { detached: true, stdio: 'ignore' }).unref();
  if (report.length) console.log(`host | mode | bytes | wasm instances | console errors\n${report.join('\n')}`);
});

for (const host of HOSTS)
  test(
    `${host.name}${host.line ? ` (with the README's ${host.line})` : ', zero configuration'}`,
    { skip },
    async (t) => {
      const started = Date.now();
      const server = await host.open(dirs[host.group]);
      open.add(server);
      const { bytes, instances } = await checkHost(env.browser, server.url);
      open.delete(server);
      await server.close();
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      t.diagnostic(`${bytes} bytes received, wasm instances: ${instances.length}, ${seconds} s`);
      // Console errors: 0, checkHost fails on any.
      report.push(`${host.name} | ${host.line || 'zero configuration'} | ${bytes} | ${instances.length} | 0`);
    },
  );
