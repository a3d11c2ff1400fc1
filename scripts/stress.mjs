// The browser suite under load: `npm run test:stress [-- --runs N] [-- --height H] [files…]`.
// Runs the browser tests N times (default 3) while two busy loops keep both cores
// of a 2-core machine at 100%, each run in a window of a random height
// (ATTENTION_LAB_WINDOW_HEIGHT, 600–2400 px, printed so a failure can be replayed
// with --height). A suite that only passes on an idle machine, or with the fold in
// one place, fails here. Exits non-zero if any run failed.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [value] = args.splice(i, 2).slice(1);
  return value;
};
const runs = Number(option('--runs') ?? 3);
const fixedHeight = option('--height');
const busyLoops = Number(option('--busy') ?? 2);
const files = args.length ? args : ['tests/browser/', 'web/src/site/chapters/']; // + chapters/<id>/test/
if (!(Number.isInteger(runs) && runs > 0)) throw new RangeError(`stress: --runs must be a positive integer`);

// The busy loops: plain processes spinning, so they compete with the browser for the cores.
const spinners = Array.from({ length: busyLoops }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stopSpinners = () => spinners.forEach((child) => child.kill('SIGKILL'));
process.on('exit', stopSpinners);
process.on('SIGINT', () => process.exit(130));

function runSuite(height) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-concurrency=1', ...files], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ATTENTION_LAB_WINDOW_HEIGHT: String(height) },
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      const text = chunk.toString();
      output += text;
      for (const line of text.split('\n')) if (/^not ok|^# (pass|fail)/.test(line)) console.log(`  ${line}`);
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}

const REPORTS = join(ROOT, 'build', 'stress');
mkdirSync(REPORTS, { recursive: true });
const results = [];
for (let run = 1; run <= runs; run++) {
  const height = Number(fixedHeight ?? 600 + Math.floor(Math.random() * 1801));
  console.log(`stress: run ${run}/${runs}, window height ${height} px, ${busyLoops} busy loops`);
  const started = Date.now();
  const { code, output } = await runSuite(height);
  // The whole TAP report of each run, for the details of a failure.
  const report = join(REPORTS, `run-${run}.tap`);
  writeFileSync(report, output);
  results.push({ run, height, ok: code === 0, seconds: Math.round((Date.now() - started) / 1000), report });
  console.log(`stress: run ${run} ${code === 0 ? 'passed' : 'FAILED'} in ${results.at(-1).seconds} s`);
}
stopSpinners();
const failed = results.filter((r) => !r.ok);
for (const r of failed) {
  console.log(`stress: run ${r.run} failed at height ${r.height} (replay: --height ${r.height}; report ${r.report})`);
}
console.log(`${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
