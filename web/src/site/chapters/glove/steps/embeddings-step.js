// Step 3 of the GloVe chapter: the sentences as matrices, one column per token.
import { el } from '../../../dom.js';
import { asInput, outputBlock, step } from '../../../chapter-kit.js';
import { Heatmap } from '../../../figures/heatmap.js';
import { tex } from '../../../math.js';
import { columnsOf, embeddingSummary } from '../model.js';
import { loadedOwnTable, OWN_FILE_LIMIT } from './own-file.js';
import { count } from './shared.js';

const embedding = (label) =>
  asInput(
    new Heatmap({
      palette: 'blue',
      label,
      annotate: false,
      cellWidth: 44,
      cellHeight: 4,
      rotateColLabels: true,
      colLabelsOnTop: true,
    }),
  );

/** Why a hatched column is hatched, from the words with no vector now. */
function missingText(missing, state) {
  if (!missing.length) return 'Every token has a vector.';
  const one = missing.length === 1;
  let text = `No vector for ${missing.map((w) => `“${w}”`).join(', ')} in these embeddings: ${one ? 'it is' : 'they are'} shown as hatched zero columns, what the notebook’s lookup returns for a word it cannot find. The attention below leaves ${one ? 'it' : 'them'} out instead of treating a zero vector as a meaning.`;
  if (state.useOwn && loadedOwnTable())
    text += ` From your file we kept its ${count(OWN_FILE_LIMIT)} most frequent words and the words of the sentences when you loaded it; load it again to pick up new words.`;
  return text;
}

export function embeddingsStep({ state, figures, table }) {
  const queryMap = embedding('query embeddings, one column per token');
  const keyMap = embedding('key embeddings, one column per token');
  Object.assign(figures, { queryEmbed: queryMap, keyEmbed: keyMap });
  const out = outputBlock('the embedding matrices, summarised');
  const missingNote = el('p', { className: 'missing-note' });
  const element = step({
    title: '3. The sentences as matrices',
    intro: [
      el(
        'p',
        {},
        'Stacking the token vectors gives a query matrix ',
        tex('Q'),
        ' (one row per query token) and a key matrix ',
        tex('K'),
        '. They are drawn here one column per token, each a strip of 100 (or 300) colours.',
      ),
    ],
    output: out,
    figures: [queryMap.element, keyMap.element],
    after: [missingNote],
  });
  return {
    element,
    needs: ['attention'],
    show({ attention: a }) {
      const label = (tokens, flags) => tokens.map((t, i) => (flags[i] ? `${t} ✗` : t));
      const cellHeight = table().dim > 150 ? 2 : 4; // a strip of dim cells per token
      queryMap.update(columnsOf(a.q.matrix), {
        colLabels: label(a.qTokens, a.qMissing),
        isMasked: (r, c) => a.qMissing[c],
        cellHeight,
      });
      keyMap.update(columnsOf(a.k.matrix), {
        colLabels: label(a.kTokens, a.kMissing),
        isMasked: (r, c) => a.kMissing[c],
        cellHeight,
      });
      out.textContent = `${embeddingSummary('query_embeddings', a.qTokens, a.q.matrix, a.qMissing)}\n\n${embeddingSummary('key_embeddings', a.kTokens, a.k.matrix, a.kMissing)}`;
      missingNote.textContent = missingText(a.missing, state);
    },
  };
}
