// The KV-cache chapter's questions: one per computing step, each answered from
// the live result of kvCacheStages() (see model.js) or the bytes table.
import { shown } from '../../explain/format.js';
import { clearArgmax, leader, prediction } from '../../predict.js';

// Step 1: how much of K a decode step computes with the cache (the loop counts it).
const rowsPerStep = () =>
  prediction({
    question: (r) =>
      `With the cache, how many new rows of K does decode step 1 compute (the cache then holds ${r.loop.rowsComputed[0] + 1} rows)?`,
    choices: (r) => ['1', String(r.loop.rowsComputed[0] + 1)],
    answer: (r) => (r.loop.rowsComputed[1] === 1 ? 0 : 1),
    explain: (r) =>
      `the prefill computed ${r.loop.rowsComputed[0]} rows at once; each decode step then computed ${r.loop.rowsComputed.slice(1).join(', ')} row(s): only the new token’s.`,
  });

// Step 2: the new token's weights over the cache.
const favourite = () =>
  prediction({
    question: 'Which cached token will the newest token’s query weight most?',
    choices: (r) => r.labels,
    answer: (r) => clearArgmax(Array.from(r.stepWeights.row(0))),
    explain: (r) => `the largest weight goes to ${leader(r.labels, Array.from(r.stepWeights.row(0)), 'a = ')}.`,
  });

// Step 3: the row from the cache against the last row of the full recomputation.
const SAME = ['identical, to the last bit', 'within 1e-12, not bit for bit', 'visibly different'];
const sameRow = () =>
  prediction({
    question: 'Will the row computed from the cache equal the last row of the full recomputation?',
    choices: SAME,
    answer: (r) => (r.same.identical ? 0 : r.same.entries.every((e) => Math.abs(e.a - e.b) <= 1e-12) ? 1 : 2),
    explain: (r) =>
      r.same.identical
        ? `all ${r.same.entries.length} entries have the same 64 bits (largest gap: 0 ulps).`
        : `the largest gap is ${r.same.worst} ulps.`,
  });

// Step 4: how much more work recomputing is, at the last decode step.
const RATIO = ['less than 2×', '2× to 10×', 'more than 10×'];
const costRatio = () =>
  prediction({
    question: (r) =>
      `At the last decode step (token ${r.costs.at(-1).t}), how many times the multiply-adds does recomputing everything take?`,
    choices: RATIO,
    answer: (r) => {
      const { cached, recomputed } = r.costs.at(-1);
      const ratio = recomputed / cached;
      return ratio < 2 ? 0 : ratio <= 10 ? 1 : 2;
    },
    explain: (r) => {
      const { cached, recomputed } = r.costs.at(-1);
      return `${recomputed} multiply-adds against ${cached}: ${shown(recomputed / cached)}×.`;
    },
  });

// Step 5: numbers cached per token with g K/V heads.
const cacheWidth = () =>
  prediction({
    question: (r) =>
      `With ${r.gqa.heads} query heads of width 2 reading ${r.gqa.kvHeads} K/V head(s), how many numbers does this layer cache per token?`,
    choices: (r) => [...new Set([2 * r.gqa.kvHeads * 2, 2 * r.gqa.heads * 2, r.gqa.kvHeads * 2])].map(String),
    answer: (r) =>
      [...new Set([2 * r.gqa.kvHeads * 2, 2 * r.gqa.heads * 2, r.gqa.kvHeads * 2])].indexOf(
        r.gqa.kvK.cols + r.gqa.kvV.cols,
      ),
    explain: (r) =>
      `each token adds a row of ${r.gqa.kvK.cols} to K and ${r.gqa.kvV.cols} to V: ${r.gqa.kvK.cols + r.gqa.kvV.cols} numbers, whatever the number of query heads.`,
  });

// Step 6: which real model holds the most cache per token.
const biggestCache = () =>
  prediction({
    question: 'Which of these models stores the most cache bytes per token?',
    choices: (rows) => rows.map((c) => c.name),
    answer: (rows) => clearArgmax(rows.map((c) => c.perToken)),
    explain: (rows) => {
      const [first, second] = [...rows].sort((a, b) => b.perToken - a.perToken);
      return `${first.name} with ${first.perToken.toLocaleString('en-US')} bytes; next ${second.name} with ${second.perToken.toLocaleString('en-US')}.`;
    },
  });

/** A fresh set of questions for one lesson. */
export const kvCacheQuestions = () => ({
  rowsPerStep: rowsPerStep(),
  favourite: favourite(),
  sameRow: sameRow(),
  costRatio: costRatio(),
  cacheWidth: cacheWidth(),
  biggestCache: biggestCache(),
});
