// The chapter list (generated from chapters/*/meta.js, scripts/chapters.mjs): one
// entry per chapter folder, whose id, title and summary (used by the contents bar,
// permalinks and the oEmbed files without loading the chapter) are the chapter
// module's own, and whose load() gives that module.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { CHAPTER_IMPORT, CHAPTERS_DIR, chapterListSource, chapterMetas } from '../../scripts/chapters.mjs';
import { loadChapter } from '../../web/src/site/chapters/load.js';

const metas = await chapterMetas();
// The entries as the generated list has them, with load() importing from the source tree.
const CHAPTERS = metas.map((meta) => ({
  ...meta,
  load: () => import(pathToFileURL(join(CHAPTERS_DIR, meta.id, 'chapter.js')).href),
}));

test('the generated list imports every chapter folder, in order', () => {
  const ids = [...chapterListSource(metas).matchAll(CHAPTER_IMPORT)].map((m) => m[1]);
  assert.deepEqual(
    ids,
    metas.map((m) => m.id),
  );
});

test('every chapter list entry loads its chapter, with the same id, title and summary', async () => {
  assert.ok(CHAPTERS.length > 0);
  assert.equal(new Set(CHAPTERS.map((c) => c.id)).size, CHAPTERS.length, 'ids are unique');
  for (const entry of CHAPTERS) {
    const chapter = await loadChapter(entry);
    assert.deepEqual(
      { id: chapter.id, title: chapter.title, summary: chapter.summary },
      { id: entry.id, title: entry.title, summary: entry.summary },
    );
    assert.equal(typeof chapter.render, 'function');
  }
});

test('loadChapter refuses a module that exports another chapter', async () => {
  const [first, second] = CHAPTERS;
  await assert.rejects(loadChapter({ ...second, load: first.load }), {
    message: new RegExp(`the module of "${second.id}" exports chapter "${first.id}"`),
  });
});
