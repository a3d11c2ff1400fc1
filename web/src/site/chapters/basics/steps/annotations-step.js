// Step 4 of the Basics chapter: every annotation as one column of the matrix H.
import { el } from '../../../dom.js';
import { ColumnsEditor } from '../../../editors.js';
import { asInput, indexLabels, liveExperiment, numberedLabels, outputBlock, step } from '../../../chapter-kit.js';
import { Heatmap } from '../../../figures/heatmap.js';
import { tex } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';
import { clearArgmax } from '../../../predict.js';
import { MAX_STEPS } from '../model.js';

const scoresOf = ({ decoder, annotations }) => annotations.map((a) => a.reduce((sum, x, k) => sum + x * decoder[k], 0));

export function annotationsStep({ state, edit, figures }) {
  const map = asInput(new Heatmap({ palette: 'orange', label: 'annotations matrix H, one column per encoder step' }));
  figures.annotations = map;
  const out = outputBlock('annotations matrix as NumPy prints it');
  const editor = new ColumnsEditor({
    columns: state.annotations,
    name: (j) => `encoder step ${j + 1}`,
    maxColumns: MAX_STEPS,
    scrub: { step: 1 },
    newColumn: (cols) => cols[cols.length - 1].map((x) => Math.round(x * 0.5 + 1)),
    onChange: (cols) => edit({ annotations: cols }),
  });
  const tryDuplicate = liveExperiment({
    label: 'duplicate the winning step',
    explain: () => {
      if (state.annotations.length >= MAX_STEPS)
        return `There are already ${MAX_STEPS} steps, the most this page takes.`;
      const best = clearArgmax(scoresOf(state));
      return best === null
        ? 'Copies the first of the best-scoring steps: the tied steps then share the weight evenly.'
        : `Copies encoder step ${best + 1}: two steps with the same, largest score share its weight evenly.`;
    },
    apply: () => {
      const scores = scoresOf(state);
      const best = scores.indexOf(Math.max(...scores));
      if (state.annotations.length < MAX_STEPS)
        edit({ annotations: [...state.annotations, [...state.annotations[best]]] }, { program: true });
    },
  });
  const element = step({
    title: '4. All annotations as one matrix',
    intro: [
      el(
        'p',
        {},
        'Put every encoder step side by side: column ',
        tex('s'),
        ' of ',
        tex('H'),
        ' is annotation ',
        tex('\\bar h_s'),
        '. Add or remove encoder steps, or edit any entry.',
      ),
    ],
    controls: [editor.element],
    output: out,
    figures: [map.element],
    after: [tryDuplicate.element],
  });
  return {
    element,
    show(r) {
      const n = state.annotations.length;
      map.update(r.H, { colLabels: numberedLabels('h̄', n), rowLabels: indexLabels(3) });
      out.textContent = formatNumpy(r.H.data, [3, n]);
      tryDuplicate.show();
    },
    sync: () => editor.setColumns(state.annotations),
  };
}
