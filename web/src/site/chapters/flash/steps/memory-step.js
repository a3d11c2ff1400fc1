// Step 4 of the flash chapter: the numbers held, the full weight matrix (N²)
// against the online state (N times a few), counted for any length.
import { el } from '../../../dom.js';
import { liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { LineChart } from '../../../figures/line-chart.js';
import { tex } from '../../../math.js';
import { D_V, heldFull, heldOnline, MAX_MEMORY_LENGTH } from '../model.js';
import { intField, thousands } from './shared.js';

const POINTS = 200;
const MIB = 2 ** 20;
const mib = (numbers) => `${((numbers * 4) / MIB).toFixed(1)} MiB in float32`;

export function memoryStep(ctx) {
  const { state, edit, questions } = ctx;
  const length = intField('sequence length N', state.memoryLength, 1, MAX_MEMORY_LENGTH, (n) =>
    edit({ memoryLength: n }),
  );
  const chart = new LineChart({
    label: 'numbers held, full weight matrix over online state, against the sequence length',
    caption: 'full ÷ online (log scale): it grows like N',
    logY: true,
    xName: 'N',
  });
  const table = outputBlock('numbers held for the live example and for N');
  const longest = liveExperiment({
    label: `N = ${thousands(MAX_MEMORY_LENGTH)}`,
    explain: () =>
      `At N = ${thousands(state.memoryLength)} the weight matrix alone is ${mib(heldFull(state.memoryLength))}; the online state ${mib(heldOnline(state.memoryLength, state.blockSize))}.`,
    apply: () => edit({ memoryLength: MAX_MEMORY_LENGTH }, { program: true }),
  });
  const element = step({
    title: '4. Memory: O(N) against O(N²)',
    intro: [
      el(
        'p',
        {},
        'For ',
        tex('N'),
        ' queries over ',
        tex('N'),
        ' keys the usual way writes all ',
        tex('N^2'),
        ' weights (and the output). The online way holds, per query, ',
        tex('m'),
        ', ',
        tex('\\ell'),
        ', the output row (',
        tex(`d_v = ${D_V}`),
        ' numbers) and one block of ',
        tex('B'),
        ' scores at a time: a few numbers per query, whatever ',
        tex('N'),
        ' is. The real FlashAttention also tiles the queries and keeps the tiles in the GPU’s fast on-chip memory; the count below is the part that grows.',
      ),
    ],
    formula: [`\\text{full} = N^2 + N d_v`, `\\text{online} = N\\,(d_v + 2 + B)`],
    controls: [length.element],
    predict: questions.memoryRatio,
    output: table,
    figures: [chart.element],
    after: [longest.element],
  });
  return {
    element,
    needs: ['output'],
    show(r) {
      const n = state.length;
      const N = state.memoryLength;
      table.textContent = [
        `live example, N = ${n}, B = ${state.blockSize}:`,
        `  full ${heldFull(n)} numbers`,
        `    (step 3's weights: ${r.fullWeights.data.length},`,
        `     its output: ${r.fullOutput.data.length})`,
        `  online ${heldOnline(n, state.blockSize)}`,
        `N = ${thousands(N)}, B = ${state.blockSize}:`,
        `  full ${thousands(heldFull(N))}`,
        `    (${mib(heldFull(N))})`,
        `  online ${thousands(heldOnline(N, state.blockSize))}`,
        `    (${mib(heldOnline(N, state.blockSize))})`,
      ].join('\n');
      chart.reset();
      for (let i = 0; i < POINTS; i++) {
        const t = Math.max(1, Math.round(1 + ((N - 1) * i) / (POINTS - 1)));
        if (i > 0 && t === chart.points.at(-1)?.[0]) continue;
        chart.points.push([t, heldFull(t) / heldOnline(t, state.blockSize)]);
      }
      chart.draw();
      questions.memoryRatio.update(r);
      longest.show(r);
    },
    sync: () => length.set(state.memoryLength),
  };
}
