// Measures how fast the NMT chapter's reversal task learns from scratch (the
// chapter's Reset: default options, Luong general, seed 0): the first step at
// which the held-out exact match reaches 50, 90 and 99 %. The chapter states
// these numbers (REVERSAL_MILESTONES in web/src/site/chapters/nmt/model.js);
// tests/js/site-nmt-model.test.mjs measures them again. Run after the build:
//   node scripts/measure-nmt-reversal.mjs
import { loadAttention } from '../dist/lib/index.js';
import { measureReversal } from '../web/src/site/chapters/nmt/model.js';

const api = await loadAttention();
const start = performance.now();
const { run, steps } = measureReversal(api);
for (const [step, accuracy] of run) console.log(`step ${step}: ${(100 * accuracy).toFixed(1)} %`);
console.log(`steps to 50 / 90 / 99 %: ${steps.join(' / ')} (${((performance.now() - start) / 1000).toFixed(1)} s)`);
