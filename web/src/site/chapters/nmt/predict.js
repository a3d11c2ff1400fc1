// The NMT chapter's questions (../../predict.js), answered from the live
// translation (the engine's message), or not asked when there is none.
import { shown } from '../../explain/format.js';
import { rowOf } from '../../explain/names.js';
import { clearArgmax, prediction, ranked } from '../../predict.js';

const quoted = (ch) => `“${ch === ' ' ? '␣' : ch}”`;
const NONE = 'there is no translation to look at.';

/** The first two positions holding the same character, or null. */
function repeated(text) {
  const list = Array.from(text);
  for (let j = 0; j < list.length; j++) {
    const k = list.indexOf(list[j], j + 1);
    if (k > j) return [j, k];
  }
  return null;
}

const distance = (m, j, k) => Math.hypot(...rowOf(m, j).map((v, c) => v - m.data[k * m.cols + c]));

/**
 * Two equal characters: will their states be the same? The measure is the
 * Euclidean distance of the two rows (recurrence gives each its own context).
 */
function sameCharacter({ what, text, states, unit }) {
  const pair = (r) => (r ? repeated(text(r)) : null);
  return prediction({
    question: (r) => {
      const p = pair(r);
      if (!p) return `Will two equal ${what} get the same ${unit}?`;
      const ch = quoted(Array.from(text(r))[p[0]]);
      return `Characters ${p[0] + 1} and ${p[1] + 1} are both ${ch}. Will their ${unit}s be the same?`;
    },
    choices: ['the same', 'different'],
    answer: (r) => {
      const p = pair(r);
      return p && states(r).rows > p[1] ? (distance(states(r), ...p) > 1e-9 ? 1 : 0) : null;
    },
    explain: (r) => {
      const p = pair(r);
      if (!p || states(r).rows <= p[1]) return r ? `no character repeats in ${quoted(text(r))}.` : NONE;
      return `the distance between rows ${p[0] + 1} and ${p[1] + 1} is ${shown(distance(states(r), ...p))}: each ${unit} depends on what came before${what === 'input characters' ? ' and after' : ''}, not only on the character.`;
    },
  });
}

const inputChoices = (r) => (r ? Array.from(r.input, (ch, j) => `${quoted(ch)} (${j + 1})`) : []);
const firstLook = () =>
  prediction({
    question: (r) =>
      r
        ? `Writing its first character, ${quoted(Array.from(r.output)[0])}, which input character will the model attend to most?`
        : '',
    choices: inputChoices,
    answer: (r) => (r && r.attention.rows > 0 ? clearArgmax(rowOf(r.attention, 0)) : null),
    explain: (r) => {
      if (!r || r.attention.rows === 0) return NONE;
      const weights = rowOf(r.attention, 0);
      const [first, second] = ranked(weights);
      const labels = inputChoices(r);
      const next = second === undefined ? '' : `; next ${labels[second]} with ${shown(weights[second])}`;
      return `its largest weight is on ${labels[first]}, α = ${shown(weights[first])}${next}.`;
    },
  });

/** A fresh set of questions for one lesson. */
export const nmtQuestions = () => ({
  encoder: sameCharacter({
    what: 'input characters',
    text: (r) => r.input,
    states: (r) => r.encoderOutputs,
    unit: 'encoder output',
  }),
  decoder: sameCharacter({
    what: 'output characters',
    text: (r) => r.output,
    states: (r) => r.decoderStates,
    unit: 'decoder state',
  }),
  attention: firstLook(),
});
