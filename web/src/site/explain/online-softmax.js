// The running state of the online softmax (onlineSoftmaxAttention), one cell per
// query and key block: runningMax m[i][b], the largest score of query i among the
// keys of blocks 1 … b, and runningSum ℓ[i][b] = ℓ[i][b−1]·e^(m[i][b−1] − m[i][b])
// + Σ over block b of e^(score − m[i][b]). Scores are x / √dk when params.dk is
// given (x the raw q·k), else x itself; params.blockSize keys a block; a mask
// leaves keys out. Before any visible key m is −∞ and ℓ is 0.
import { shown } from './format.js';
import { at } from './names.js';

/** Keys of block b (from 0) that query i sees: [j, score]. */
function blockScores({ inputs: { x, mask }, params }, i, b) {
  const root = params.dk === undefined ? 1 : Math.sqrt(params.dk);
  const keys = [];
  for (let j = b * params.blockSize; j < Math.min(x.cols, (b + 1) * params.blockSize); j++) {
    if (!mask || at(mask, i, j) !== 0) keys.push([j, at(x, i, j) / root]);
  }
  return keys;
}

const scoreName = (args, i, j) =>
  args.params.dk === undefined ? args.names.x.index(i, j) : `${args.names.x.index(i, j)}/√${args.params.dk}`;
const power = (e, m) => (e === m ? '1' : m < 0 ? `e^(${shown(e)} + ${shown(-m)})` : `e^(${shown(e)} − ${shown(m)})`);
const cellsOf = (keys, i) => keys.map(([j]) => [i, j]);

export const runningMax = {
  roles: ['x', 'mask'],
  sources: (args, i, b) => [{ input: 'x', cells: cellsOf(blockScores(args, i, b), i) }],
  /** "m[2][3] = max(m[2][2], S[2][7]/√4, S[2][8]/√4) = max(1.2, 0.3, 1.7) = 1.7". */
  explain(args, i, b) {
    const keys = blockScores(args, i, b);
    const m = at(args.out, i, b);
    const cell = args.names.out.cell(i, b);
    const previous = b === 0 ? -Infinity : at(args.out, i, b - 1);
    const text =
      keys.length === 0
        ? `${cell} = ${b === 0 ? '−∞' : args.names.out.index(i, b - 1)} = ${shown(m)}: query ${i + 1} sees no key of block ${b + 1}`
        : `${cell} = max(${[b === 0 ? '−∞' : args.names.out.index(i, b - 1), ...keys.map(([j]) => scoreName(args, i, j))].join(', ')}) = max(${[previous, ...keys.map(([, s]) => s)].map((v) => (v === -Infinity ? '−∞' : shown(v))).join(', ')}) = ${shown(m)}`;
    return { text, sources: runningMax.sources(args, i, b) };
  },
};

export const runningSum = {
  roles: ['x', 'max', 'mask'],
  sources: (args, i, b) => [
    { input: 'x', cells: cellsOf(blockScores(args, i, b), i) },
    {
      input: 'max',
      cells:
        b === 0
          ? [[i, b]]
          : [
              [i, b - 1],
              [i, b],
            ],
    },
  ],
  /** "ℓ[2][3] = ℓ[2][2]·e^(m[2][2] − m[2][3]) + e^(0.3 − 1.7) + 1 = 1.4·0.6 + … = 2.1". */
  explain(args, i, b) {
    const keys = blockScores(args, i, b);
    const { out, inputs, names } = args;
    const cell = names.out.cell(i, b);
    const m = at(inputs.max, i, b);
    const terms = keys.map(([, s]) => power(s, m));
    const lPrev = b === 0 ? 0 : at(out, i, b - 1);
    const mPrev = b === 0 ? -Infinity : at(inputs.max, i, b - 1);
    if (keys.length === 0) {
      return {
        text: `${cell} = ${shown(at(out, i, b))}: query ${i + 1} sees no key of block ${b + 1}`,
        sources: runningSum.sources(args, i, b),
      };
    }
    const fresh = `Σ over block ${b + 1} of e^(score − ${names.max.index(i, b)})`;
    const carry = b > 0 && lPrev !== 0;
    const formula = carry
      ? `${names.out.index(i, b - 1)}·e^(${names.max.index(i, b - 1)} − ${names.max.index(i, b)}) + ${fresh}`
      : fresh;
    const numbers = [carry ? `${shown(lPrev)}·${shown(Math.exp(mPrev - m))}` : null, ...terms].filter(Boolean);
    const text = `${cell} = ${formula} = ${numbers.join(' + ')} = ${shown(at(out, i, b))}`;
    return { text, sources: runningSum.sources(args, i, b) };
  },
};
