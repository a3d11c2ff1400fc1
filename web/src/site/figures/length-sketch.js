// A qualitative sketch of the trend in Figure 2 of Bahdanau et al. (2014):
// translation quality against sentence length, with and without attention.
// Drawn as SVG node by node; the curves are shapes, not the paper's numbers.
import { svg } from '../dom.js';

/** quality(length) in [0, 1] for the two models, as shapes: flat with attention, falling after ~20 words without. */
const withAttention = (x) => 0.8 - 0.05 * (x / 60);
const fixedVector = (x) => (x < 15 ? 0.62 + 0.004 * x : 0.68 - 0.011 * (x - 15));

export function lengthSketch() {
  // 300 wide: scaled to a phone's column (~280 px) its 12 px text stays above 11 px.
  const width = 300;
  const height = 220;
  const left = 48;
  const bottom = 180;
  const xOf = (len) => left + (len / 60) * (width - left - 20);
  const yOf = (q) => bottom - q * 150;
  const path = (f) =>
    Array.from(
      { length: 61 },
      (_, len) => `${len === 0 ? 'M' : 'L'}${xOf(len).toFixed(1)},${yOf(f(len)).toFixed(1)}`,
    ).join(' ');
  const root = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: 'img',
    class: 'length-sketch',
    'aria-label':
      'Sketch: translation quality falls for long sentences when the whole sentence is squeezed into one vector, and stays level with attention',
  });
  root.append(
    svg('line', { class: 'axis', x1: left, y1: bottom, x2: width - 10, y2: bottom }),
    svg('line', { class: 'axis', x1: left, y1: bottom, x2: left, y2: 20 }),
    svg('text', { x: (left + width) / 2, y: bottom + 30, 'text-anchor': 'middle' }, 'sentence length (words) →'),
    svg(
      'text',
      { x: 14, y: (bottom + 20) / 2, 'text-anchor': 'middle', transform: `rotate(-90 14 ${(bottom + 20) / 2})` },
      'quality →',
    ),
    ...[0, 20, 40, 60].map((len) =>
      svg('text', { x: xOf(len), y: bottom + 14, 'text-anchor': 'middle', class: 'tick' }, String(len)),
    ),
    svg('path', { class: 'with-attention', d: path(withAttention) }),
    svg('path', { class: 'fixed-vector', d: path(fixedVector) }),
    svg(
      'text',
      { x: xOf(60) - 4, y: yOf(withAttention(60)) - 8, 'text-anchor': 'end', class: 'with-attention' },
      'with attention',
    ),
    svg(
      'text',
      { x: xOf(60) - 4, y: yOf(fixedVector(60)) + 16, 'text-anchor': 'end', class: 'fixed-vector' },
      'one fixed vector',
    ),
  );
  const figure = document.createElement('figure');
  figure.className = 'length-sketch-figure';
  const caption = document.createElement('figcaption');
  caption.className = 'heatmap-caption';
  caption.textContent =
    'A sketch of the trend in Figure 2 of the paper (translation quality by sentence length on English→French): the shapes, not its numbers.';
  figure.append(root, caption);
  return figure;
}
