// The hosts the consumer tests try, each as a course author sets it up: how to
// build the page (if the host builds) and where the page is served. Each
// `open(work)` returns { url, close }.
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '../../../scripts/serve.mjs';
import { startServer } from './dev-server.mjs';
import { importMap, plainPage } from './sources.mjs';

const bin = (work, name) => join(work, 'node_modules', '.bin', name);
const run = (work, name, args, env = {}) =>
  execFileSync(bin(work, name), args, { cwd: work, stdio: 'pipe', env: { ...process.env, ...env } });

/** Checks that no script a build wrote names a file on the build machine (webpack used to bake file:// URLs in). */
function assertNoBuildPaths(dir) {
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.m?js$/.test(entry.name)) continue;
    const file = join(entry.parentPath ?? entry.path, entry.name);
    const found = /file:\/\/\/[\w.-][^"'`\s]*/.exec(readFileSync(file, 'utf8'));
    assert.equal(found, null, `${file} holds ${found?.[0]}`);
  }
  return dir;
}

/** Serves `root` statically; `file` is the page. */
async function served(root, file = '') {
  const { server, url } = await serve({ root });
  return { url: `${url}${file}`, close: () => new Promise((ok) => server.close(ok)) };
}

async function devServer(work, name, args, options) {
  const { url, stop } = await startServer(bin(work, name), args, { cwd: work, ...options });
  return { url, close: stop };
}

/** The app's page with its module script replaced by `script`, written to `dir`. */
function pageWith(work, dir, script) {
  const html = readFileSync(join(work, 'app', 'index.html'), 'utf8').replace(
    '<script type="module" src="./main.js"></script>',
    script,
  );
  writeFileSync(join(dir, 'index.html'), html);
}

// Pages one folder down from the project serve the installed package with an import map.
const PACKAGE_MAP = importMap('../node_modules/attention-lab/dist');

export const HOSTS = [
  {
    name: 'Vite 6 build',
    async open(work) {
      run(work, 'vite', ['build', 'app', '--outDir', '../vite-dist', '--emptyOutDir', '--logLevel', 'error']);
      return served(assertNoBuildPaths(join(work, 'vite-dist')));
    },
  },
  {
    name: 'Vite 6 dev server',
    open: (work) =>
      devServer(work, 'vite', (port) => [
        'app',
        '--config',
        'vite.dev.config.js',
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--strictPort',
      ]),
  },
  {
    name: 'webpack 5',
    async open(work) {
      run(work, 'webpack', ['--config', 'webpack.config.js']);
      pageWith(work, join(work, 'webpack-dist'), '<script defer src="./main.js"></script>');
      return served(assertNoBuildPaths(join(work, 'webpack-dist')));
    },
  },
  {
    name: 'Parcel 2',
    async open(work) {
      run(work, 'parcel', ['build', 'app/index.html', '--dist-dir', 'parcel-dist', '--no-cache', '--public-url', './']);
      return served(assertNoBuildPaths(join(work, 'parcel-dist')));
    },
  },
  {
    name: 'Rollup 4 (node-resolve; attention-lab external, import map)',
    async open(work) {
      run(work, 'rollup', ['--config', 'rollup.config.mjs', '--silent']);
      pageWith(work, join(work, 'rollup-dist'), `${PACKAGE_MAP}<script type="module" src="./main.js"></script>`);
      return served(work, 'rollup-dist/index.html');
    },
  },
  {
    name: 'esbuild (attention-lab external, import map)',
    async open(work) {
      run(work, 'esbuild', [
        'app/main.js',
        '--bundle',
        '--format=esm',
        '--external:attention-lab',
        '--external:attention-lab/*',
        '--outdir=esbuild-dist',
        '--log-level=error',
      ]);
      pageWith(work, join(work, 'esbuild-dist'), `${PACKAGE_MAP}<script type="module" src="./main.js"></script>`);
      return served(work, 'esbuild-dist/index.html');
    },
  },
  {
    name: 'Next.js 15 (next build, next start)',
    async open(work) {
      run(work, 'next', ['build', 'next-app'], { NEXT_TELEMETRY_DISABLED: '1' });
      assertNoBuildPaths(join(work, 'next-app', '.next', 'static'));
      return devServer(work, 'next', (port) => ['start', 'next-app', '-H', '127.0.0.1', '-p', String(port)], {
        env: { NEXT_TELEMETRY_DISABLED: '1' },
      });
    },
  },
  {
    name: 'VitePress 1 build',
    expect: { shared: false },
    async open(work) {
      run(work, 'vitepress', ['build', 'docs']);
      const dist = join(work, 'docs', '.vitepress', 'dist');
      // Rendered on the server (the elements imported in Node): the tags are in the page.
      assert.match(
        readFileSync(join(dist, 'index.html'), 'utf8'),
        /<attention-lesson chapter="basics"><\/attention-lesson>/,
      );
      return served(assertNoBuildPaths(dist));
    },
  },
  {
    name: 'VitePress 1 dev server',
    expect: { shared: false },
    open: (work) =>
      devServer(work, 'vitepress', (port) => [
        'dev',
        'docs',
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--strictPort',
      ]),
  },
  {
    name: 'plain HTML with an import map (no bundler)',
    async open(work) {
      cpSync(join(work, 'app', 'main.js'), join(work, 'plain-main.js'));
      writeFileSync(
        join(work, 'plain.html'),
        plainPage(
          `${importMap('./node_modules/attention-lab/dist')}<script type="module" src="./plain-main.js"></script>\n`,
        ),
      );
      return served(work, 'plain.html');
    },
  },
  {
    name: 'classic scripts (no modules)',
    async open(work) {
      writeFileSync(
        join(work, 'classic-main.js'),
        `Promise.all([AttentionLab.loadAttention(), AttentionLabElements.loadAttention()]).then(([a, b]) => {
  const m = a.scaleRows([0.5, 0.5], [[1, 2, 3], [4, 5, 6]]);
  document.getElementById('h').matrix = m;
  document.body.dataset.shared = String(a === b && m instanceof AttentionLab.Matrix);
});
`,
      );
      const dist = './node_modules/attention-lab/dist/classic';
      writeFileSync(
        join(work, 'classic.html'),
        plainPage(
          `<script src="${dist}/attention-lab.js"></script>\n<script src="${dist}/attention-lab-elements.js"></script>\n<script defer src="./classic-main.js"></script>\n`,
        ),
      );
      return served(work, 'classic.html');
    },
  },
];
