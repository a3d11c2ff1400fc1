// A bar chart of a few values in [0, 1] (attention weights), drawn from the
// live numbers as SVG built node by node. One bar per value, its value above it.
import { svg } from '../dom.js';
import { formatCell } from '../numpy-format.js';

const BAR = 44;
const HEIGHT = 120;

export class BarChart {
  /** @param {{label: string, names: (i: number) => string}} options */
  constructor({ label, names }) {
    this.names = names;
    this.svg = svg('svg', { role: 'img', 'aria-label': label, class: 'bar-chart' });
  }

  get element() {
    return this.svg;
  }

  /** @param {ArrayLike<number>} values each in [0, 1] */
  update(values) {
    const n = values.length;
    const width = n * (BAR + 12) + 8;
    this.svg.setAttribute('viewBox', `0 0 ${width} ${HEIGHT + 40}`);
    this.svg.setAttribute('width', String(width));
    this.svg.setAttribute('height', String(HEIGHT + 40));
    this.svg.replaceChildren(
      svg('line', { class: 'bar-axis', x1: 0, y1: HEIGHT + 16, x2: width, y2: HEIGHT + 16 }),
      ...Array.from(values, (v, i) => {
        const x = 8 + i * (BAR + 12);
        const h = Math.max(0, Math.min(1, v)) * HEIGHT;
        const g = svg('g', { class: 'bar', 'data-value': v });
        g.append(
          svg('rect', { x, y: HEIGHT + 16 - h, width: BAR, height: h }),
          svg('text', { x: x + BAR / 2, y: HEIGHT + 12 - h, 'text-anchor': 'middle' }, formatCell(v)),
          svg('text', { x: x + BAR / 2, y: HEIGHT + 32, 'text-anchor': 'middle' }, this.names(i)),
        );
        return g;
      }),
    );
  }
}
