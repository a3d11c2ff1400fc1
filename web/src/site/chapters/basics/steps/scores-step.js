// Step 5 of the Basics chapter: every score at once, e = hᵀH, and the three
// score functions of Luong et al. (2015) with the chapters that compute each.
import { el } from '../../../dom.js';
import { liveExperiment, numberedLabels, outputBlock, step } from '../../../chapter-kit.js';
import { Heatmap } from '../../../figures/heatmap.js';
import { symbol, tex } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';
import { e, h, H, row } from './shared.js';

/** The three score functions (Luong et al., 2015, section 3.1) and the chapters that compute each. */
function scoringTable() {
  const link = (id, text) => el('a', { href: `#chapter=${id}` }, text);
  const line = (name, formula, ...uses) =>
    el('tr', {}, el('th', { scope: 'row' }, name), el('td', {}, tex(formula)), el('td', {}, ...uses));
  return el(
    'table',
    { className: 'scoring-table' },
    el('caption', {}, 'Score functions'),
    el(
      'tr',
      {},
      el('th', { scope: 'col' }, 'name'),
      el('th', { scope: 'col' }, 'score(h, h̄_s)'),
      el('th', { scope: 'col' }, 'computed in'),
    ),
    line(
      'dot',
      'h^\\top \\bar h_s',
      'this chapter; divided by ',
      tex('\\sqrt{d_k}'),
      ' in ',
      link('qkv', 'Q/K/V attention'),
      ' and ',
      link('transformer', 'the Transformer chapter'),
    ),
    line('general', 'h^\\top W_a \\bar h_s', link('nmt', 'the translator'), ' (its default, “luong-general”)'),
    line(
      'concat',
      'v_a^\\top \\tanh\\big(W_a [h; \\bar h_s]\\big)',
      link('bahdanau', 'Bahdanau additive attention'),
      '; an option of ',
      link('nmt', 'the translator'),
    ),
  );
}

export function scoresStep({ state, edit, figures, story, questions }) {
  const map = new Heatmap({ palette: 'orange', label: 'scores e, one per encoder step', explain: story('scores') });
  figures.scores = map;
  const out = outputBlock('scores as NumPy prints them');
  const tryEqual = liveExperiment({
    label: 'h = [0, 0, 0]',
    explain: () => `Every score is 0, so softmax has nothing to prefer: every weight is 1/${state.annotations.length}.`,
    apply: () => edit({ decoder: [0, 0, 0] }, { program: true }),
  });
  const element = step({
    title: '5. Scoring all annotations at once',
    intro: ['One vector–matrix product gives every score in one go: entry s is the dot product of h with column s.'],
    formula: `${e} = ${h}^\\top ${H} = \\big[\\, ${h}^\\top ${symbol('annotations', '\\bar h_1')},\\; \\dots,\\; ${h}^\\top ${symbol('annotations', '\\bar h_n')} \\,\\big]`,
    predict: questions.highestScore,
    output: out,
    figures: [map.element],
    after: [
      'Which encoder step will get the most attention? The scores alone already say so; softmax decides by how much.',
      tryEqual.element,
      el('h3', { className: 'sub-title' }, 'Other ways to score'),
      el(
        'p',
        {},
        'The dot product is one of three score functions Luong, Pham and Manning (2015) compared; each is a chapter here:',
      ),
      scoringTable(),
    ],
  });
  return {
    element,
    needs: ['scores'],
    show(r) {
      const n = r.scores.length;
      map.update(row(r.scores), { colLabels: numberedLabels('h̄', n) });
      out.textContent = formatNumpy(r.scores, [n]);
      questions.highestScore.update(r);
      tryEqual.show();
    },
  };
}
