// The attention step as a diagram, drawn from the live numbers: encoder states
// on top, one score each (from the decoder state), the softmax weights as bars,
// and lines into the context vector whose width is the weight. Hovering or
// focusing a column isolates it. SVG built with createElementNS (no markup
// strings), so typed text can never become markup. The columns narrow (down to
// MIN_COLUMN) to fit the figure's width, so a phone sees every step, the
// winning one too; a diagram still wider than that says it scrolls.
import { svg } from '../dom.js';
import { formatCell } from '../numpy-format.js';
import { watchWidth } from './live.js';

const COLUMN = 96; // px per encoder step
const MIN_COLUMN = 68; // narrowest column, when fitting a narrow screen
const RIGHT = 8; // room right of the last column
const LEFT = 64; // room for the decoder state and the row names
const MAX_LINE = 12; // px: the width of a line with weight 1

const shown = (x) => formatCell(x).replace(/^-/, '\u2212');
const vectorText = (v) => `[${Array.from(v, shown).join(', ')}]`;
// Vectors longer than this are named, not printed, inside the boxes (the tooltip has them all).
const MAX_SHOWN = 4;
const boxText = (v) => (v.length <= MAX_SHOWN ? vectorText(v) : `${v.length} values`);

/**
 * @typedef {object} FlowNumbers
 * @property {ArrayLike<number>[]} states encoder states, one per step (n × d)
 * @property {ArrayLike<number> | null} query the decoder state the scores compare against
 * @property {ArrayLike<number>} scores (n)
 * @property {ArrayLike<number>} weights (n), summing to 1
 * @property {ArrayLike<number>} context (d)
 */

export class FlowDiagram {
  /**
   * @param {{label: string, stateName?: (s: number) => string, queryName?: string, scoreName?: string}} options
   */
  constructor(options) {
    this.options = { stateName: (s) => `h̄${s + 1}`, queryName: 'h', scoreName: 'e', ...options };
    this.element = document.createElement('figure');
    this.element.className = 'flow-diagram';
    this.svg = svg('svg', { role: 'img', 'aria-label': options.label });
    this.caption = document.createElement('figcaption');
    this.caption.className = 'heatmap-caption';
    this.element.append(this.svg, this.caption);
    this.room = 0; // the figure's width, once it is on the page
    this.numbers = null;
    watchWidth(this.element, (room) => {
      this.room = room;
      if (this.numbers) this.update(this.numbers);
    });
  }

  /** @param {FlowNumbers} numbers */
  update(numbers) {
    this.numbers = numbers;
    const { states, query, scores, weights, context } = numbers;
    const { stateName, queryName, scoreName } = this.options;
    const n = states.length;
    const fit = this.room > 0 ? Math.floor((this.room - LEFT - RIGHT) / n) : COLUMN;
    const step = Math.max(MIN_COLUMN, Math.min(COLUMN, fit)); // px per encoder step
    const box = Math.min(80, step - 6); // a state box's width
    const width = LEFT + n * step + RIGHT;
    // Narrowed columns write a score or weight as two lines, name over value, so neighbours never overlap.
    const compact = step < COLUMN;
    const numberLabel = (x, y, name, value) =>
      compact
        ? [
            svg('text', { x, y: y - 6, 'text-anchor': 'middle' }, `${name} =`),
            svg('text', { x, y: y + 7, 'text-anchor': 'middle' }, value),
          ]
        : [svg('text', { x, y, 'text-anchor': 'middle' }, `${name} = ${value}`)];
    const weightTop = compact ? 218 : 210; // where a weight's line into the context starts
    const scrolls = this.room > 0 && width > this.room;
    this.element.classList.toggle('scrolls', scrolls);
    this.caption.textContent =
      'Each line into the context is as wide as its weight. Hover or focus a step to isolate it.' +
      (scrolls ? ` The diagram is wider than the screen: scroll sideways to see all ${n} steps.` : '');
    const height = 300;
    const centre = (s) => LEFT + s * step + step / 2;
    const contextX = LEFT + (n * step) / 2;
    const contextY = 262;
    this.svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    this.svg.setAttribute('width', String(width));
    this.svg.setAttribute('height', String(height));
    this.svg.replaceChildren();

    // Row names.
    const names = svg('g', { class: 'flow-names' });
    names.append(
      svg('text', { x: 4, y: 30 }, 'states'),
      svg('text', { x: 4, y: 104 }, 'scores'),
      svg('text', { x: 4, y: 176 }, 'weights'),
    );
    this.svg.append(names);

    // The decoder state, compared with every encoder state.
    if (query) {
      const q = svg('g', { class: 'flow-query' });
      q.append(
        svg('rect', { x: 4, y: 112, width: LEFT - 12, height: 22, rx: 4 }),
        svg('text', { x: 4 + (LEFT - 12) / 2, y: 127, 'text-anchor': 'middle' }, queryName),
        svg('title', {}, `${queryName} = ${vectorText(query)}`),
      );
      this.svg.append(q);
    }

    for (let s = 0; s < n; s++) {
      const x = centre(s);
      const w = weights[s];
      const column = svg('g', {
        class: 'flow-step',
        tabindex: 0,
        'data-step': s,
        'aria-label': `${stateName(s)}: score ${shown(scores[s])}, weight ${shown(w)}`,
      });
      // Encoder state box with its numbers; the transparent strip makes the whole column hoverable.
      column.append(
        svg('rect', {
          class: 'flow-hit',
          x: x - step / 2,
          y: 0,
          width: step,
          height: weightTop + 4,
          fill: 'transparent',
        }),
        svg('rect', { class: 'flow-state', x: x - box / 2, y: 12, width: box, height: 36, rx: 4 }),
        svg('text', { x, y: 27, 'text-anchor': 'middle', class: 'flow-name' }, stateName(s)),
        svg('text', { x, y: 42, 'text-anchor': 'middle', class: 'flow-values' }, boxText(states[s])),
        svg('line', { class: 'flow-thin', x1: x, y1: 48, x2: x, y2: 90 }),
      );
      if (query) column.append(svg('line', { class: 'flow-thin', x1: LEFT - 8, y1: 123, x2: x - 36, y2: 100 }));
      // Score, weight bar, and the line into the context, as wide as the weight.
      const bar = Math.max(1, 40 * w);
      column.append(
        ...numberLabel(x, 104, `${scoreName}${s + 1}`, shown(scores[s])),
        svg('rect', { class: 'flow-bar', x: x - 14, y: 190 - bar, width: 28, height: bar }),
        ...numberLabel(x, 204, `α${s + 1}`, shown(w)),
        svg('line', {
          class: 'flow-weight',
          x1: x,
          y1: weightTop,
          x2: contextX,
          y2: contextY - 14,
          'stroke-width': (MAX_LINE * w).toFixed(3),
          'data-weight': w,
        }),
        svg('title', {}, `${stateName(s)} = ${vectorText(states[s])}, score ${shown(scores[s])}, weight ${shown(w)}`),
      );
      this.svg.append(column);
    }

    const c = svg('g', { class: 'flow-context' });
    const label = `c = ${boxText(context)}`;
    const boxWidth = Math.max(120, label.length * 7.2);
    c.append(
      svg('rect', { x: contextX - boxWidth / 2, y: contextY - 14, width: boxWidth, height: 28, rx: 4 }),
      svg('text', { x: contextX, y: contextY + 5, 'text-anchor': 'middle' }, label),
      svg('title', {}, `c = ${vectorText(context)}`),
    );
    this.svg.append(c);
  }
}
