// The one table of each trainer's options. Everything else about an option is
// made from its row: scripts/build-trainer-options.mjs writes the C++ struct,
// its defaults, its value checks and the Embind field list
// (cpp/models/*_options.h) and the TypeScript interface (the generated block of
// index.d.ts); trainer.js reads and type-checks options with it; and
// tests/js/trainer-options.test.mjs regenerates both files and diffs them, and
// tries every bound and wrong type of every row against the built core.
//
// A row: name; type 'string' (one of `values`), 'int' (int32 in C++, in
// [min, max]), 'uint32' or 'number' (double, in min..max, the ends open when
// minOpen/maxOpen); default; doc (the first words of its documentation, the
// range and default are added); tsType for string enums; note, more text for
// the docs; even (an int that must be even: the reason); divides (an int that
// must divide the named int option).

const freezeRow = (row) => Object.freeze({ ...row, ...(row.values && { values: Object.freeze([...row.values]) }) });

const SEED = freezeRow({
  name: 'seed',
  type: 'uint32',
  default: 0,
  doc: "Seed of the trainer's generator (initial weights, training examples)",
});
/** The mini-batch size, the same range for both trainers; `note` says what one step may cost. */
const batch = (note) =>
  freezeRow({ name: 'batch', type: 'int', min: 1, max: 512, default: 32, doc: 'Examples per mini-batch B', note });
const TASK = freezeRow({
  name: 'task',
  type: 'string',
  values: ['dates', 'reverse', 'sort'],
  tsType: 'Seq2SeqTask',
  default: 'dates',
  doc: 'The translation task',
});

/** Seq2SeqTrainer (cpp/models/seq2seq_options.h). */
export const SEQ2SEQ_OPTIONS = Object.freeze(
  [
    TASK,
    {
      name: 'attention',
      type: 'string',
      values: ['bahdanau', 'luong-dot', 'luong-general', 'luong-concat'],
      tsType: 'Seq2SeqAttention',
      default: 'luong-general',
      doc: 'The score function',
    },
    { name: 'hidden', type: 'int', min: 1, max: 256, default: 64, doc: 'GRU state size H' },
    { name: 'embedding', type: 'int', min: 1, max: 256, default: 32, doc: 'Character embedding size E' },
    batch(
      'One step may do at most 2,048 default-size examples of work (batch × (hidden·(hidden+embedding) + 256) / 6400): ' +
        'at hidden 256, embedding 256, batch ≤ 99; more throws a RangeError when the trainer is made, naming the largest batch.',
    ),
    { name: 'learningRate', type: 'number', min: 0, minOpen: true, max: 1, default: 0.005, doc: "Adam's step size" },
    SEED,
  ].map(freezeRow),
);

/** TransformerTrainer (cpp/models/transformer_options.h). */
export const TRANSFORMER_OPTIONS = Object.freeze(
  [
    TASK,
    { name: 'layers', type: 'int', min: 1, max: 6, default: 2, doc: 'Encoder layers and decoder layers (each)' },
    { name: 'heads', type: 'int', min: 1, max: 16, default: 4, divides: 'dModel', doc: 'Attention heads h' },
    {
      name: 'dModel',
      type: 'int',
      min: 2,
      max: 256,
      default: 32,
      even: 'sine and cosine pairs',
      doc: 'Model width d_model',
    },
    { name: 'dFF', type: 'int', min: 1, max: 1024, default: 64, doc: 'Feed-forward width d_ff' },
    batch(
      'One step may do at most 2,048 default-size examples of work and use an estimated 1 GiB: at the largest sizes ' +
        '(layers 6, heads 16, dModel 256, dFF 1024) batch ≤ 10. More throws a RangeError when the trainer is made, naming the largest batch.',
    ),
    {
      name: 'schedule',
      type: 'string',
      values: ['warmup', 'constant'],
      tsType: 'TransformerSchedule',
      default: 'warmup',
      doc: 'The learning-rate schedule',
      note:
        "`'warmup'`: rate = learningRate · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5) (the paper's schedule " +
        "times a factor); `'constant'`: rate = learningRate.",
    },
    {
      name: 'learningRate',
      type: 'number',
      min: 0,
      minOpen: true,
      max: 10,
      default: 1,
      doc: 'Factor of the warm-up schedule, or the constant rate',
    },
    { name: 'warmup', type: 'int', min: 1, max: 100000, default: 200, doc: 'Warm-up steps' },
    {
      name: 'labelSmoothing',
      type: 'number',
      min: 0,
      max: 1,
      maxOpen: true,
      default: 0,
      doc: 'Label smoothing ε',
      note: 'The target is (1 − ε)·one-hot + ε/vocabulary.',
    },
    SEED,
  ].map(freezeRow),
);

/** The range an option's value must be in, as messages and docs write it: "[1, 256]", "(0, 1]". */
export function rangeText(row) {
  if (row.type === 'uint32') return '[0, 4294967295]';
  return `${row.minOpen ? '(' : '['}${row.min}, ${row.max}${row.maxOpen ? ')' : ']'}`;
}
