// A real notebook host: Debian's Jupyter (jupyter-nbconvert, python3-ipykernel;
// scripts/setup.sh installs them) executes a notebook whose code cell outputs
// HTML with the classic scripts inlined and a Basics lesson, exports it with
// `jupyter nbconvert --to html --execute`, and Chromium renders the exported
// page: the lesson's scores, no console error. This is the Jupyter recipe of
// the README ("Notebooks"), and the page Jupyter Book builds from such a cell.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startBrowser } from '../browser/harness.mjs';
import { serve } from '../../scripts/serve.mjs';
import { checkHostPage } from './hosts/check-page.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLASSIC = join(ROOT, 'dist', 'classic');

// The README's cell: the package's two classic scripts inlined, the API's wasm
// binary (its data script in dist/lib/) before them and the chapter's scripts
// (dist/site/chapters/) after (the output needs no file next to it), then the lesson's tag.
const CELL = `from pathlib import Path
from IPython.display import HTML

def attention_lesson(chapter, dist=Path(${JSON.stringify(CLASSIC)})):
    scripts = ''.join(
        '<script>' + (dist / name).read_text().replace('</script', '<\\\\/script') + '</script>'
        for name in ('../lib/attention_core.wasm.js', 'attention-lab.js', 'attention-lab-elements.js',
                     '../site/chapters/shared.js', f'../site/chapters/{chapter}.js'))
    return HTML(scripts + f'<attention-lesson chapter="{chapter}"></attention-lesson>')

attention_lesson('basics')`;

const notebook = {
  cells: [
    { cell_type: 'markdown', metadata: {}, source: ['# Attention, in a notebook'] },
    { cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: CELL.split(/(?<=\n)/) },
  ],
  metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' } },
  nbformat: 4,
  nbformat_minor: 5,
};

let work;
let env;
before(async () => {
  work = mkdtempSync(join(tmpdir(), 'attention-lab-notebook-'));
  env = await startBrowser();
});
after(async () => {
  await env?.close();
  rmSync(work, { recursive: true, force: true });
});

test('jupyter nbconvert --execute: the exported HTML renders the Basics lesson in Chromium', async () => {
  writeFileSync(join(work, 'lesson.ipynb'), JSON.stringify(notebook));
  execFileSync(
    'jupyter-nbconvert',
    [
      '--to',
      'html',
      '--execute',
      'lesson.ipynb',
      // The export's own scripts come from a CDN; this test runs offline (so would a course without MathJax).
      '--HTMLExporter.require_js_url=data:text/javascript,',
      '--HTMLExporter.mathjax_url=data:text/javascript,',
    ],
    { cwd: work, stdio: 'pipe' },
  );
  const html = readFileSync(join(work, 'lesson.html'), 'utf8');
  assert.match(
    html,
    /<attention-lesson chapter="basics"><\/attention-lesson>/,
    'the cell ran and its output was exported',
  );
  writeFileSync(join(work, 'favicon.ico'), ''); // the export names no icon: Chromium asks for this one
  const { server, url } = await serve({ root: work });
  try {
    await checkHostPage(env.browser, `${url}lesson.html`, { glove: false, nmt: false, fonts: false, shared: false });
  } finally {
    await new Promise((ok) => server.close(ok));
  }
});
