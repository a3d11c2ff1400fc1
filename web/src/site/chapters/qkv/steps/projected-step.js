// Step 3 of the Q/K/V chapter: every word's query, key and value, Q = X W_Q, K = X W_K, V = X W_V.
import { el } from '../../../dom.js';
import { experiment, indexLabels, numberedLabels, outputBlock, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol, tex } from '../../../math.js';
import { isWhole } from '../model.js';
import { K, numpyRepr, Q, V, X } from './shared.js';

const ROLES = [
  ['Q', 'orange', 'queries Q, one row per word', 'Q: queries'],
  ['K', 'green', 'keys K, one row per word', 'K: keys'],
  ['V', 'blue', 'values V, one row per word', 'V: values'],
];

const role = (name, letter, what) =>
  el('li', {}, el('strong', {}, name), ' ', tex(`${letter}_${letter === 'q' ? 'i' : 'j'}`), what);

export function projectedStep({ state, edit, figures, story, questions }) {
  const maps = {};
  for (const [name, palette, label] of ROLES) {
    maps[name] = new Heatmap({ palette, label, colLabels: indexLabels(3), explain: story(name) });
    figures[name] = maps[name];
  }
  const out = outputBlock('Q, K and V as NumPy prints them');
  const element = step({
    title: '3. Queries, keys and values',
    intro: [
      el(
        'p',
        {},
        'Multiplying the words by each matrix gives every word its three vectors (row ',
        tex('i'),
        ' belongs to word ',
        tex('i'),
        '):',
      ),
      el(
        'ul',
        {},
        role('query', 'q', [': what word ', tex('i'), ' is looking for in the others;']),
        role('key', 'k', [
          ': how word ',
          tex('j'),
          ' presents itself to queries: a query that lines up with it finds it;',
        ]),
        role('value', 'v', [': what word ', tex('j'), ' hands over once it has been found.']),
      ),
      'Separating keys from values lets a word be found for one reason and contribute something else.',
    ],
    formula: `${Q} = ${X} ${symbol('WQ', 'W_Q')}, \\qquad ${K} = ${X} ${symbol('WK', 'W_K')}, \\qquad ${V} = ${X} ${symbol('WV', 'W_V')}`,
    predict: questions.longestQuery,
    after: [
      experiment({
        label: 'double word 1',
        explain: 'Its rows of Q, K and V double too: each is word 1 times a fixed matrix, with no bias.',
        apply: () => edit({ words: [state.words[0].map((x) => 2 * x), ...state.words.slice(1)] }, { program: true }),
      }),
    ],
    output: out,
    figures: ROLES.map(([name, , , caption]) => captioned(maps[name], caption)),
  });
  return {
    element,
    needs: ['Q', 'K', 'V'],
    show(r) {
      const n = state.words.length;
      const labels = numberedLabels('word_', n);
      // NumPy's dtype: products of integer arrays stay integer arrays.
      const integers = [state.words, state.WQ, state.WK, state.WV].every(isWhole);
      for (const [name] of ROLES) maps[name].update(r[name], { rowLabels: labels });
      out.textContent = ROLES.map(([name]) => numpyRepr(r[name].data, [n, 3], `${name} = `, { float: !integers })).join(
        '\n',
      );
      questions.longestQuery.update(r);
    },
  };
}
