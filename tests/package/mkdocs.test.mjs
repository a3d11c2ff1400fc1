// A real static-site host: Debian's MkDocs (1.4.2 in Debian 12; scripts/setup.sh
// installs it) builds the README's recipe, the package's dist/ copied into docs/
// and the classic elements script in `extra_javascript` (1.4 takes only plain
// paths there: a `{ path, type: module }` entry crashes it), and Chromium opens a
// page one folder down: the Basics scores, the GloVe vectors, KaTeX's fonts, no
// console error. Skipped, saying so, where `mkdocs` is not installed.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startBrowser } from '../browser/harness.mjs';
import { serve } from '../../scripts/serve.mjs';
import { checkHostPage } from './hosts/check-page.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function mkdocsVersion() {
  try {
    return /version (\S+)/.exec(execFileSync('mkdocs', ['--version'], { encoding: 'utf8' }))?.[1] ?? 'unknown';
  } catch {
    return null;
  }
}
const version = mkdocsVersion();
const skip = version ? false : 'mkdocs is not installed (Debian: apt-get install mkdocs; scripts/setup.sh does)';

// The README's recipe (highlight.js off: the theme would load it from a CDN).
const CONFIG = `site_name: Course
theme:
  name: mkdocs
  highlightjs: false
extra_javascript:
  - attention-lab/classic/attention-lab-elements.js
`;

let dir;
let env;
let host;
before(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'attention-lab-mkdocs-'));
  cpSync(join(ROOT, 'dist'), join(dir, 'docs', 'attention-lab'), { recursive: true });
  mkdirSync(join(dir, 'docs', 'course'));
  writeFileSync(join(dir, 'mkdocs.yml'), CONFIG);
  writeFileSync(join(dir, 'docs', 'index.md'), '# Course\n\n[The lesson](course/lesson.md)\n');
  writeFileSync(
    join(dir, 'docs', 'course', 'lesson.md'),
    '# Lesson\n\n<attention-lesson chapter="basics"></attention-lesson>\n\n<attention-lesson chapter="glove"></attention-lesson>\n',
  );
  execFileSync('mkdocs', ['build', '--quiet', '--strict'], { cwd: dir, stdio: 'pipe' });
  env = await startBrowser();
  host = await serve({ root: join(dir, 'site') });
});
after(async () => {
  await env?.close();
  if (host) await new Promise((ok) => host.server.close(ok));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test(
  `MkDocs (${version ?? 'not installed'}): the README's recipe builds; a page one folder down shows the lessons`,
  { skip },
  async () => {
    await checkHostPage(env.browser, `${host.url}course/lesson/`, { shared: false, nmt: false });
  },
);
