// What the two training chapters (the RNN's "Neural machine translation with
// attention" and "A Transformer trained in your browser") share of the seq2seq
// tasks, without DOM: labels, the pause-at entry, the checkpoint decoding, the
// status line and the reader's check of a translation.

/** A character in quotes (a space shows as ␣). */
export const quoted = (ch) => `“${ch === ' ' ? '␣' : ch}”`;

/**
 * The URL state entry of a training chapter's "pause at step" field (run-controls.js); 0 = never.
 * @param {string} key the chapter's own URL key
 */
export const pauseAtEntry = (key) => ({ key, name: 'pauseAt', type: 'int', min: 0, max: 1_000_000, default: 0 });

/** Base64 text → bytes (the shipped checkpoint). */
export function decodeBase64(text) {
  const binary = atob(text.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Characters as heatmap labels (a space shows as ␣). */
export const chars = (s) => Array.from(s, (c) => (c === ' ' ? '␣' : c));

/**
 * The training status line of both training chapters (this one and "A
 * Transformer trained in your browser"): step, loss, held-out exact match on
 * 200 `examples`, speed while running, then running or paused, and whether the
 * engine runs on the main thread; `before` and `after` add the chapter's own
 * items around the shared ones. Empty items are left out.
 * @param {{steps: number, loss: number, accuracy: number, stepsPerSecond: number, running: boolean}} s
 */
export function trainingStatus(s, { examples, onMainThread = false, before = [], after = [] }) {
  return [
    ...before,
    `step ${s.steps}`,
    Number.isFinite(s.loss) ? `loss ${s.loss.toFixed(4)}` : null,
    Number.isFinite(s.accuracy) ? `held-out exact match ${(100 * s.accuracy).toFixed(1)}% (200 ${examples})` : null,
    s.running && Number.isFinite(s.stepsPerSecond) ? `${s.stepsPerSecond.toFixed(1)} steps/s` : null,
    ...after,
    s.running ? 'training…' : 'paused',
    onMainThread ? 'on the main thread (this page’s security policy blocks workers)' : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

// ---- the date formats of the training data (cpp/models/seq2seq_tasks.cpp formatDate) ----

/** Every format the dates task draws from, with 21 November 2026 written in it. */
export const DATE_FORMATS = [
  ['d Month yyyy', '21 November 2026'],
  ['d Mon yyyy', '21 Nov 2026'],
  ['Mon d, yyyy', 'Nov 21, 2026'],
  ['Month d, yyyy', 'November 21, 2026'],
  ['Weekday dd/mm/yy', 'Saturday 21/11/26'],
  ['yyyy Mon dth', '2026 Nov 21st'],
  ['d/mm/yyyy', '21/11/2026'],
  ['d.mm.yyyy', '21.11.2026'],
  ['d-mm-yyyy', '21-11-2026'],
  ['yyyy-mm-dd', '2026-11-21'],
  ['yyyy/mm/dd', '2026/11/21'],
  ['Wkd, d Mon yyyy', 'Sat, 21 Nov 2026'],
  ['Weekday, Month d, yyyy', 'Saturday, November 21, 2026'],
  ['the dth of Month yyyy', 'the 21st of November 2026'],
  ['dth Month yyyy', '21st November 2026'],
  ['Mon d yyyy', 'Nov 21 2026'],
  ['d Mon yy', '21 Nov 26'],
  ['yyyymmdd', '20261121'],
  ['Wkd d Mon yyyy', 'Sat 21 Nov 2026'],
  ['dd/mm/yy', '21/11/26'],
  ['Month dth, yyyy', 'November 21st, 2026'],
  ['Weekday dth Month yyyy', 'Saturday 21st November 2026'],
];

const MONTHS = 'january february march april may june july august september october november december'.split(' ');
const DAYS = 'monday tuesday wednesday thursday friday saturday sunday'.split(' ');
const two = (x) => String(x % 100).padStart(2, '0');
const ordinal = (d) => {
  const suffix = d % 100 >= 11 && d % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[d % 10] ?? 'th');
  return `${d}${suffix}`;
};

/**
 * Format `format` (the index in DATE_FORMATS) of a date, in lower case: the
 * dates task's formatDate (cpp/models/seq2seq_tasks.cpp) written again for
 * the chapter's checks; tests/js/site-nmt-model.test.mjs checks it against the
 * trainer's own examples.
 */
export function formatDate(format, y, m, d, padDay) {
  const month = MONTHS[m - 1];
  const mon = month.slice(0, 3);
  const wday = DAYS[((Math.floor(Date.UTC(y, m - 1, d) / 86400000) % 7) + 7 + 3) % 7]; // 1970-01-01: Thursday
  const wd = wday.slice(0, 3);
  const dd = padDay ? two(d) : String(d);
  const [mm, yyyy, yy, th] = [two(m), String(y), two(y), ordinal(d)];
  return [
    `${dd} ${month} ${yyyy}`,
    `${dd} ${mon} ${yyyy}`,
    `${mon} ${dd}, ${yyyy}`,
    `${month} ${dd}, ${yyyy}`,
    `${wday} ${two(d)}/${mm}/${yy}`,
    `${yyyy} ${mon} ${th}`,
    `${dd}/${mm}/${yyyy}`,
    `${dd}.${mm}.${yyyy}`,
    `${dd}-${mm}-${yyyy}`,
    `${yyyy}-${mm}-${two(d)}`,
    `${yyyy}/${mm}/${two(d)}`,
    `${wd}, ${dd} ${mon} ${yyyy}`,
    `${wday}, ${month} ${dd}, ${yyyy}`,
    `the ${th} of ${month} ${yyyy}`,
    `${th} ${month} ${yyyy}`,
    `${mon} ${dd} ${yyyy}`,
    `${dd} ${mon} ${yy}`,
    `${yyyy}${mm}${two(d)}`,
    `${wd} ${dd} ${mon} ${yyyy}`,
    `${two(d)}/${mm}/${yy}`,
    `${month} ${th}, ${yyyy}`,
    `${wday} ${th} ${month} ${yyyy}`,
  ][format];
}

/** Whether `input` is the ISO date `iso` written in one of the formats (any letter case, day padded or not). */
export function readsAs(input, iso) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return false;
  const [y, m, d] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  if (y < 1950 || y > 2049 || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return false;
  const text = input.toLowerCase();
  return DATE_FORMATS.some((_, k) => formatDate(k, y, m, d, false) === text || formatDate(k, y, m, d, true) === text);
}

/**
 * The check a reader can make of a dates translation: written back in the
 * formats the model learned, does the output say what the input says? A
 * message when it does not (a model can be sure and wrong), else null.
 */
export function formatWarning(input, output) {
  if (output === '' || readsAs(input, output)) return null;
  return `Check: ${quoted(output)} is not ${quoted(input)} in any of the ${DATE_FORMATS.length} formats it learned (numbers day first, dd/mm; years 1950–2049; the weekday must match): a guess, however sure the model is.`;
}

/** The reader's check of a translation for either task (null when it holds). */
export function translationCheck(task, input, output) {
  if (task === 'dates') return formatWarning(input, output);
  const reversed = Array.from(input).reverse().join('');
  if (output === reversed || output === '') return null;
  return `Check: the reverse of ${quoted(input)} is ${quoted(reversed)}, not ${quoted(output)}.`;
}
