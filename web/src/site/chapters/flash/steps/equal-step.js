// Step 3 of the flash chapter: the online output against the full softmax
// attention, entry by entry, to the last bit.
import { el } from '../../../dom.js';
import { liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { symbol } from '../../../math.js';
import { bitsOf } from '../../../float-bits.js';
import { tracedMap } from './shared.js';

const ulps = (n) => `${n} ${n === 1 ? 'ulp' : 'ulps'}`;
const gap = (r) => Math.max(...r.same.entries.map((e) => Math.abs(e.a - e.b)));
const verdictText = (r) =>
  r.same.identical
    ? `All ${r.same.entries.length} entries of the two outputs are the same 64 bits.`
    : `${r.same.entries.filter((e) => e.ulps === 0).length} of ${r.same.entries.length} entries are the same 64 bits; the others differ by at most ${ulps(r.same.worst)} (units in the last place; ${gap(r).toExponential(2)}). The online way divides by ℓ once, at the end, and rescales partial sums; the full softmax divides every weight first. Rounding in a different order, not a different result.`;

export function equalStep(ctx) {
  const { state, edit, questions } = ctx;
  const online = tracedMap(
    ctx,
    'output',
    { palette: 'blue', label: 'online output O/ℓ' },
    'online output, one row per query',
  );
  const full = tracedMap(
    ctx,
    'fullOutput',
    { palette: 'blue', label: 'full softmax attention output' },
    'softmax(S̃) V, the usual way',
  );
  const bits = outputBlock('one query’s output both ways, with the 64 bits in hex');
  const verdict = el('p', { className: 'worked' });
  const causal = liveExperiment({
    label: 'switch the causal mask',
    explain: (r) =>
      `${state.causal ? 'With' : 'Without'} the causal mask: ${r.same.identical ? 'the same bits everywhere' : `at most ${ulps(r.same.worst)} apart`}.`,
    apply: () => edit({ causal: !state.causal }, { program: true }),
  });
  const element = step({
    title: '3. The same output as the full softmax',
    intro: [
      'FlashAttention (Dao et al., 2022) computes exact attention: not an approximation, the same function as softmax(S̃)V. In exact arithmetic the two agree; in float64 they may round in a different order. Here is how far apart they are, to the bit.',
    ],
    formula: `${symbol('output', 'O_{\\text{last}} / \\ell_{\\text{last}}')} = \\operatorname{softmax}(\\tilde S)\\, V = ${symbol('fullOutput', 'O_{\\text{full}}')}`,
    predict: questions.sameOutput,
    output: bits,
    figures: [online.element, full.element],
    after: [verdict, causal.element],
  });
  return {
    element,
    needs: ['output', 'fullOutput'],
    show(r) {
      online.map.update(r.output, { rowLabels: r.labels });
      full.map.update(r.fullOutput, { rowLabels: r.labels });
      const i = r.walk?.query ?? 0;
      const cols = r.output.cols;
      bits.textContent = r.same.entries
        .slice(i * cols, (i + 1) * cols)
        .map(
          (e, k) =>
            // Narrow lines, so a phone shows the bits without scrolling.
            `query ${i + 1}, entry ${k + 1}: ${e.ulps === 0 ? 'same bits' : `${ulps(e.ulps)} apart`}\n  online ${e.a.toPrecision(17)}\n         0x${bitsOf(e.a)}\n  full   ${e.b.toPrecision(17)}\n         0x${bitsOf(e.b)}`,
        )
        .join('\n');
      verdict.textContent = verdictText(r);
      questions.sameOutput.update(r);
      causal.show(r);
    },
  };
}
