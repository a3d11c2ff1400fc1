// Step 4 of the Q/K/V chapter: every query against every key, S = Q Kᵀ.
import { el } from '../../../dom.js';
import { experiment, numberedLabels, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol } from '../../../math.js';
import { formatCell } from '../../../numpy-format.js';
import { isWhole } from '../model.js';
import { K, numpyRepr, Q } from './shared.js';

export function scoresStep({ state, edit, figures, story, questions }) {
  const map = new Heatmap({
    palette: 'orange',
    label: 'scores Q·Kᵀ: rows are queries, columns are keys',
    colLabelsOnTop: true,
    explain: story('scores'),
  });
  figures.scores = map;
  const out = outputBlock('scores as NumPy prints them');
  const worked = el('p', { className: 'worked' });
  const element = step({
    title: '4. Scores: every query against every key',
    intro: [
      'Entry (i, j) is the dot product of word i’s query with word j’s key: how strongly word i should attend to word j. All pairs at once are one matrix product.',
    ],
    formula: `${symbol('scores', 'S')} = ${Q} ${K}^\\top, \\qquad ${symbol('scores', 'S_{ij}')} = ${symbol('Q', 'q_i')} \\cdot ${symbol('K', 'k_j')}`,
    predict: questions.firstKey,
    output: out,
    figures: [captioned(map, 'scores: row = query word, column = key word')],
    after: [
      worked,
      experiment({
        label: 'make word 2 a copy of word 1',
        explain:
          'Equal words give equal queries and keys: rows 1 and 2 of the scores become equal, and so do columns 1 and 2.',
        apply: () => {
          const [first, , ...rest] = state.words;
          edit({ words: [first, [...first], ...rest] }, { program: true });
        },
      }),
    ],
  });
  return {
    element,
    needs: ['scores'],
    show(r) {
      const n = state.words.length;
      const labels = numberedLabels('word_', n);
      const integers = [state.words, state.WQ, state.WK, state.WV].every(isWhole);
      map.update(r.scores, { rowLabels: labels, colLabels: labels, rotateColLabels: n > 4 });
      out.textContent = numpyRepr(r.scores.data, [n, n], 'scores = ', { float: !integers });
      const products = Array.from(r.Q.row(0), (x, i) => `${formatCell(x)}·${formatCell(r.K.get(0, i))}`);
      worked.textContent = `word_1 against word_1: q1 · k1 = ${products.join(' + ')} = ${formatCell(r.scores.get(0, 0))}`;
      questions.firstKey.update(r);
    },
  };
}
