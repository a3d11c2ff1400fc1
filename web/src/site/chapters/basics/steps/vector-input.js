// An editable three-number vector of the Basics chapter (steps 1 and 2: the
// decoder state h, one annotation h̄) with its heatmap and NumPy print.
import { VectorEditor } from '../../../editors.js';
import { asInput, indexLabels, outputBlock } from '../../../chapter-kit.js';
import { Heatmap } from '../../../figures/heatmap.js';
import { formatNumpy } from '../../../numpy-format.js';
import { column } from './shared.js';

/** state[key] as editor, heatmap and NumPy print. */
export function vectorInput({ state, edit }, key, label, palette) {
  const map = asInput(new Heatmap({ palette, label, rowLabels: indexLabels(3) }));
  const out = outputBlock(`${label} as NumPy prints it`);
  const editor = new VectorEditor({
    values: state[key],
    label,
    scrub: { step: 1 },
    onChange: (v) => edit({ [key]: v }),
  });
  return {
    map,
    out,
    editor,
    show: () => {
      map.update(column(state[key]));
      out.textContent = formatNumpy(state[key], [3]);
    },
    sync: () => editor.setValues(state[key]),
  };
}
