// Only the KaTeX faces the prerendered formulas can select ship (scripts/build-katex-fonts.mjs):
// the selection read from KaTeX's own stylesheet, checked on classes whose faces are known,
// and the shipped folders holding exactly the faces the chapters' formulas select.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fontsSelected, formulaClasses } from '../../scripts/build-katex-fonts.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CSS = readFileSync(join(ROOT, 'node_modules/katex/dist/katex.min.css'), 'utf8').replace(
  /@font-face\s*\{[^}]*\}/g,
  '',
);
const faces = (...classes) => [...fontsSelected(CSS, new Set(classes))].sort();

test('a face is selected only when every class of one of its rules occurs', () => {
  assert.deepEqual(faces(), ['KaTeX_Main-Regular.woff2']);
  assert.deepEqual(faces('mathnormal'), ['KaTeX_Main-Regular.woff2', 'KaTeX_Math-Italic.woff2']);
  assert.ok(faces('mathbf').includes('KaTeX_Main-Bold.woff2'));
  assert.ok(faces('mathfrak').includes('KaTeX_Fraktur-Regular.woff2'));
  assert.ok(faces('boldsymbol').includes('KaTeX_Math-BoldItalic.woff2'));
  assert.ok(faces('textit').includes('KaTeX_Main-Italic.woff2')); // no family in the rule: KaTeX_Main's
  // .delimsizing.size3 needs both classes: size3 alone is a font size, not the Size3 face
  assert.ok(!faces('size3').includes('KaTeX_Size3-Regular.woff2'));
  assert.ok(faces('delimsizing', 'size3').includes('KaTeX_Size3-Regular.woff2'));
});

test('the shipped faces are exactly those the formulas select', (t) => {
  const wanted = [...fontsSelected(CSS, formulaClasses(ROOT))].sort();
  assert.ok(wanted.includes('KaTeX_Math-Italic.woff2'), 'formulas use math italic');
  assert.ok(wanted.length < 20, `${wanted.length} of KaTeX's 20 faces`);
  for (const dir of ['dist/elements/fonts', 'dist/site/vendor/katex/fonts']) {
    if (!existsSync(join(ROOT, dir))) return t.skip('not built');
    assert.deepEqual(readdirSync(join(ROOT, dir)).sort(), wanted, dir);
  }
  const css = readFileSync(join(ROOT, 'dist/site/vendor/katex/katex.min.css'), 'utf8');
  const declared = [...css.matchAll(/url\(fonts\/([\w-]+\.woff2)\)/g)].map(([, f]) => f).sort();
  assert.deepEqual(declared, wanted, "the site's stylesheet declares only the shipped faces");
});
