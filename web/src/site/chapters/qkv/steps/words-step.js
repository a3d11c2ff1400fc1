// Step 1 of the Q/K/V chapter: the word vectors, one row each, edited by the reader.
import { code, el } from '../../../dom.js';
import {
  asInput,
  indexingNote,
  indexLabels,
  liveExperiment,
  numberedLabels,
  outputBlock,
  step,
} from '../../../chapter-kit.js';
import { matrixOfRows } from '../../../explain/names.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { MatrixEditor } from '../../../matrix-editor.js';
import { formatCell } from '../../../numpy-format.js';
import { isWhole } from '../model.js';
import { numpyRepr } from './shared.js';

const sameRow = (m, i, j) => Array.from(m.row(i)).every((x, k) => x === m.get(j, k));
const rowText = (m, i) => `[${Array.from(m.row(i), formatCell).join(', ')}]`;

// Try: the last word becomes a copy of word_1; the claim about the outputs is made from the live rows.
function copyText({ state }, r) {
  const n = state.words.length;
  if (n === 1) return 'There is only one word: add a word first.';
  const same = state.words[n - 1].every((x, k) => x === state.words[0][k]);
  if (!same)
    return `Sets word_${n} to word_1’s vector: the two get the same query, key and value, so their output rows will match.`;
  if (!r.output) return `word_${n} and word_1 are the same vector now.`;
  return sameRow(r.output, 0, n - 1)
    ? `word_${n} and word_1 are the same vector now, and so are their output rows: ${rowText(r.output, 0)}.`
    : `word_${n} and word_1 are the same vector now.`;
}

export function wordsStep(ctx) {
  const { state, edit, figures } = ctx;
  const editor = new MatrixEditor({
    rows: state.words,
    label: 'word vectors',
    rowLabel: (i) => `word_${i + 1}`,
    rowNoun: 'word',
    minRows: 1,
    maxRows: 8,
    scrub: { step: 1 },
    newRow: (rows) => [rows.length % 3 === 0 ? 1 : 0, rows.length % 3 === 1 ? 1 : 0, rows.length % 3 === 2 ? 1 : 0],
    onChange: (rows) => edit({ words: rows }),
  });
  const map = asInput(
    new Heatmap({ palette: 'purple', label: 'word vectors, one row per word', colLabels: indexLabels(3) }),
  );
  figures.words = map;
  const out = outputBlock('words as NumPy prints them');
  const tryCopy = liveExperiment({
    label: 'copy word_1 into the last word',
    explain: (r) => copyText(ctx, r),
    apply: () => {
      const words = state.words.map((w) => [...w]);
      words[words.length - 1] = [...words[0]];
      edit({ words }, { program: true });
    },
  });
  const element = step({
    title: '1. The words',
    intro: [
      el(
        'p',
        {},
        'In a real model each word would be an embedding learned from text, with hundreds of entries. Here the words are short hand-made vectors, one row each: ',
        code('word_3 = word_1 + word_2'),
        ' shares something with both, and ',
        code('word_4'),
        ' has nothing in common with the others.',
      ),
      indexingNote(),
    ],
    controls: [editor.element],
    output: out,
    figures: [captioned(map, 'words: one row per word')],
    after: [tryCopy.element],
  });
  return {
    element,
    show(r) {
      const words = matrixOfRows(state.words);
      map.update(words, { rowLabels: numberedLabels('word_', state.words.length) });
      out.textContent = numpyRepr(words.data, [state.words.length, 3], 'words = ', { float: !isWhole(state.words) });
      tryCopy.show(r);
    },
    sync: () => editor.setRows(state.words),
  };
}
