// The RoPE chapter's questions (predict.js): one per computing step, each
// answered from the live result of ropeStages() ({ q, turned, freqs, slowest,
// slowestTenfold, score, shifted, qHalf, qInterleaved, … }).
import { shown } from '../../explain/format.js';
import { prediction } from '../../predict.js';
import { pairsOf } from './steps/dials.js';
import { same } from './steps/relative-step.js';

const THREE = (more, equal, less) => [more, equal, less];
/** 0, 1 or 2 for a > b, a ≈ b, a < b. */
const compare = (a, b) => (same(a, b) ? 1 : a > b ? 0 : 2);

// Step 1: pair 1's length at position m against position 0.
const pairLength = (v) => Math.hypot(...pairsOf(v, 'half')[0].xy);
const sameLength = () =>
  prediction({
    question: 'At position m, will pair 1’s arrow be longer than at position 0, just as long, or shorter?',
    choices: THREE('longer', 'just as long', 'shorter'),
    answer: (r) => compare(pairLength(r.turned.data), pairLength(r.q.data)),
    explain: (r) =>
      `pair 1 is ${shown(pairLength(r.q.data))} long at position 0 and ${shown(pairLength(r.turned.data))} at position m: a rotation keeps lengths.`,
  });

// Step 2: the slowest pair's wavelength with a base ten times larger.
const slowerBase = () =>
  prediction({
    question: 'If rope_theta were 10 times larger, the slowest pair’s wavelength would…',
    choices: THREE('grow', 'stay the same', 'shrink'),
    answer: (r) => compare(r.slowestTenfold, r.slowest),
    explain: (r) =>
      `the last pair needs ${shown(r.slowest)} positions for a turn now, ${shown(r.slowestTenfold)} with rope_theta ten times larger.`,
  });

// Step 3: the score after moving both positions by the same amount.
const shiftBoth = () =>
  prediction({
    question: (r) => `Move the query and the key ${r.shift} positions further: the score q_m · k_n will…`,
    choices: THREE('grow', 'stay the same', 'shrink'),
    answer: (r) => compare(r.shifted, r.score),
    explain: (r) => `the score is ${shown(r.score)} before and ${shown(r.shifted)} after moving both.`,
  });

// Step 4: whether the two layouts give the same vector.
const gap = (r) => Math.max(...Array.from(r.qHalf.data, (x, j) => Math.abs(x - r.qInterleaved.data[j])));
const samePairing = () =>
  prediction({
    question: 'Will the half and the interleaved layouts turn q into the same vector?',
    choices: ['yes, the same numbers', 'no, different numbers'],
    answer: (r) => (gap(r) <= 1e-12 * Math.max(1, ...Array.from(r.q.data, Math.abs)) ? 0 : 1),
    explain: (r) => `the largest difference between the two is ${shown(gap(r))}.`,
  });

/** A fresh set of questions for one lesson. */
export const ropeQuestions = () => ({
  sameLength: sameLength(),
  slowerBase: slowerBase(),
  shiftBoth: shiftBoth(),
  samePairing: samePairing(),
});
