// What the chapter may say about a head, measured against two baselines (no
// DOM). For each pattern (a date field read where the input wrote it, the last
// separator watched, the start token as a resting place, a word kept to
// itself) the best head's measure is compared with the same measure on
// (1) uniform attention of the same shape (every visible key the same weight)
// and (2) the same model at initialisation (same options and seed, untrained),
// best of its heads as well, since the claim picks the best of the trained
// heads. A sentence names a head only when its measure clears both by MARGIN.
import { copyAlignment, decoderPatterns, encoderPatterns, fieldAlignment, DEFAULT_INPUT } from './model.js';

const ISO = /^\d{4}-\d{2}-\d{2}$/;

/** The lead over both baselines a head needs before a sentence names it (a share, 0.15 = 15 points). */
export const MARGIN = 0.15;

/** The patterns, each with its use, the tasks it applies to and its measure on one map. */
export const PATTERNS = [
  {
    id: 'field',
    use: 'cross',
    tasks: ['dates'],
    measure: (m, { input, output }) => fieldAlignment(m, input, output),
  },
  {
    id: 'copy',
    use: 'cross',
    tasks: ['reverse', 'sort'],
    measure: (m, { input, output }) => copyAlignment(m, input, output),
  },
  {
    id: 'separator',
    use: 'decoderSelf',
    tasks: ['dates'],
    // Only on a date: in a string of random characters "the last -" is often just the last token.
    measure: (m, { output }) => (ISO.test(output) ? decoderPatterns(m, output).separator : NaN),
  },
  {
    id: 'start',
    use: 'decoderSelf',
    tasks: ['dates', 'reverse', 'sort'],
    measure: (m, { output }) => decoderPatterns(m, output).start,
  },
  {
    id: 'ownRun',
    use: 'encoderSelf',
    tasks: ['dates', 'reverse', 'sort'],
    measure: (m, { input }) => encoderPatterns(m, input).ownRun,
  },
];

/** Uniform attention of shape rows × cols: each row spreads its weight evenly over its visible keys. */
export function uniformMap(rows, cols, causal = false) {
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    const visible = causal ? Math.min(i + 1, cols) : cols;
    for (let j = 0; j < visible; j++) data[i * cols + j] = 1 / visible;
  }
  return { rows, cols, data };
}

/**
 * An initial model's map read at the trained model's shape. It wrote a
 * different string, so its decoder maps have another size: row i is its row i
 * (its last row past its end), over the same key positions (the visible ones
 * when causal), renormalised to sum to 1 (uniform when nothing is left).
 */
export function atShape(map, rows, cols, causal = false) {
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    const from = Math.min(i, map.rows - 1);
    const visible = causal ? Math.min(i + 1, cols) : cols;
    let sum = 0;
    for (let j = 0; j < visible; j++) sum += j < map.cols && from >= 0 ? map.data[from * map.cols + j] : 0;
    for (let j = 0; j < visible; j++) {
      const w = j < map.cols && from >= 0 ? map.data[from * map.cols + j] : 0;
      data[i * cols + j] = sum > 0 ? w / sum : 1 / visible;
    }
  }
  return { rows, cols, data };
}

/** The head with the largest finite measure: { layer, head, value } or null. */
function best(layers, measure) {
  let top = null;
  layers.forEach((heads, layer) =>
    heads.forEach((m, head) => {
      const value = measure(m);
      if (Number.isFinite(value) && (!top || value > top.value)) top = { layer, head, value };
    }),
  );
  return top;
}

/**
 * Every pattern of `task` measured on this translation: [{ id, use, layer,
 * head, value, uniform, init, holds }]. `translation` is the engine's message
 * ({ output, encoderSelf, decoderSelf, cross }, layers × heads of maps) and
 * `baseline` the same model at initialisation on the same input (its maps, or
 * null when not measured: then no claim holds). A pattern the input cannot
 * show (e.g. no field layout for a wrong date) is left out.
 */
export function measuredClaims(translation, baseline, input, task) {
  const context = { input, output: translation.output };
  const claims = [];
  for (const p of PATTERNS) {
    if (!p.tasks.includes(task)) continue;
    const top = best(translation[p.use], (m) => p.measure(m, context));
    if (!top) continue;
    const shape = translation[p.use][0][0];
    const causal = p.use === 'decoderSelf';
    const uniform = p.measure(uniformMap(shape.rows, shape.cols, causal), context);
    const init = baseline
      ? (best(baseline[p.use], (m) => p.measure(atShape(m, shape.rows, shape.cols, causal), context))?.value ?? NaN)
      : NaN;
    const bar = Math.max(uniform, init) + MARGIN;
    claims.push({ id: p.id, use: p.use, ...top, uniform, init, holds: Number.isFinite(bar) && top.value >= bar });
  }
  return claims;
}

/** Inputs the chapter suggests, never the one already typed. */
export function suggestion(input, task) {
  const options = task === 'dates' ? [DEFAULT_INPUT.dates, '3 nov 1999'] : [DEFAULT_INPUT[task]];
  return options.find((s) => s !== input) ?? null;
}
