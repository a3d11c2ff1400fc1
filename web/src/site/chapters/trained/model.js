// The pure parts of the chapter "A Transformer trained in your browser" (no
// DOM): its permalink schema, the labels of the three uses' maps, and the
// measures that say what a trained head does on the reader's input
// (claims.js compares them with uniform attention and the model at
// initialisation before a sentence names a head), and the measured speeds in
// words. The model itself trains in lesson-kit/nmt-engine.js through the API's
// TransformerTrainer.
import { tracedApi } from '../../explain/traced-api.js';
import { chars, pauseAtEntry } from '../../lesson-kit/seq2seq-model.js';

export const DEFAULT_INPUT = { dates: '21 November 2026', reverse: '12345678', sort: '31415926' };
export const MAX_INPUT = 40;
export const TASKS = [
  ['dates', 'Dates → ISO yyyy-mm-dd'],
  ['reverse', 'Reverse a string of digits'],
  ['sort', 'Sort digits ascending'],
];
export const START = '▶'; // the decoder's start token, as a label
export const END = '■'; // the end token the last decoder step produces

/** The three uses of attention in the Transformer, in the order of the paper's figure. */
export const USES = [
  {
    id: 'encoderSelf',
    name: 'encoder self-attention',
    short: 'encoder self',
    rows: 'input characters (queries)',
    cols: 'input characters (keys)',
  },
  {
    id: 'decoderSelf',
    name: 'masked decoder self-attention',
    short: 'decoder self (masked)',
    rows: 'decoder steps (queries): the step that writes each output character',
    cols: 'characters the decoder has read (keys): the start token, then what it wrote',
  },
  {
    id: 'cross',
    name: 'encoder–decoder attention',
    short: 'encoder–decoder',
    rows: 'decoder steps (queries): the step that writes each output character',
    cols: 'input characters (keys), through the encoder’s outputs',
  },
];
export const USE_IDS = USES.map((u) => u.id);

/** The permalink state (url-state.js). An absent input means the task's default. */
export const SCHEMA = [
  { key: 'xq', name: 'input', type: 'string', maxLength: MAX_INPUT, default: null },
  { key: 'xu', name: 'use', type: 'enum', values: USE_IDS, default: 'cross' },
  { key: 'xl', name: 'layer', type: 'int', min: 0, max: 5, default: 1 },
  { key: 'xh', name: 'head', type: 'int', min: 0, max: 7, default: 0 },
  pauseAtEntry('xs'),
];

/**
 * Row and column labels of one use's maps. With n input characters and m
 * output characters: encoder self-attention is n × n; the decoder's maps have
 * m + 1 rows (row t is the step that writes output character t; the last row
 * writes the end token); its self-attention keys are the start token and the
 * m characters written.
 */
export function labelsFor(use, input, output) {
  const source = chars(input);
  const steps = [...chars(output), END];
  if (use === 'encoderSelf') return { rowLabels: source, colLabels: source };
  if (use === 'decoderSelf') return { rowLabels: steps, colLabels: [START, ...chars(output)] };
  return { rowLabels: steps, colLabels: source };
}

const get = (m, i, j) => m.data[i * m.cols + j];
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Maximal runs of letters or digits in `text`: [{text, start, end}] (end exclusive). */
function runs(text) {
  return [...text.matchAll(/[a-zA-Z]+|[0-9]+/g)].map((m) => ({
    text: m[0],
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/**
 * Where the date fields of an ISO `output` (yyyy-mm-dd) are in `input`:
 * { year: [start, end], month: [...], day: [...] } as character spans, or null
 * when the input does not show each field once (e.g. "11/11/11", or a wrong
 * translation). Used only to measure the maps, never to translate.
 */
export function dateFields(input, output) {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(output);
  if (!iso) return null;
  const [, year, month, day] = iso;
  const parts = runs(input);
  const numbers = parts.filter((p) => /^[0-9]/.test(p.text));
  const words = parts.filter((p) => /^[a-zA-Z]/.test(p.text));
  const unique = (list) => (list.length === 1 ? list[0] : null);
  const y = unique(numbers.filter((p) => p.text === year || (p.text.length === 2 && p.text === year.slice(2))));
  const d = unique(numbers.filter((p) => p !== y && Number(p.text) === Number(day)));
  const monthName = MONTHS[Number(month) - 1];
  const m =
    unique(words.filter((p) => p.text.toLowerCase().startsWith(monthName))) ??
    unique(numbers.filter((p) => p !== y && p !== d && Number(p.text) === Number(month)));
  if (!y || !m || !d) return null;
  if (new Set([y, m, d]).size !== 3) return null;
  return { year: [y.start, y.end], month: [m.start, m.end], day: [d.start, d.end] };
}

const ISO_FIELD = ['year', 'year', 'year', 'year', null, 'month', 'month', null, 'day', 'day'];

/**
 * Cross-attention on a date: for each output digit, the share of the step's
 * weight that lands on the input characters of the same field (the year's
 * digits on the input's year, and so on), averaged over the 8 digits. NaN when
 * dateFields cannot place the fields.
 */
export function fieldAlignment(cross, input, output) {
  const fields = dateFields(input, output);
  if (!fields) return NaN;
  const shares = [];
  for (let t = 0; t < ISO_FIELD.length; t++) {
    const field = ISO_FIELD[t];
    if (!field) continue;
    const [start, end] = fields[field];
    let share = 0;
    for (let j = start; j < end; j++) share += get(cross, t, j);
    shares.push(share);
  }
  return mean(shares);
}

/**
 * Cross-attention on a copy task (reverse, sort): for each output character
 * that occurs in the input, the share of the step's weight on input
 * characters equal to it, averaged over those steps.
 */
export function copyAlignment(cross, input, output) {
  const source = Array.from(input);
  const written = Array.from(output);
  const shares = [];
  written.forEach((c, t) => {
    if (t >= cross.rows - 1 || !source.includes(c)) return;
    let share = 0;
    source.forEach((s, j) => {
      if (s === c) share += get(cross, t, j);
    });
    shares.push(share);
  });
  return mean(shares);
}

/**
 * Decoder self-attention: the average share of each step's weight on the
 * start token, on the token it has just read (the diagonal: the character
 * written last), and on the last '-' written (where a date's field begins).
 * Row 0 is left out: it can only see the start token.
 */
export function decoderPatterns(self, output) {
  const written = [START, ...Array.from(output)];
  const start = [];
  const current = [];
  const separator = [];
  for (let t = 1; t < self.rows; t++) {
    start.push(get(self, t, 0));
    current.push(get(self, t, t));
    const last = written.slice(0, t + 1).lastIndexOf('-');
    if (last > 0) separator.push(get(self, t, last));
  }
  return { start: mean(start), current: mean(current), separator: mean(separator) };
}

/**
 * Encoder self-attention: the average share of each input character's weight
 * on its own run (the letters or digits of the same word or number), and on
 * itself.
 */
export function encoderPatterns(self, input) {
  const parts = runs(input);
  const runOf = Array.from(input, (_, i) => parts.find((p) => p.start <= i && i < p.end) ?? null);
  const own = [];
  const itself = [];
  for (let i = 0; i < self.rows; i++) {
    itself.push(get(self, i, i));
    const r = runOf[i];
    if (!r) continue;
    let share = 0;
    for (let j = r.start; j < r.end; j++) share += get(self, i, j);
    own.push(share);
  }
  return { ownRun: mean(own), itself: mean(itself) };
}

/** "layer 2, head 3" (1-based, as the figures' labels). */
export const headName = ({ layer, head }) => `layer ${layer + 1}, head ${head + 1}`;
/** 0.8731 → "87%". */
export const percent = (x) => `${Math.round(100 * x)}%`;

/** Checks the input against the trainer's alphabet: the first character it cannot read, or null. */
export function unreadable(input, alphabet) {
  for (const c of input) if (!alphabet.includes(c)) return c;
  return null;
}

// ---- the measured speeds (training-speed.js), in words
/** "Transformer" or "RNN with attention", from a speed result's model. */
export const speedModelName = (r) => (r.model.startsWith('transformer') ? 'Transformer' : 'RNN with attention');
const times = (a, b) => `${(Math.max(a, b) / Math.min(a, b)).toFixed(1)}×`;

/** One sentence per task from the measured speeds: which model needs fewer steps, and which step is faster. */
export function speedSentence(speed) {
  const tasks = [...new Set(speed.results.map((r) => r.task ?? 'dates'))];
  return tasks
    .map((task) => {
      const rows = speed.results.filter((r) => (r.task ?? 'dates') === task);
      const t = rows.find((r) => speedModelName(r) === 'Transformer');
      const r = rows.find((x) => speedModelName(x) !== 'Transformer');
      if (!t || !r || !t.reached || !r.reached) return null;
      const fewer = t.stepsToTarget <= r.stepsToTarget ? [t, r] : [r, t];
      const faster = t.stepsPerSecondCpu >= r.stepsPerSecondCpu ? [t, r] : [r, t];
      const [sooner, later] = t.secondsToTargetCpu <= r.secondsToTargetCpu ? [t, r] : [r, t];
      const name = speedModelName;
      const count = (x) => x.stepsToTarget.toLocaleString('en');
      return (
        `On ${task}, the ${name(fewer[0])} reaches 99% in ${count(fewer[0])} steps against the ${name(fewer[1])}’s ${count(fewer[1])} ` +
        `(${times(fewer[0].stepsToTarget, fewer[1].stepsToTarget)} fewer), while the ${name(faster[0])} takes ${times(faster[0].stepsPerSecondCpu, faster[1].stepsPerSecondCpu)} ` +
        `more steps per second (${faster[0].stepsPerSecondCpu.toFixed(1)} against ${faster[1].stepsPerSecondCpu.toFixed(1)}); so the ${name(sooner)} gets there first ` +
        `(${sooner.secondsToTargetCpu.toFixed(1)} s against ${later.secondsToTargetCpu.toFixed(1)} s of CPU time).`
      );
    })
    .filter(Boolean)
    .join(' ');
}

/**
 * Why the numbers of speedSentence come out as they do, said only for the direction the
 * measurements show (on the dates task): the reasons are the models' designs, not measured
 * one by one here, and the sentence says so.
 */
export function speedWhy(speed) {
  const rows = speed.results.filter((r) => (r.task ?? 'dates') === 'dates');
  const t = rows.find((r) => speedModelName(r) === 'Transformer');
  const r = rows.find((x) => speedModelName(x) !== 'Transformer');
  if (!t?.reached || !r?.reached) return '';
  const parts = [];
  if (r.stepsToTarget < t.stepsToTarget)
    parts.push(
      'the RNN reads the characters in order by construction, while the Transformer must learn order from the positional encoding of step 2, and its warm-up schedule keeps the learning rate small for its first steps',
    );
  if (t.stepsPerSecondCpu > r.stepsPerSecondCpu)
    parts.push(
      'a Transformer step computes every position of a sentence with a few large matrix products, while the GRU must finish one character before it can start the next',
    );
  return parts.length ? `Why, by design (the benchmark does not separate these causes): ${parts.join('; and ')}.` : '';
}

// ---- the engine's numbers recorded as the API records its own (../explain/traced-api.js)

/** The tensor of one head's weights, and of one use and layer's queries ('Q') or keys ('K'). */
export const headTensor = (use, layer, head) => `${use}.L${layer}.H${head}.weights`;
export const projectionTensor = (use, layer, which) => `${use}.L${layer}.${which}`;
/** What one use and layer's queries ('Q') or keys ('K') were computed from: part 'x', 'W' or 'b' of x W + b. */
export const sourceTensor = (use, layer, which, part) => `${use}.L${layer}.${which}.${part}`;
/** The translation's fields of each part, for the queries and the keys. */
export const SOURCE_FIELDS = {
  Q: { x: 'queryInputs', W: 'queryWeights', b: 'queryBiases' },
  K: { x: 'keyInputs', W: 'keyWeights', b: 'keyBiases' },
};

/**
 * Every head of every layer of the three uses of `translation` (the engine's
 * message) for `input`: the queries and keys the engine sent are recorded as
 * the projections x W + b of the rows, weights and biases it also sent, and
 * each map as the softmax of q·k/√d_k over them, so any cell of any head
 * explains itself down to the dot product and each q or k down to its layer's
 * input (a head's blocks and scores are computed only when a reader hovers one of its cells).
 */
export function traceTranslation(api, trace, translation, input) {
  const t = tracedApi(api, trace);
  // Q = x W_q + b_q (K likewise), as the model computed it: x, W and b recorded as its inputs.
  const projection = (use, layer, which, labels) => {
    const letter = which.toLowerCase();
    const part = (p) => translation[SOURCE_FIELDS[which][p]][use][layer];
    const name = (p) => sourceTensor(use, layer, which, p);
    const x = t.input(name('x'), part('x'), { symbol: `X_${letter}`, row: 'x', rowLabels: labels });
    const W = t.input(name('W'), part('W'), { symbol: `W_${letter}` });
    const b = t.input(name('b'), part('b'), { symbol: `b_${letter}` });
    const names = { symbol: which, row: letter, rowLabels: labels };
    return t
      .name(projectionTensor(use, layer, which), names)
      .record('linear', [x, W, b], translation[which === 'Q' ? 'queries' : 'keys'][use][layer]);
  };
  for (const use of USE_IDS) {
    const { rowLabels, colLabels } = labelsFor(use, input, translation.output);
    translation[use].forEach((heads, layer) => {
      const Q = projection(use, layer, 'Q', rowLabels);
      const K = projection(use, layer, 'K', colLabels);
      const names = { prefix: `${use}.L${layer}.`, heads: (h) => `H${h}.` };
      t.name(names).record('attentionHeads', [Q, K, { causal: use === 'decoderSelf' }], { weights: heads });
    });
  }
}

/** The positional encoding the model adds (the engine's 'ready' message). */
export const tracePositions = (trace, pe) =>
  tracedApi(null, trace).name('pe', { symbol: 'PE' }).record('positional', [pe.cols], pe);

/**
 * The RNN's W_a of Luong's general score, sliced from its parameters (the checkpoint's, in
 * cpp/models/seq2seq_model.h's seq2seqLayout order): after the input embedding (V × E), the
 * encoder's two GRUs (W: E × 3H, U: H × 3H, b: 1 × 3H each), the output embedding (W × E) and
 * the decoder's GRU comes att.W (H × H), held in × out: the score is (h_t W_a) · s_j.
 * V = 1 + the input alphabet (id 0 pads), W = 2 + the output alphabet (ids 0 end, 1 start).
 */
export function rnnScoreWeights(parameters, { inputAlphabet, outputAlphabet, embedding: E, hidden: H }) {
  const gru = E * 3 * H + H * 3 * H + 3 * H;
  const offset = (1 + inputAlphabet.length) * E + 2 * gru + (2 + outputAlphabet.length) * E + gru;
  if (offset + H * H > parameters.length) throw new RangeError('rnnScoreWeights: the parameters end before att.W');
  return { rows: H, cols: H, data: Float64Array.from(parameters.subarray(offset, offset + H * H)) };
}

/**
 * The RNN's attention (rows: output characters, columns: input characters) down to its
 * inputs: the decoder states h_t and encoder outputs s_j it sent. With Luong's general score
 * (Wa given) the projected queries h_t W_a are computed here by the API and each score is
 * their dot product with s_j; with Luong's dot score (dot) it is h_t · s_j; any other score
 * is recorded as the trainer gave it. The weights are the scores' softmax.
 */
export function traceRnn(api, trace, r, { Wa = null, dot = false, rowLabels, colLabels }) {
  const t = tracedApi(api, trace);
  if (!Wa && !dot) t.input('rnn.scores', r.scores, { symbol: 'e', rowLabels, colLabels });
  else {
    const states = t.input('rnn.states', r.decoderStates, { symbol: 'h', row: 'h', rowLabels });
    const encoder = t.input('rnn.encoder', r.encoderOutputs, { symbol: 's', row: 's', rowLabels: colLabels });
    const queries = Wa
      ? t
          .name('rnn.queries', { symbol: 'hW', row: 'hW', rowLabels })
          .matmul(states, t.input('rnn.Wa', Wa, { symbol: 'W_a' }))
      : states;
    t.name('rnn.scores', { symbol: 'e', rowLabels, colLabels }).record('attentionScores', [queries, encoder], r.scores);
  }
  t.name('rnn.weights', { symbol: 'α', rowLabels, colLabels }).record('softmax', [r.scores], r.attention);
}
