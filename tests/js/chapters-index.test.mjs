// chapters/index.js: one line per chapter, whose id, title and summary (used by
// the contents bar, permalinks and the oEmbed files without loading the chapter)
// are the chapter module's own, and whose load() gives that module.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHAPTERS, loadChapter } from '../../web/src/site/chapters/index.js';

test('every chapters/index.js entry loads its chapter, with the same id, title and summary', async () => {
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
