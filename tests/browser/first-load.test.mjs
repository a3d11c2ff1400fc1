// A guard on the Basics lesson's first-load bytes (scripts/first-load.mjs, also a
// line of `npm run bench`): the site over http and from file://, and a page with
// one <attention-lesson>. Issue 13's target is 300 KiB gzip, and the guard is
// that target. Reached: 287.9 KiB (site, http and file://) and 292.7 KiB (element
// page), under 300 kB in decimal units too; down from 401.8 / 415.2 at the start of
// the last round: formulas typeset at build time (no KaTeX code, ~72 KiB), the
// wasm core without libc++ streams and its cold code at -Oz (211 -> 171 KB gzip),
// dist/lib without comments (30 -> 17 KiB), Emscripten's glue minified (3.9 KiB),
// modules only later chapters share moved from app.js to chapters/shared.js
// (7.3 KiB); 489 / 484 and ~980 before that. What is left: the wasm core ~185-196
// KiB (its binary gzip-compressed inside the module), KaTeX's fonts ~52 KiB.
//
// No longer met (2026-11-24): 308.4 KiB (site) and 314.6 KiB (element page) after the
// GPT-2 core joined the wasm (+~8 KiB: layer norm, GELU, embeddings, gemv, the model and its
// bindings), the memory-safety checks at the boundary (+~2 KiB), the explanation modules
// every chapter's figures now use (+~5 KiB) and the CSP-safe formula classes (+3.2 KiB).
// With the GPT-2 core in a wasm module of its own (now model_core.mjs, loaded on the first
// openModel call with its reader): 300.8 KiB (site) and 306.6 KiB (element page), so still
// above the target. With the rest of that session (predict-then-reveal on every step, the
// chapters split by step with staged computation and live experiments, the trainers' option
// tables, focusable scroll boxes): 308.2 KiB (site) and 313.8 KiB (element page), guarded at
// 320 KiB for a while.
//
// Met again (2026-11-27): the trainers (Seq2SeqTrainer, TransformerTrainer: their JS and a
// wasm module of their own, trainer_core) load on first use, which the Basics lesson never
// makes: 216.6 KiB (site) and 220.0 KiB (element page); with the wasm binary in a data script
// beside the glue (one copy in the package), 215.5 / 218.9 KiB (215.6 / 219.0 with api.js). The guard is the target again.
// 251.1 / 264.3 KiB later (2026-11-27, more chapter code); then 248.6 / 264.8 KiB with the module elements
// running the classic elements script and the site's chapter scripts (one copy of each in the package) and the
// CSS without comments.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { measureFirstLoad } from '../../scripts/first-load.mjs';
import { chapterMetas } from '../../scripts/chapters.mjs';

const CHAPTERS = await chapterMetas(); // chapters/*/meta.js, in order

const OTHER_CHAPTERS = CHAPTERS.map((c) => c.id).filter((id) => id !== 'basics');

const GUARD = 300 * 1024; // issue 13's target: see above

test('the Basics lesson loads at most 300 KiB gzip (site over http and file://, element page), no NMT or GloVe assets, no KaTeX code, no trainers or model module', async () => {
  const result = await measureFirstLoad();
  for (const [name, m] of Object.entries(result)) {
    assert.ok(m.gzip <= GUARD, `${name}: ${m.gzip} bytes gzip (${m.files.map((f) => f.path).join(', ')})`);
    const lazy = m.files.filter((f) => /nmt-|glove|embeddings\//.test(f.path));
    assert.deepEqual(lazy, [], `${name}: loads another chapter's assets`);
    // Chapters load when opened: only the Basics chapter's script (site/chapters/basics.js, both builds).
    const chapters = m.files.filter((f) => new RegExp(`(^|/)(${OTHER_CHAPTERS.join('|')})[.-]`).test(f.path));
    assert.deepEqual(chapters, [], `${name}: loads another chapter`);
    // Formulas come typeset (chapters/<id>/formulas.js): KaTeX's code (the site's katex.js, the elements' chunk) stays away.
    const katexCode = m.files.filter((f) => /(^|\/)katex(\.js|-[\w-]+\.js)$/.test(f.path));
    assert.deepEqual(katexCode, [], `${name}: loads KaTeX's code`);
    // The trainers and the GPT-2 reader load on first use (loadTrainers, openModel), not here.
    const later = m.files.filter((f) => /trainer|attention-lab-model|model_core|model\//.test(f.path));
    assert.deepEqual(later, [], `${name}: loads the trainers or the model module`);
    // The core's wasm binary once (its data script, pack-wasm.mjs).
    assert.equal(m.files.filter((f) => f.path.endsWith('attention_core.wasm.js')).length, 1, name);
  }
  // One wasm core: the element page loads the API module once and nothing else holds the wasm.
  assert.equal(result.element.files.filter((f) => f.path.endsWith('attention_core.mjs')).length, 1);
});
