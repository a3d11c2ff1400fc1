// Step parts the flash and KV-cache chapters share: an integer field, a heatmap
// registered under its trace name, a matrix as NumPy prints it, grouped digits.
import { captioned, Heatmap } from '../figures/heatmap.js';
import { NumberInput } from '../number-input.js';
import { formatNumpy } from '../numpy-format.js';

/** An integer field whose value the chapter can set back (sync). */
export function intField(label, value, min, max, onChange) {
  return new NumberInput({
    caption: label,
    label,
    value,
    integer: true,
    min,
    max,
    width: '6em',
    onChange,
    scrub: { step: 1 },
  });
}

/** A computed heatmap drawing trace tensor `name`, explained from the trace. */
export function tracedMap({ figures, story }, name, options, caption) {
  const map = new Heatmap({ explain: story(name), ...options });
  figures[name] = map;
  return { map, element: captioned(map, caption) };
}

/** `prefix array([...])` as NumPy prints a matrix. */
export const numpyRepr = (m, prefix) =>
  `${prefix}${formatNumpy(m.data, [m.rows, m.cols], { prefix: `${' '.repeat(prefix.length)}array(` }).trimStart()}`;

export const thousands = (x) => x.toLocaleString('en-US');
