// One chapter, one folder: a chapter folder (web/src/site/chapters/<id>/) imports
// nothing from another chapter's folder; what two chapters share lives outside
// them (web/src/site/lesson-kit/, the chapter kit, figures, explain/).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { CHAPTERS_DIR, chapterMetas } from '../../scripts/chapters.mjs';

// Relative specifiers of static and dynamic imports, re-exports and new URL(…, import.meta.url).
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|new URL\(\s*)['"](\.\.?\/[^'"]+)['"]/g;

/** Every file under `dir`, recursively. */
const filesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(join(dir, d.name)) : [join(dir, d.name)],
  );

/** The chapter folder a path lies in, or null. */
const folderOf = (path) => {
  const rel = relative(CHAPTERS_DIR, path);
  return rel.startsWith('..') || !rel.includes(sep) ? null : rel.split(sep)[0];
};

test('the import scan sees a cross-chapter import', () => {
  const from = join(CHAPTERS_DIR, 'a', 'steps', 'x.js');
  const [spec] = [..."import { y } from '../../b/model.js';".matchAll(SPECIFIER)].map((m) => m[1]);
  assert.equal(folderOf(resolve(dirname(from), spec)), 'b');
});

test('no chapter folder imports another chapter folder', async () => {
  const ids = (await chapterMetas()).map((m) => m.id);
  assert.ok(ids.length >= 2);
  const crossings = [];
  for (const id of ids)
    for (const file of filesUnder(join(CHAPTERS_DIR, id)).filter((f) => /\.m?js$/.test(f)))
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
        const target = folderOf(resolve(dirname(file), spec));
        if (target !== null && target !== id) crossings.push(`${relative(CHAPTERS_DIR, file)} imports ${spec}`);
      }
  assert.deepEqual(crossings, []);
});
