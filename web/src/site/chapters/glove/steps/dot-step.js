// Step 4 of the GloVe chapter: dot-product attention between the two sentences
// (or cosine similarity), with two experiments whose claims follow the numbers.
import { el } from '../../../dom.js';
import { liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { symbol, tex } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';
import { sameWordMatches } from '../model.js';
import { diagonalWins, maskText, selfText, strongestText } from './dot-notes.js';
import { attentionFigure } from './shared.js';

const FAMILY = { query: 'her brother asked why', key: 'you asked why her son and brother left' };

// Try the family sentences: what happens is said only once they are in, from the live weights.
function familyText(state, a) {
  const set = `sets the sentences to “${FAMILY.query}” and “${FAMILY.key}”`;
  if (state.query !== FAMILY.query || state.key !== FAMILY.key || !a)
    return `${set}: some words share a meaning, some are the same word.`;
  const lost = sameWordMatches(a).filter((m) => !m.self);
  if (!lost.length)
    return `${set}: here every repeated word attends most to itself${state.cosine ? ' (cosine similarity is on)' : ''}.`;
  const losers = lost.map((m) => `“${m.word}” attends most to “${m.winner}”`).join(' and ');
  return `${set}: here ${losers}, not to ${lost.length === 1 ? 'itself' : 'themselves'}.${state.cosine ? '' : ' Then tick cosine similarity.'}`;
}

// Try the same sentence twice: how often the diagonal wins is counted, not promised.
function twiceText(state, a) {
  const set = 'sets the key sentence to the query sentence: the matrix is square and its scores symmetric';
  if (state.key !== state.query || !a) return `${set}. Does every word attend most to itself?`;
  const { wins, rows } = diagonalWins(a);
  const all = wins === rows;
  return `${set}. Here ${wins} of ${rows} words attend most to themselves${all ? '' : ': weights are normalised per row, and a long vector can have a larger dot product with another word'}.${state.cosine || all ? '' : ' Tick cosine similarity and compare.'}`;
}

export function dotStep({ state, edit, figures, story, questions, attention }) {
  const figure = attentionFigure({
    label: 'dot-product attention: query tokens (rows) attending to key tokens (columns)',
    linesLabel: 'dot-product attention as lines from query tokens to key tokens',
    name: 'dot.weights',
    story,
    attention,
  });
  figures.dot = figure.map;
  const out = outputBlock('attention matrix as NumPy prints it');
  const dotNote = el('p', { className: 'dot-note' });
  const selfNote = el('p', { className: 'self-note' });
  const maskNote = el('p', { className: 'mask-note' });
  const cosineBox = el('input', {
    type: 'checkbox',
    checked: state.cosine,
    on: { change: () => edit({ cosine: cosineBox.checked }) },
  });
  const tryFamily = liveExperiment({
    label: 'a word that loses to another word',
    explain: (r) => familyText(state, r.attention),
    apply: () => edit({ ...FAMILY }, { program: true }),
  });
  const tryTwice = liveExperiment({
    label: 'the same sentence twice',
    explain: (r) => twiceText(state, r.attention),
    apply: () => edit({ key: state.query }, { program: true }),
  });
  const element = step({
    title: '4. Dot-product attention',
    intro: [
      'Score every query token against every key token with a dot product, scale by the square root of the vector size so the scores do not grow with it, and turn each row into weights with softmax. The weights of a row add up to one: how much that query word draws on each key word.',
    ],
    formula: `${symbol('dot', 'A')} = \\operatorname{softmax}\\!\\Big(\\frac{${symbol('queryEmbed', 'Q')} ${symbol('keyEmbed', 'K')}^\\top}{\\sqrt{d}}\\Big), \\qquad \\text{output} = ${symbol('dot', 'A')}\\,V \\;(\\text{here } V = ${symbol('keyEmbed', 'K')})`,
    controls: [
      el('label', { className: 'cosine-toggle' }, cosineBox, ' cosine similarity'),
      el(
        'span',
        { className: 'control-hint' },
        'scales every vector to length 1 first, so only directions count: ',
        tex('A = \\operatorname{softmax}(\\hat Q \\hat K^\\top)'),
        ', with no ',
        tex('\\sqrt{d}'),
        ' (a dot product of unit vectors stays within ±1 whatever ',
        tex('d'),
        ' is). Steps 5 and 6 keep the raw vectors.',
      ),
    ],
    predict: questions.dot,
    output: out,
    figures: figure.elements,
    after: [dotNote, selfNote, tryFamily.element, tryTwice.element, maskNote],
  });
  return {
    element,
    needs: ['dot'],
    show(r) {
      const a = r.attention;
      figure.show(a, a.dot.weights);
      out.textContent = formatNumpy(a.dot.weights.data, [a.qTokens.length, a.kTokens.length]);
      dotNote.textContent = strongestText(a);
      selfNote.textContent = selfText(a, state.cosine);
      maskNote.textContent = maskText(a);
      maskNote.hidden = !a.missing.length;
      tryFamily.show(r);
      tryTwice.show(r);
      questions.dot.update({ a, weights: a.dot.weights });
    },
    sync: () => (cosineBox.checked = state.cosine),
  };
}
