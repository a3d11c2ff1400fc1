// What the trained Transformer's heads do on the sort task: trains the default
// TransformerTrainer (seed 0) on 'sort' until it reaches the target held-out
// exact match (or the step cap), then, over held-out examples, prints for every
// layer and head of the three uses the share of attention mass on tokens
// chosen by their content, next to the share those tokens would get from a
// head that spreads its mass evenly (the "even" column).
//
//   node scripts/inspect-sort-heads.mjs [--steps 6000] [--every 250] [--target 0.99]
//                                       [--examples 300] [--seed 0] [--show 3141592653]
//
// Measures (row t of a map is the step that emits output digit y_t; the last
// row, which emits the end token, is left out; x is the input):
//   cross    same     mass on input positions j with x_j = y_t (the digit being emitted)
//            prev     mass on input positions with x_j = y_(t-1) (the digit emitted last)
//            below    mass on input positions with x_j < y_t (digits already used up)
//            above    mass on input positions with x_j > y_t (digits still to come)
//   decoder  last     mass on the newest key (the token fed in at this step: <start> or y_(t-1))
//            start    mass on the <start> key
//            dup      mass on earlier outputs equal to the newest token (how many copies of
//                     y_(t-1) were already emitted: what a sorter must count)
//   encoder  self     mass on the query's own position
//            same     mass on positions holding the query's digit (itself included)
//            below    mass on positions holding a smaller digit
//   every use: spread  the row's entropy over the log of its number of keys
//                      (100% = even over every key, 0% = all on one key; rows
//                      with one key left out); its "even" column is 100%.
import { loadAttention } from '../dist/lib/index.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const maxSteps = option('steps', 6000);
const every = option('every', 250);
const target = option('target', 0.99);
const exampleCount = option('examples', 300);
const seed = option('seed', 0);
const show = args.includes('--show') ? args[args.indexOf('--show') + 1] : '3141592653';

/** Mass of `row` (array) on the indices where `pick(j)` holds, and the share of indices picked. */
function share(row, pick) {
  let mass = 0;
  let picked = 0;
  row.forEach((w, j) => {
    if (pick(j)) {
      mass += w;
      picked += 1;
    }
  });
  return { mass, even: picked / row.length };
}

/** Entropy of `row` over log(keys): 1 for an even spread, 0 for one key. */
function spread(row) {
  let h = 0;
  for (const w of row) if (w > 0) h -= w * Math.log(w);
  return { mass: h / Math.log(row.length), even: 1 };
}

/** Running means of named measures for one (use, layer, head). */
class Tally {
  constructor() {
    this.sums = new Map();
  }
  add(name, { mass, even }) {
    const s = this.sums.get(name) ?? { mass: 0, even: 0, n: 0 };
    s.mass += mass;
    s.even += even;
    s.n += 1;
    this.sums.set(name, s);
  }
  mean(name) {
    const s = this.sums.get(name);
    return s ? { mass: s.mass / s.n, even: s.even / s.n, n: s.n } : null;
  }
}

const a = await loadAttention();
const t = new a.TransformerTrainer({ task: 'sort', seed });
const { layers, heads } = t.options;
console.log(`sort: options ${JSON.stringify(t.options)}, ${t.parameterCount} parameters`);
let accuracy = 0;
while (t.steps < maxSteps) {
  const { loss } = t.train(Math.min(every, maxSteps - t.steps));
  accuracy = t.evaluate(1000);
  console.log(
    `steps ${String(t.steps).padStart(5)}  loss ${loss.toFixed(4)}  held-out exact match ${accuracy.toFixed(3)}`,
  );
  if (accuracy >= target) break;
}

// Distinct held-out examples, drawn by the trainer's seeded sampler.
const examples = new Map();
for (let i = 0; i < exampleCount * 20 && examples.size < exampleCount; i++) {
  const e = t.sample();
  examples.set(e.input, e.target);
}

const tallies = { cross: [], decoderSelf: [], encoderSelf: [] };
for (const use of Object.keys(tallies)) {
  tallies[use] = Array.from({ length: layers }, () => Array.from({ length: heads }, () => new Tally()));
}
let correct = 0;
for (const [input, wanted] of examples) {
  const r = t.translate(input);
  if (r.output === wanted) correct += 1;
  const y = r.output; // measured on what the model emitted, right or wrong
  const x = input;
  for (let l = 0; l < layers; l++) {
    for (let h = 0; h < heads; h++) {
      const cross = r.cross[l][h];
      const dec = r.decoderSelf[l][h];
      const enc = r.encoderSelf[l][h];
      for (let t2 = 0; t2 < y.length; t2++) {
        const row = cross.row(t2);
        const tally = tallies.cross[l][h];
        tally.add(
          'same',
          share(row, (j) => x[j] === y[t2]),
        );
        if (t2 > 0)
          tally.add(
            'prev',
            share(row, (j) => x[j] === y[t2 - 1]),
          );
        tally.add(
          'below',
          share(row, (j) => x[j] < y[t2]),
        );
        tally.add(
          'above',
          share(row, (j) => x[j] > y[t2]),
        );
        if (x.length > 1) tally.add('spread', spread(row));
        // Decoder keys: 0 = <start>, k >= 1 = y_(k-1); row t2 has keys 0..t2.
        const keys = Array.from(dec.row(t2)).slice(0, t2 + 1);
        const d = tallies.decoderSelf[l][h];
        d.add(
          'last',
          share(keys, (k) => k === t2),
        );
        d.add(
          'start',
          share(keys, (k) => k === 0),
        );
        if (t2 > 0)
          d.add(
            'dup',
            share(keys, (k) => k >= 1 && y[k - 1] === y[t2 - 1]),
          );
        if (t2 > 0) d.add('spread', spread(keys));
      }
      for (let i = 0; i < x.length; i++) {
        const row = enc.row(i);
        const e = tallies.encoderSelf[l][h];
        e.add(
          'self',
          share(row, (j) => j === i),
        );
        e.add(
          'same',
          share(row, (j) => x[j] === x[i]),
        );
        e.add(
          'below',
          share(row, (j) => x[j] < x[i]),
        );
        e.add('spread', spread(row));
      }
    }
  }
}

console.log(
  `\n${examples.size} distinct held-out examples after ${t.steps} steps; greedy output correct on ${correct} ` +
    `(${((100 * correct) / examples.size).toFixed(1)}%); all 1000 held-out: ${(100 * accuracy).toFixed(1)}%`,
);
const MEASURES = {
  cross: ['same', 'prev', 'below', 'above', 'spread'],
  decoderSelf: ['last', 'start', 'dup', 'spread'],
  encoderSelf: ['self', 'same', 'below', 'spread'],
};
const pct = (v) => (100 * v).toFixed(1).padStart(5);
const summary = {};
for (const [use, names] of Object.entries(MEASURES)) {
  console.log(`\n${use}: mean share of attention mass (even spread in brackets), %`);
  console.log(`layer head  ${names.map((n) => n.padStart(14)).join('')}`);
  summary[use] = [];
  for (let l = 0; l < layers; l++) {
    for (let h = 0; h < heads; h++) {
      const tally = tallies[use][l][h];
      const cells = names.map((n) => {
        const m = tally.mean(n);
        return `${pct(m.mass)} (${pct(m.even)})`.padStart(14);
      });
      console.log(`${String(l).padStart(5)} ${String(h).padStart(4)}  ${cells.join('')}`);
      summary[use].push({
        layer: l,
        head: h,
        ...Object.fromEntries(names.map((n) => [n, +tally.mean(n).mass.toFixed(4)])),
      });
    }
  }
}
// One input, head by head: the input digit each output step's cross-attention
// weighs most, with its weight (row m, the end token, left out).
const example = t.translate(show);
console.log(
  `\n${show} -> ${example.output}: per cross-attention head, the input digit (position) weighed most at each step`,
);
for (let l = 0; l < layers; l++) {
  for (let h = 0; h < heads; h++) {
    const m = example.cross[l][h];
    const steps = Array.from({ length: example.output.length }, (_, r) => {
      const row = Array.from(m.row(r));
      const j = row.indexOf(Math.max(...row));
      return `${show[j]}@${j} ${(100 * row[j]).toFixed(0)}%`;
    });
    console.log(`layer ${l} head ${h}: ${steps.join(', ')}`);
  }
}
console.log(`\nsort heads summary ${JSON.stringify({ steps: t.steps, accuracy, examples: examples.size, summary })}`);
t.delete();
