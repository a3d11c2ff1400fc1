// Step 1 of the flash chapter: the scaled scores, read one block of keys at a
// time; the live block is drawn, the others hatched.
import { el } from '../../../dom.js';
import { asInput, indexingNote, indexLabels, liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol, tex } from '../../../math.js';
import { MAX_LENGTH, numpyLines } from '../model.js';
import { checkbox, intField, tracedMap } from './shared.js';

const live = (state, b, blocks) => Math.min(b, blocks);

export function tilesStep(ctx) {
  const { state, edit, figures, questions } = ctx;
  const fields = {
    seed: intField('seed', state.seed, 0, 4294967295, (seed) => edit({ seed })),
    length: intField('tokens', state.length, 2, MAX_LENGTH, (length) => edit({ length })),
    blockSize: intField('block size', state.blockSize, 1, MAX_LENGTH, (blockSize) => edit({ blockSize })),
    block: intField('live block', state.block, 1, MAX_LENGTH, (block) => edit({ block })),
  };
  const causal = checkbox('causal', state.causal, (c) => edit({ causal: c }));
  const inputs = ['Q', 'K', 'V'].map((name) => {
    const map = asInput(
      new Heatmap({ palette: 'bone', label: `${name}, one row per token`, colLabels: indexLabels(4) }),
    );
    figures[name] = map;
    return map;
  });
  const S = tracedMap(
    ctx,
    'scaled',
    { palette: 'orange', label: 'scaled scores, the live block of keys drawn', colLabelsOnTop: true },
    'S̃ = Q Kᵀ / √4: the live block’s columns drawn, the others hatched',
  );
  const code = outputBlock('the inputs as NumPy draws them');
  const where = el('p', { className: 'worked' });
  const oneKey = liveExperiment({
    label: 'one key per block',
    explain: (r) =>
      state.blockSize === 1
        ? `Block size 1: ${r.blocks} blocks of one key each; m and ℓ are updated after every key (step 2 has a column per key).`
        : `Sets the block size to 1: ${state.length} blocks of one key each.`,
    apply: () => edit({ blockSize: 1 }, { program: true }),
  });
  const element = step({
    title: '1. The scores, one block of keys at a time',
    intro: [
      el(
        'p',
        {},
        'Softmax needs a whole row of scores before it can divide by their sum, so the usual attention writes the full ',
        tex('N \\times N'),
        ' matrix of weights to memory. For long sequences that matrix, not the arithmetic, is the bottleneck. FlashAttention reads the keys (and their values) in blocks instead, and for each query keeps only a few running numbers between blocks. Below, random queries, keys and values (4 numbers each) and their scaled scores; the block being read, the live block, is drawn, the blocks before it are already folded into the running numbers and those after it not read yet.',
      ),
      indexingNote(),
    ],
    formula: `${symbol('scaled', '\\tilde S')} = \\frac{${symbol('Q', 'Q')} ${symbol('K', 'K')}^\\top}{\\sqrt{d_k}}, \\qquad \\text{block } b = \\text{keys } (b-1)B+1, \\dots, bB`,
    controls: [
      fields.seed.element,
      fields.length.element,
      fields.blockSize.element,
      fields.block.element,
      causal.element,
    ],
    predict: questions.largestBlock,
    output: code,
    figures: [...inputs.map((map, i) => captioned(map, `${'QKV'[i]}: one row per token`)), S.element],
    after: [where, oneKey.element],
  });
  return {
    element,
    needs: ['scaled'],
    show(r) {
      for (const [i, name] of ['Q', 'K', 'V'].entries()) inputs[i].update(r[name], { rowLabels: r.labels });
      const b = live(state, state.block, r.blocks);
      const [c0, c1] = [(b - 1) * state.blockSize, Math.min(b * state.blockSize, state.length)];
      S.map.update(r.scaled, {
        rowLabels: r.labels,
        colLabels: r.labels,
        isMasked: (i, j) => j < c0 || j >= c1 || (state.causal && j > i),
      });
      code.textContent = numpyLines(state);
      where.textContent = `${r.blocks} blocks of ${state.blockSize} key${state.blockSize === 1 ? '' : 's'}${state.length % state.blockSize ? ` (the last one ${state.length % state.blockSize})` : ''}; live: block ${b}, keys ${c0 + 1} to ${c1}${state.causal ? '; causal: query i sees keys 1 … i only' : ''}.`;
      questions.largestBlock.update(r);
      oneKey.show(r);
    },
    sync() {
      for (const [key, field] of Object.entries(fields)) field.set(state[key]);
      causal.set(state.causal);
    },
  };
}
