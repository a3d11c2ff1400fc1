// Step 3 of the KV-cache chapter: the same token recomputed with no cache, the
// whole causal attention, and the two rows compared bit for bit.
import { el } from '../../../dom.js';
import { liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { symbol } from '../../../math.js';
import { bitsOf } from '../../../float-bits.js';
import { MAX_PROMPT, MAX_STEPS } from '../model.js';
import { tracedMap } from './shared.js';

function longestText(r) {
  const n = r.same.entries.length;
  return r.same.identical
    ? `With ${r.labels.length} tokens the cached row and the recomputed row still agree in all 64 bits of all ${n} entries.`
    : `With ${r.labels.length} tokens the largest gap is ${r.same.worst} ulp(s).`;
}

export function fullStep(ctx) {
  const { edit, questions } = ctx;
  const weights = tracedMap(
    ctx,
    'fullWeights',
    {
      palette: 'purple',
      weights: true,
      label: 'causal weights of every token',
      colLabelsOnTop: true,
      rotateColLabels: true,
    },
    'recomputed weights: row i over tokens 1 … i (the rest masked)',
  );
  const out = tracedMap(
    ctx,
    'fullOut',
    { palette: 'blue', label: 'every token’s output, recomputed' },
    'recomputed outputs: the last row is the newest token’s',
  );
  const bits = outputBlock('the two rows, entry by entry, with their 64 bits in hex');
  const verdict = el('p', { className: 'worked' });
  const longest = liveExperiment({
    label: `the longest run (${MAX_PROMPT} + ${MAX_STEPS} tokens)`,
    explain: (r) => longestText(r),
    apply: () => edit({ prompt: MAX_PROMPT, steps: MAX_STEPS }, { program: true }),
  });
  const element = step({
    title: '3. The same numbers as recomputing everything',
    intro: [
      'Without a cache, a decoder would run the whole sequence again for every new token: every query, key and value, and causal attention over all of them. Its last row is the newest token’s output. The cached decode step computed that row with the same products and the same sums in the same order, so in float64 it is not just close: every bit agrees.',
    ],
    formula: `${symbol('fullWeights', 'A')} = \\operatorname{softmax}\\!\\left(\\frac{QK^\\top}{\\sqrt{d_k}} + M_{\\text{causal}}\\right), \\qquad ${symbol('fullOut', 'O')} = ${symbol('fullWeights', 'A')} V, \\qquad ${symbol('fullOut', 'O_{t}')} \\overset{?}{=} ${symbol('stepOut', 'o_t')}`,
    predict: questions.sameRow,
    output: bits,
    figures: [weights.element, out.element],
    after: [verdict, longest.element],
  });
  return {
    element,
    needs: ['cacheK', 'fullOut'],
    show(r) {
      weights.map.update(r.fullWeights, { rowLabels: r.labels, colLabels: r.labels });
      out.map.update(r.fullOut, { rowLabels: r.labels });
      const t = r.labels.length;
      bits.textContent = r.same.entries
        .map(
          (e, i) =>
            // Narrow lines, so a phone shows the bits without scrolling.
            `entry ${i + 1}: ${e.ulps === 0 ? 'same bits' : `${e.ulps} ulp(s) apart`}\n  cache ${e.a.toPrecision(17)}\n        0x${bitsOf(e.a)}\n  full  ${e.b.toPrecision(17)}\n        0x${bitsOf(e.b)}`,
        )
        .join('\n');
      verdict.textContent = r.same.identical
        ? `o${t} from the cache equals row ${t} of the full recomputation in all 64 bits of every entry (compared as bit patterns, not with a tolerance).`
        : `o${t} from the cache and row ${t} of the full recomputation differ by up to ${r.same.worst} ulp(s).`;
      questions.sameRow.update(r);
      longest.show(r);
    },
  };
}
