// The package in the tools course authors use: the `npm pack` tarball installed
// with every tool below in ONE `npm install` from the npm registry into a
// temporary project, each host's page opened in Chromium (hosts/hosts.mjs): the
// Basics numbers, the GloVe vectors, an NMT translation, KaTeX fonts, the page's
// API shared with the elements, and no console error (hosts/check-page.mjs).
// Without the registry this file FAILS; ATTENTION_LAB_SKIP_CONSUMERS=1 skips it
// on purpose (README, "Tests").
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startBrowser } from '../browser/harness.mjs';
import { checkHostPage } from './hosts/check-page.mjs';
import { HOSTS } from './hosts/hosts.mjs';
import { writeSources } from './hosts/sources.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// Each tool at the major version the README names (README, "Bundlers and hosts").
export const TOOLS = [
  'vite@6',
  'vitepress@1',
  'webpack@5',
  'webpack-cli@6',
  'parcel@2',
  'esbuild@0.25',
  'rollup@4',
  '@rollup/plugin-node-resolve@16',
  'next@15',
  'react@19',
  'react-dom@19',
];
const SKIP = process.env.ATTENTION_LAB_SKIP_CONSUMERS === '1';
const skipped = SKIP && 'ATTENTION_LAB_SKIP_CONSUMERS=1: consumer hosts not tested';

let work;
let env;
/** Servers of tests that stopped early (a failed check): stopped in after(). */
const running = new Set();

before(async () => {
  if (SKIP) {
    console.log(`${skipped}: ${HOSTS.length} hosts skipped on purpose`);
    return;
  }
  work = mkdtempSync(join(tmpdir(), 'attention-lab-consumers-'));
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' }),
  );
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'course', private: true, type: 'module' }));
  try {
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--loglevel=error', join(work, packed.filename), ...TOOLS],
      { cwd: work, stdio: 'pipe', timeout: 600_000 },
    );
  } catch (error) {
    throw new Error(
      `consumer tests: npm install from the registry failed (set ATTENTION_LAB_SKIP_CONSUMERS=1 to skip these ` +
        `tests on purpose):\n${String(error.stderr ?? error.message).slice(0, 2000)}`,
    );
  }
  writeSources(work);
  env = await startBrowser();
});
after(async () => {
  for (const page of running) await page.close();
  await env?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

for (const host of HOSTS)
  test(
    `${host.name}: Basics numbers, GloVe vectors and an NMT translation in Chromium`,
    { skip: skipped },
    async () => {
      const page = await host.open(work);
      running.add(page);
      await checkHostPage(env.browser, page.url, host.expect);
      running.delete(page);
      await page.close();
    },
  );
