// scripts/setup.sh on a machine that lacks the toolchain, simulated: PATH holds only
// the shell tools it uses, plus stand-ins for id, sudo and apt-get that write what
// they were asked into the log, beside setup.sh's own output. Nothing is installed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'attention-lab-setup-'));
after(() => rmSync(work, { recursive: true, force: true }));

const which = (tool) => spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
const BASH = which('bash');

/** Runs setup.sh with `args` on a PATH of the shell tools and `fakes` (name → script body); returns { status, log }. */
function runSetup(name, args, fakes) {
  const bin = join(work, name);
  spawnSync('mkdir', ['-p', bin]);
  for (const tool of ['dirname', 'grep', 'cat', 'env']) symlinkSync(which(tool), join(bin, tool));
  const log = join(work, `${name}.log`);
  // npm too: setup.sh runs `npm ci` when the lock file is newer than node_modules.
  for (const [tool, body] of Object.entries({ npm: 'echo "NPM $*" >> "$LOG"', ...fakes })) {
    writeFileSync(join(bin, tool), `#!${BASH}\n${body}\n`);
    chmodSync(join(bin, tool), 0o755);
  }
  const fd = openSync(log, 'a');
  const result = spawnSync(BASH, [join(ROOT, 'scripts/setup.sh'), ...args], {
    env: { PATH: bin, LOG: log },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  return { status: result.status, log: readFileSync(log, 'utf8') };
}

const USER = { id: 'echo 1000' };
const SUDO = { sudo: 'echo "SUDO $*" >> "$LOG"; "$@"' };
const APT = { 'apt-get': 'echo "APT $*" >> "$LOG"' };

test('--site, not root: names what it installs before sudo asks, and installs only the site toolchain', () => {
  const { status, log } = runSetup('site-sudo', ['--site'], { ...USER, ...SUDO, ...APT });
  assert.equal(status, 0, log);
  const lines = log.trim().split('\n');
  const said = lines.findIndex((l) => /^setup: needs root to install: .*\bemscripten\b.*\bcmake\b/.test(l));
  const asked = lines.findIndex((l) => l.startsWith('SUDO '));
  assert.ok(said >= 0 && asked > said, log);
  const install = lines.find((l) => l.startsWith('APT ') && l.includes(' install '));
  assert.match(install, /\bemscripten\b/);
  for (const test of ['chromium', 'clang-format', 'catch2', 'g\\+\\+', 'jupyter-notebook', 'python3-ipykernel'])
    assert.doesNotMatch(install, new RegExp(`(^| )${test}( |$)`), `--site installs ${test}`);
});

test('full setup (npm test) as root: the test tools too, with no sudo', () => {
  const { status, log } = runSetup('full-root', [], { id: 'echo 0', ...SUDO, ...APT });
  assert.equal(status, 0, log);
  assert.doesNotMatch(log, /^SUDO /m);
  const install = log.split('\n').find((l) => l.startsWith('APT ') && l.includes(' install '));
  for (const tool of ['emscripten', 'cmake', 'chromium', 'clang-format', 'jupyter-notebook'])
    assert.match(install, new RegExp(`(^| )${tool}( |$)`), tool);
});

test('no apt-get, or not root without sudo: it prints what to install by hand and fails', () => {
  for (const [name, fakes] of [
    ['no-apt', { ...USER, ...SUDO }],
    ['no-sudo', { ...USER, ...APT }],
  ]) {
    const { status, log } = runSetup(name, ['--site'], fakes);
    assert.equal(status, 1, `${name}: ${log}`);
    assert.match(log, /install these by hand, then run this again: .*emscripten/, name);
    assert.match(log, /emsdk install 3\.1\.6/, name);
    assert.match(log, /brew install eigen cmake/, name);
    assert.doesNotMatch(log, /^(SUDO|APT) /m, name);
  }
});

test('a wrong argument is refused', () => {
  assert.equal(runSetup('bad', ['--everything'], {}).status, 2);
});
