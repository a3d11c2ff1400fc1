// Attention as lines between tokens, drawn from the live weights: one side
// holds the tokens that ask (queries, the rows of the weight matrices), the
// other the tokens that are read (keys, the columns). A line from query i to
// key j has opacity weights[i][j]; with several heads, each head has its own
// colour and its own set of lines (the "head view" of BertViz). Hovering or
// focusing a token isolates its lines; the head legend shows or hides heads;
// select(i) pins one query (NMT playback). The tokens are one Tab stop (a roving
// tabindex): the arrow keys move along a side and across to the other side.
// SVG nodes are built with createElementNS, so typed tokens can never become markup.
//
//   orientation 'vertical'   queries in a column on the left, keys on the right
//   orientation 'horizontal' keys in a row on top, queries in a row below
import { svg } from '../dom.js';
import { formatCell } from '../numpy-format.js';

// Head colours: components.css's --al-head-0..7 (Okabe–Ito, colour-blind safe; lighter in dark mode).
const HEADS = 8;
export const headColour = (h) => `var(--al-head-${h % HEADS})`;
const MIN_WEIGHT = 0.01; // lines fainter than this are not drawn (they would be invisible)
const ROW = 22; // px between tokens in the vertical layout
const COLUMN = 30; // px between tokens in the horizontal layout (at least; long tokens get more)
const GAP = 160; // px between the two sides
const MARGIN = 8;
const TEXT_PX = 7.5; // a rough width of one character at 12 px, for the layout

const shown = (x) => formatCell(x).replace(/^-/, '\u2212');

/**
 * @typedef {object} TokenLinesHead
 * @property {string} name e.g. "head 1"
 * @property {ArrayLike<ArrayLike<number>> | {rows: number, cols: number, data: ArrayLike<number>}} weights
 *   queries × keys, rows summing to 1
 */

/** Row-major access to either an array of rows or a Matrix-like {rows, cols, data}. */
function at(weights, i, j) {
  return 'data' in weights && typeof weights.cols === 'number' ? weights.data[i * weights.cols + j] : weights[i][j];
}

export class TokenLines {
  /**
   * @param {{label: string, orientation?: 'vertical' | 'horizontal', queryLabel?: string, keyLabel?: string,
   *          caption?: string, onFocus?: (focus: {side: 'query' | 'key', index: number} | null) => void}} options
   */
  constructor(options) {
    this.options = { orientation: 'vertical', queryLabel: 'queries', keyLabel: 'keys', ...options };
    this.element = document.createElement('figure');
    this.element.className = `token-lines token-lines-${this.options.orientation}`;
    this.legend = document.createElement('div');
    this.legend.className = 'token-lines-legend';
    this.svg = svg('svg', { role: 'img', 'aria-label': this.options.label });
    this.caption = document.createElement('figcaption');
    this.caption.className = 'heatmap-caption';
    this.caption.textContent =
      this.options.caption ?? 'Each line is as opaque as its weight. Hover or focus a token to isolate its lines.';
    this.element.append(this.legend, this.svg, this.caption);
    this.hidden = new Set(); // head indices switched off in the legend
    this.pinned = -1; // the query shown alone (select), or -1
    this.numbers = null;
    const focusFrom = (event) => {
      const token = event.target.closest?.('[data-side]');
      const at = token ? { side: token.dataset.side, index: Number(token.dataset.index) } : null;
      if (at && event.type === 'focusin') this.rove(at);
      this.focus(at);
    };
    this.svg.addEventListener('pointerover', focusFrom);
    this.svg.addEventListener('focusin', focusFrom);
    this.svg.addEventListener('pointerleave', () => this.focus(null));
    this.svg.addEventListener('focusout', (event) => {
      if (!this.svg.contains(event.relatedTarget)) this.focus(null);
    });
    this.current = { side: 'query', index: 0 }; // the token that holds the Tab stop
    this.svg.addEventListener('keydown', (event) => this.move(event));
  }

  /** Arrow keys: along a side (its axis) to the next token, across to the other side; Home/End. */
  move(event) {
    const token = event.target.closest?.('[data-side]');
    if (!token || !this.numbers) return;
    const side = token.dataset.side;
    const index = Number(token.dataset.index);
    const vertical = this.options.orientation === 'vertical';
    const [back, on, across] = vertical
      ? ['ArrowUp', 'ArrowDown', ['ArrowLeft', 'ArrowRight']]
      : ['ArrowLeft', 'ArrowRight', ['ArrowUp', 'ArrowDown']];
    const count = (s) => (s === 'query' ? this.numbers.queries : this.numbers.keys).length;
    let next = null;
    if (event.key === on) next = { side, index: Math.min(index + 1, count(side) - 1) };
    else if (event.key === back) next = { side, index: Math.max(index - 1, 0) };
    else if (event.key === 'Home') next = { side, index: 0 };
    else if (event.key === 'End') next = { side, index: count(side) - 1 };
    else if (across.includes(event.key)) {
      const other = side === 'query' ? 'key' : 'query';
      next = { side: other, index: Math.min(index, count(other) - 1) };
    }
    if (!next) return;
    event.preventDefault();
    this.svg.querySelector(`[data-side="${next.side}"][data-index="${next.index}"]`)?.focus();
  }

  /**
   * @param {{queries: string[], keys: string[], heads: TokenLinesHead[]}} numbers
   */
  update(numbers) {
    this.numbers = numbers;
    const { side, index } = this.current; // the Tab stop stays on a token that exists
    this.current = {
      side,
      index: Math.min(index, Math.max(0, (side === 'query' ? numbers.queries : numbers.keys).length - 1)),
    };
    if (this.pinned >= numbers.queries.length) this.pinned = -1;
    for (const h of [...this.hidden]) if (h >= numbers.heads.length) this.hidden.delete(h);
    this.drawLegend();
    this.draw();
  }

  /** Shows only the lines of query `index` (-1: all queries). */
  select(index) {
    this.pinned = index;
    if (this.numbers) this.draw();
  }

  /** Gives the Tab stop to token `at` ({ side, index }). */
  rove(at) {
    this.current = at;
    for (const node of this.svg.querySelectorAll('.token-lines-token')) {
      const mine = node.dataset.side === at.side && Number(node.dataset.index) === at.index;
      node.setAttribute('tabindex', mine ? '0' : '-1');
    }
  }

  /** Highlights one token's lines (null: none). Called on hover/focus, and by linked figures. */
  focus(focus) {
    this.focused = focus;
    this.applyFocus();
    this.options.onFocus?.(focus);
  }

  applyFocus() {
    const focus = this.focused;
    for (const node of this.svg.querySelectorAll('.is-focused')) node.classList.remove('is-focused');
    this.svg.classList.toggle('has-focus', focus !== null);
    if (focus) {
      const attr = focus.side === 'query' ? 'data-query' : 'data-key';
      for (const node of this.svg.querySelectorAll(`[${attr}="${focus.index}"]`)) node.classList.add('is-focused');
      this.svg.querySelector(`[data-side="${focus.side}"][data-index="${focus.index}"]`)?.classList.add('is-focused');
    }
  }

  drawLegend() {
    const { heads } = this.numbers;
    this.legend.replaceChildren();
    if (heads.length < 2) return;
    heads.forEach((head, h) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'token-lines-head';
      button.style.setProperty('--head-colour', headColour(h));
      button.setAttribute('aria-pressed', String(!this.hidden.has(h)));
      button.textContent = head.name;
      button.title = `Show or hide the lines of ${head.name}`;
      button.addEventListener('click', () => {
        if (this.hidden.has(h)) this.hidden.delete(h);
        else this.hidden.add(h);
        button.setAttribute('aria-pressed', String(!this.hidden.has(h)));
        this.draw();
      });
      this.legend.append(button);
    });
  }

  /** Positions of the two sides' tokens and the picture's size. */
  layout() {
    const { queries, keys } = this.numbers;
    const longest = (tokens) => Math.max(1, ...tokens.map((t) => t.length)) * TEXT_PX;
    if (this.options.orientation === 'vertical') {
      // Room for the side titles too ("queries", "keys").
      const qWidth = Math.max(longest(queries), this.options.queryLabel.length * TEXT_PX) + MARGIN;
      const kWidth = Math.max(longest(keys), this.options.keyLabel.length * TEXT_PX) + MARGIN;
      const rows = Math.max(queries.length, keys.length);
      const top = 24;
      return {
        width: qWidth + GAP + kWidth + 2 * MARGIN,
        height: top + rows * ROW + MARGIN,
        query: (i) => ({ x: MARGIN + qWidth, y: top + i * ROW + ROW / 2, anchor: 'end', dx: -4 }),
        key: (j) => ({ x: MARGIN + qWidth + GAP, y: top + j * ROW + ROW / 2, anchor: 'start', dx: 4 }),
        titles: [
          { x: MARGIN, y: 14, anchor: 'start', text: this.options.queryLabel },
          { x: MARGIN + qWidth + GAP, y: 14, anchor: 'start', text: this.options.keyLabel },
        ],
      };
    }
    const step = Math.max(COLUMN, longest([...queries, ...keys]) + 6);
    const count = Math.max(queries.length, keys.length);
    const left = MARGIN + 64;
    const centred = (n) => left + ((count - n) * step) / 2;
    const top = 18;
    const bottom = top + 14 + 110;
    return {
      width: left + count * step + MARGIN,
      height: bottom + 18,
      key: (j) => ({ x: centred(keys.length) + j * step + step / 2, y: top, anchor: 'middle', dy: 4, lineY: top + 8 }),
      query: (i) => ({
        x: centred(queries.length) + i * step + step / 2,
        y: bottom,
        anchor: 'middle',
        dy: 4,
        lineY: bottom - 12,
      }),
      titles: [
        { x: MARGIN, y: top + 4, anchor: 'start', text: this.options.keyLabel },
        { x: MARGIN, y: bottom + 4, anchor: 'start', text: this.options.queryLabel },
      ],
    };
  }

  draw() {
    const { queries, keys, heads } = this.numbers;
    const place = this.layout();
    const vertical = this.options.orientation === 'vertical';
    this.svg.setAttribute('viewBox', `0 0 ${place.width} ${place.height}`);
    this.svg.setAttribute('width', String(place.width));
    this.svg.setAttribute('height', String(place.height));
    // A page may scale the picture to its column, but never its 12 px tokens below 11 px: past
    // that the figure scrolls sideways (through the CSSOM: a strict CSP blocks style attributes).
    this.svg.style.minWidth = `${Math.ceil((place.width * 11) / 12)}px`;
    this.svg.replaceChildren();

    for (const t of place.titles) {
      this.svg.append(svg('text', { class: 'token-lines-title', x: t.x, y: t.y, 'text-anchor': t.anchor }, t.text));
    }
    // Lines first, so the tokens sit on top of them.
    const lines = svg('g', { class: 'token-lines-lines' });
    const end = (p) => (vertical ? [p.x + (p.anchor === 'end' ? 2 : -2), p.y] : [p.x, p.lineY]);
    heads.forEach((head, h) => {
      if (this.hidden.has(h)) return;
      const colour = headColour(h);
      for (let i = 0; i < queries.length; i++) {
        if (this.pinned >= 0 && i !== this.pinned) continue;
        const [x1, y1] = end(place.query(i));
        for (let j = 0; j < keys.length; j++) {
          const w = at(head.weights, i, j);
          if (!(w >= MIN_WEIGHT)) continue;
          const [x2, y2] = end(place.key(j));
          const line = svg('line', {
            x1,
            y1,
            x2,
            y2,
            'stroke-opacity': Math.min(1, w).toFixed(3),
            'stroke-width': heads.length > 1 ? 2 : 3,
            'data-query': i,
            'data-key': j,
            'data-head': h,
            'data-weight': w,
          });
          line.style.stroke = colour; // through the CSSOM: a strict CSP blocks style attributes
          line.append(svg('title', {}, `${head.name}: ${queries[i]} → ${keys[j]}, weight ${shown(w)}`));
          lines.append(line);
        }
      }
    });
    this.svg.append(lines);

    const tokens = (side, list, position) => {
      const g = svg('g', { class: `token-lines-side token-lines-${side}` });
      list.forEach((text, index) => {
        const p = position(index);
        const token = svg('text', {
          x: p.x + (p.dx ?? 0),
          y: p.y + (p.dy ?? 4),
          'text-anchor': p.anchor,
          tabindex: side === this.current.side && index === this.current.index ? 0 : -1,
          'data-side': side,
          'data-index': index,
          class: 'token-lines-token',
          'aria-label': `${side} ${index + 1}: ${text === ' ' ? 'space' : text}`,
        });
        token.textContent = text === ' ' ? '␣' : text;
        if (side === 'query' && index === this.pinned) token.classList.add('is-pinned');
        g.append(token);
      });
      return g;
    };
    this.svg.append(tokens('query', queries, place.query), tokens('key', keys, place.key));
    if (this.focused) this.applyFocus();
  }
}
