// The chapters, in reading order: one folder each (chapters/<id>/, see README.md).
// The list is not written here: 'attention-lab:chapters' is generated at build
// time from every chapters/*/meta.js (scripts/chapters.mjs), each entry the meta
// ({ id, title, summary, order }) plus load(), which imports the chapter's view
// (default export { id, title, summary, render(root, { api, store, signal, assets }) })
// only when a reader opens it: a chunk of its own in module builds, an injected
// classic script on the site (scripts/build-site.mjs).
import CHAPTERS from 'attention-lab:chapters';

export { CHAPTERS };
export { loadChapter } from './load.js';
