// The chapters, in reading order. Each module's default export is
// { id, title, summary, render(root, { api }) }; see README.md here.
import basics from './basics.js';
// ---- chapter imports: one per line ----
import glove from './glove.js';
import bahdanau from './bahdanau.js';
import qkv from './qkv.js';
import transformer from './transformer.js';
import nmt from './nmt.js';
import trained from './trained.js';

export const CHAPTERS = [
  basics,
  // ---- chapter entries: one per line ----
  bahdanau,
  qkv,
  transformer,
  glove,
  nmt,
  trained,
];
