// The pure parts of the "Neural machine translation with attention" chapter
// (no DOM): its choices, its permalink schema, the label helpers and the
// readouts built from a translation's numbers. The model itself trains in
// lesson-kit/nmt-engine.js (through the API's Seq2SeqTrainer).

import { rowCells, shown, softmaxText } from '../../explain/format.js';
// The parts the Transformer chapter shares with this one live in the lesson kit.
import { pauseAtEntry, quoted } from '../../lesson-kit/seq2seq-model.js';
export {
  pauseAtEntry,
  decodeBase64,
  chars,
  trainingStatus,
  DATE_FORMATS,
  formatDate,
  readsAs,
  formatWarning,
  translationCheck,
} from '../../lesson-kit/seq2seq-model.js';

export const DEFAULT_INPUT = { dates: 'Saturday 21/11/26', reverse: '12345678' };
export const MAX_INPUT = 40; // characters, like the input box
export const TASKS = [
  ['dates', 'Dates → ISO yyyy-mm-dd'],
  ['reverse', 'Reverse a string of digits'],
];
export const SCORES = [
  ['luong-general', 'Luong general: hₜᵀ W sⱼ'],
  ['luong-dot', 'Luong dot: hₜᵀ sⱼ'],
  ['luong-concat', 'Luong concat: vᵀ tanh(W[hₜ; sⱼ])'],
  ['bahdanau', 'Bahdanau additive: vᵀ tanh(W₁hₜ + W₂sⱼ + b)'],
];

/** The permalink state (url-state.js). An absent input means the task's default. */

export const SCHEMA = [
  { key: 'task', type: 'enum', values: TASKS.map(([id]) => id), default: 'dates' },
  { key: 'score', type: 'enum', values: SCORES.map(([id]) => id), default: 'luong-general' },
  { key: 'q', name: 'input', type: 'string', maxLength: MAX_INPUT, default: null },
  pauseAtEntry('stop'),
];

/** Hidden-unit labels: every eighth numbered. */
export const units = (n) => Array.from({ length: n }, (_, i) => (i % 8 === 0 ? `${i}` : '')); // 0-based, as NumPy

// ---- the translation's numbers, as the chapter explains them --------------
// A translation here is the engine's message: { input, output, attention,
// scores, probabilities, outputAlphabet } with plain {rows, cols, data}
// matrices (Seq2SeqTrainer.translate's, copied to the page).

const at = (m, r, c) => m.data[r * m.cols + c];
const rowOf = (m, r) => Array.from({ length: m.cols }, (_, c) => at(m, r, c));

/** Column k of the output probabilities as a reader sees it: the end symbol, “?” for the start symbol, else the character. */
export function tokenName(k, outputAlphabet) {
  if (k === 0) return 'end';
  if (k === 1) return '?';
  return outputAlphabet[k - 2];
}

/** Below this probability an output character is flagged as a guess. */
export const LOW_CONFIDENCE = 0.9;

/**
 * Each output character with the probability the model gave it and its
 * runner-up: [{ char, p, runnerUp: { char, p } }], in output order.
 */
export function characterConfidence({ output, probabilities, outputAlphabet }) {
  const outChars = Array.from(output);
  return outChars.map((char, t) => {
    const p = rowOf(probabilities, t);
    const order = p.map((_, k) => k).sort((a, b) => p[b] - p[a]);
    return {
      char,
      p: p[order[0]],
      runnerUp: { char: tokenName(order[1], outputAlphabet), p: p[order[1]] },
    };
  });
}

/** The warning under a translation with guessed characters, or null when every character is sure. */
export function confidenceWarning(confidence) {
  const unsure = confidence.map((c, t) => [c, t]).filter(([c]) => c.p < LOW_CONFIDENCE);
  if (unsure.length === 0) return null;
  const list = unsure
    .slice(0, 4)
    .map(
      ([c, t]) =>
        `${quoted(c.char)} at ${t + 1} (${shown(c.p)}, else ${quoted(c.runnerUp.char)} ${shown(c.runnerUp.p)})`,
    )
    .join(', ');
  const more = unsure.length > 4 ? ` and ${unsure.length - 4} more` : '';
  return `Low confidence: ${unsure.length} of ${confidence.length} characters have a probability under ${LOW_CONFIDENCE}: ${list}${more}.`;
}

/**
 * The provenance of attention cell (r, c): output step r's weight on input
 * character c as the softmax of that step's scores (every score written out),
 * and what the step wrote with its probability. Sources: the decoder state of
 * step r, the encoder output of character c, the output character r.
 */
export function explainAttention(t, r, c) {
  const inChars = Array.from(t.input);
  const scores = rowOf(t.scores, r);
  const weights = rowOf(t.attention, r);
  const { char, p, runnerUp } = characterConfidence(t)[r];
  const listed = scores
    .map((s, j) => (j === c ? `[${quoted(inChars[j])} ${shown(s)}]` : `${quoted(inChars[j])} ${shown(s)}`))
    .join(', ');
  const text =
    `Output step ${r + 1} wrote ${quoted(char)} with probability ${shown(p)} (runner-up ${quoted(runnerUp.char)}, ${shown(runnerUp.p)}). ` +
    `Its weight on input character ${c + 1} ${quoted(inChars[c])} is the softmax of the step’s scores: ` +
    `${softmaxText(`α${r + 1},${c + 1}`, scores, weights, c)}. ` +
    `Scores of step ${r + 1}: ${listed}.`;
  return {
    text,
    sources: {
      decoder: rowCells(r, t.decoderStates?.cols ?? 0),
      encoder: rowCells(c, t.encoderOutputs?.cols ?? 0),
      output: [[0, r]],
    },
  };
}

/**
 * What an output with nothing to draw (or with "?") means, or null. An
 * untrained model's first most likely token is often the end symbol (it writes
 * nothing) or the start symbol, which is no character and is printed as “?”.
 */
export function outputNote(output, steps = 1) {
  if (output === '') {
    return 'The model wrote nothing: at its first step the end symbol was its most likely token, so there is no output character and no row of attention to draw. An untrained model (random weights) often does this; press Start and the plot appears as it learns.';
  }
  if (output.includes('?')) {
    return 'A “?” is a step where the most likely token was the start symbol. That symbol only begins a translation and is no character, so a trained model never predicts it; an untrained one (random weights) can.';
  }
  if (steps === 0) {
    return 'This model is untrained (random weights): its characters are noise and its attention has learned nothing yet. Press Start and watch the plot change as it learns.';
  }
  return null;
}

/** A reader's message for an input the model cannot read, or null when it can. */
export function inputProblem(input, { alphabet, maxLength, task }) {
  const list = Array.from(input);
  if (list.length === 0) return task === 'dates' ? 'Type a date to translate.' : 'Type some digits to reverse.';
  if (list.length > maxLength) {
    return `That is ${list.length} characters; the model reads at most ${maxLength}.`;
  }
  const known = task === 'dates' ? 'letters a–z and A–Z, digits, spaces and , . / -' : 'the digits 0–9';
  const bad = list.findIndex((ch) => !alphabet.includes(ch));
  if (bad >= 0) {
    return `The model cannot read ${quoted(list[bad])} (character ${bad + 1}): it only learned ${known}`;
  }
  return null;
}

// ---- how fast reversal learns (measured: scripts/measure-nmt-reversal.mjs, checked by tests/js/site-nmt-model.test.mjs) ----

/** First step at which a run of [step, accuracy] reaches each level (null if never). */
export function milestones(run, levels) {
  return levels.map((level) => run.find(([, accuracy]) => accuracy >= level)?.[0] ?? null);
}

/**
 * What playback step i shows: the character written and the input character
 * it attended to most (with its weight).
 */
export function playbackCaption(t, i) {
  const outChars = Array.from(t.output);
  const inChars = Array.from(t.input);
  const weights = rowOf(t.attention, i);
  const best = weights.indexOf(Math.max(...weights));
  return `Output character ${i + 1} of ${outChars.length}: ${quoted(outChars[i])}, written while looking most at input character ${best + 1} ${quoted(inChars[best])} (weight ${shown(weights[best])}).`;
}

/**
 * Trains the reversal task from scratch as the chapter's Reset does (default
 * options, seed 0, Luong general) and reads the held-out exact match every
 * `every` steps: [[step, accuracy]] up to the first step at or above the
 * highest level (or `limit` steps). `api` is the loaded attention-lab API.
 */
export function measureReversal(api, { every = 10, limit = 3000, evaluated = 200, levels = [0.5, 0.9, 0.99] } = {}) {
  const trainer = new api.Seq2SeqTrainer({ task: 'reverse', attention: 'luong-general', seed: 0 });
  const run = [];
  try {
    while (trainer.steps < limit) {
      trainer.train(every);
      const accuracy = trainer.evaluate(evaluated);
      run.push([trainer.steps, accuracy]);
      if (accuracy >= levels[levels.length - 1]) break;
    }
  } finally {
    trainer.delete();
  }
  return { run, steps: milestones(run, levels) };
}

// Measured by scripts/measure-nmt-reversal.mjs (the chapter's Reset: reverse,
// Luong general, seed 0, batch 32; exact match on the first 200 held-out
// strings, checked every 10 steps); tests/js/site-nmt-model.test.mjs measures again.
const REVERSAL_STEPS = { 50: 60, 90: 320, 99: 2290 };
export const REVERSAL_MILESTONES = {
  every: 10,
  evaluated: 200,
  steps: REVERSAL_STEPS,
  text: `50 % of 200 held-out strings reversed exactly after ${REVERSAL_STEPS[50]} training steps, 90 % after ${REVERSAL_STEPS[90]}, 99 % after ${REVERSAL_STEPS[99]} (batches of 32 strings; checked every 10 steps)`,
};

/**
 * The measured alignment of a reversal: how many output digits give their
 * largest weight to their mirror input digit (output i to input n + 1 − i), or
 * null for the dates task or an output of another length.
 */
export function alignmentNote(task, t) {
  const [rows, n] = [t.attention.rows, t.attention.cols];
  if (task !== 'reverse' || rows !== n) return null;
  let mirrored = 0;
  for (let i = 0; i < rows; i++) {
    const weights = rowOf(t.attention, i);
    if (weights.indexOf(Math.max(...weights)) === n - 1 - i) mirrored++;
  }
  const verdict = mirrored === rows ? 'a clean anti-diagonal' : mirrored === 0 ? 'no anti-diagonal yet' : 'part of one';
  return `Measured: ${mirrored} of ${rows} output digits look most at their mirror input digit (output i at input ${n} + 1 − i): ${verdict}.`;
}
