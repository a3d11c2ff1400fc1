// Step 2 of the flash chapter: the running maximum m and sum ℓ of every query
// after each block, and one query's state and output block by block.
import { el } from '../../../dom.js';
import { liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { symbol, tex } from '../../../math.js';
import { formatCell } from '../../../numpy-format.js';
import { MAX_LENGTH } from '../model.js';
import { intField, tracedMap } from './shared.js';

const blockLabels = (n) => Array.from({ length: n }, (_, b) => `after ${b + 1}`);

function oneBlockText({ state }, r) {
  if (r.blocks !== 1) return `Sets the block size to ${state.length}: one block holds every key.`;
  const i = r.walk.query;
  const row = Array.from(r.scaled.row(i)).filter((_, j) => !state.causal || j <= i);
  return `One block: m of query ${i + 1} is ${formatCell(r.max.get(i, 0))}, the largest of its scores (${formatCell(Math.max(...row))}), and ℓ is the plain softmax denominator, ${formatCell(r.sum.get(i, 0))}.`;
}

export function runningStep(ctx) {
  const { state, edit, questions } = ctx;
  const query = intField('query', state.query, 1, MAX_LENGTH, (q) => edit({ query: q }));
  const m = tracedMap(
    ctx,
    'max',
    { palette: 'orange', label: 'running maximum m, per query after each block', colLabelsOnTop: true },
    'm: the largest score seen so far',
  );
  const l = tracedMap(
    ctx,
    'sum',
    { palette: 'green', label: 'running sum ℓ, per query after each block', colLabelsOnTop: true },
    'ℓ: Σ e^(score − m) so far',
  );
  const walk = outputBlock('one query, block by block');
  const oneBlock = liveExperiment({
    label: 'one block for all keys',
    explain: (r) => oneBlockText(ctx, r),
    apply: () => edit({ blockSize: state.length }, { program: true }),
  });
  const element = step({
    title: '2. A running maximum and a running sum',
    intro: [
      el(
        'p',
        {},
        'The online softmax (Milakov & Gimelshein, 2018) keeps, for each query, the largest score seen so far ',
        tex('m'),
        ', the sum ',
        tex('\\ell'),
        ' of ',
        tex('e^{\\text{score} - m}'),
        ' over the keys read so far, and the output ',
        tex('O'),
        ' as a sum of values weighted by the same exponentials, not yet divided. When a block brings a larger score, ',
        tex('m'),
        ' rises, and what was summed against the old maximum is scaled down by ',
        tex('e^{m_{\\text{old}} - m_{\\text{new}}}'),
        ' to count against the new one. After the last block, ',
        tex('O / \\ell'),
        ' is the softmax-weighted mix of every value. Subtracting the maximum keeps every exponential at most 1, as the stable softmax does.',
      ),
    ],
    formula: [
      `${symbol('max', 'm_b')} = \\max\\!\\big(${symbol('max', 'm_{b-1}')},\\ \\max_{j \\in b} ${symbol('scaled', '\\tilde s_j')}\\big)`,
      `${symbol('sum', '\\ell_b')} = ${symbol('sum', '\\ell_{b-1}')}\\, e^{m_{b-1} - m_b} + \\sum_{j \\in b} e^{\\tilde s_j - m_b}`,
      `O_b = O_{b-1}\\, e^{m_{b-1} - m_b} + \\sum_{j \\in b} e^{\\tilde s_j - m_b}\\, v_j, \\qquad ${symbol('output', 'o')} = O_{\\text{last}} / \\ell_{\\text{last}}`,
    ],
    controls: [query.element],
    predict: questions.settles,
    output: walk,
    figures: [m.element, l.element],
    after: [oneBlock.element],
  });
  return {
    element,
    needs: ['output', 'walk'],
    show(r) {
      const cols = blockLabels(r.blocks);
      m.map.update(r.max, { rowLabels: r.labels, colLabels: cols, rotateColLabels: r.blocks > 4 });
      l.map.update(r.sum, { rowLabels: r.labels, colLabels: cols, rotateColLabels: r.blocks > 4 });
      const i = r.walk.query + 1;
      walk.textContent = [
        `query ${i}, after each block: m, ℓ and O/ℓ\n(O/ℓ: attention over the keys read so far)`,
        ...r.walk.rows.map(
          (w) =>
            `block ${w.block} (keys 1–${w.seen}): m = ${formatCell(w.m)}, ℓ = ${formatCell(w.l)}\n  O/ℓ = [${Array.from(w.output, formatCell).join(', ')}]`,
        ),
      ].join('\n');
      questions.settles.update(r);
      oneBlock.show(r);
    },
    sync: () => query.set(state.query),
  };
}
