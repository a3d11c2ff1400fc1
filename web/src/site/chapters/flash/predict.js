// The flash chapter's questions: one per computing step, each answered from the
// live result of flashStages() (model.js) and the chapter's state.
import { shown } from '../../explain/format.js';
import { clearArgmax, prediction } from '../../predict.js';
import { heldFull, heldOnline } from './model.js';

const blockLabels = (r) => Array.from({ length: r.blocks }, (_, b) => `block ${b + 1}`);
const visibleScores = (r, i) => Array.from(r.scaled.row(i), (s, j) => (r.causal && j > i ? -Infinity : s));

// Step 1: where the query's largest score is, by block.
const largestBlock = () =>
  prediction({
    question: (r) => `Which block of keys holds query ${r.walk.query + 1}’s largest score?`,
    choices: blockLabels,
    answer: (r) => {
      const j = clearArgmax(visibleScores(r, r.walk.query));
      return j === null ? null : Math.floor(j / r.blockSize);
    },
    explain: (r) => {
      const s = visibleScores(r, r.walk.query);
      const j = s.indexOf(Math.max(...s));
      return `its largest score is S̃[${r.walk.query + 1}][${j + 1}] = ${shown(s[j])}, in block ${Math.floor(j / r.blockSize) + 1}.`;
    },
  });

// Step 2: after which block the running max stops changing.
const settles = () =>
  prediction({
    question: (r) => `After which block does query ${r.walk.query + 1}’s running maximum m reach its final value?`,
    choices: blockLabels,
    answer: (r) => {
      const m = Array.from(r.max.row(r.walk.query));
      return m.indexOf(m[m.length - 1]);
    },
    explain: (r) => {
      const m = Array.from(r.max.row(r.walk.query));
      return `m after each block: ${m.map(shown).join(', ')}; it is final from block ${m.indexOf(m[m.length - 1]) + 1} on.`;
    },
  });

// Step 3: the online output against the full softmax attention.
const SAME = ['identical, to the last bit', 'a few units in the last place apart', 'visibly different'];
const sameOutput = () =>
  prediction({
    question: 'Will the online output equal the full softmax attention’s output?',
    choices: SAME,
    answer: (r) => (r.same.identical ? 0 : r.same.entries.every((e) => Math.abs(e.a - e.b) <= 1e-12) ? 1 : 2),
    explain: (r) =>
      r.same.identical
        ? `all ${r.same.entries.length} entries have the same 64 bits.`
        : `the largest gap is ${r.same.worst} ${r.same.worst === 1 ? 'ulp' : 'ulps'} (${shown(Math.max(...r.same.entries.map((e) => Math.abs(e.a - e.b))))}); ${r.same.entries.filter((e) => e.ulps === 0).length} of ${r.same.entries.length} entries are the same bits.`,
  });

// Step 4: how many times the numbers held, at the chosen length.
const RATIO = ['under 10×', '10× to 100×', 'over 100×'];
const memoryRatio = () =>
  prediction({
    question: (r) =>
      `For ${r.memoryLength.toLocaleString('en-US')} tokens with blocks of ${r.blockSize}, how many times the numbers does the full weight matrix hold, against the online state?`,
    choices: RATIO,
    answer: (r) => {
      const ratio = heldFull(r.memoryLength) / heldOnline(r.memoryLength, r.blockSize);
      return ratio < 10 ? 0 : ratio <= 100 ? 1 : 2;
    },
    explain: (r) => {
      const [full, online] = [heldFull(r.memoryLength), heldOnline(r.memoryLength, r.blockSize)];
      return `${full.toLocaleString('en-US')} against ${online.toLocaleString('en-US')}: ${shown(full / online)}×.`;
    },
  });

/** A fresh set of questions for one lesson. */
export const flashQuestions = () => ({
  largestBlock: largestBlock(),
  settles: settles(),
  sameOutput: sameOutput(),
  memoryRatio: memoryRatio(),
});
