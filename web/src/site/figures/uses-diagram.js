// The three uses of attention in an encoder–decoder Transformer, as boxes:
// the encoder's self-attention, the decoder's masked self-attention, and the
// encoder–decoder attention whose keys and values come from the encoder. Each
// attention box is a toggle button choosing which use the views below show;
// the stack sizes and the head count are the live model's. Wide, the encoder
// sits left of the decoder (560 × 330); narrower than that (a phone), the
// decoder sits above the encoder in a portrait exactly as wide as the figure,
// so the 12 px labels are drawn at 12 px (at 560 wide they were scaled to ~6 px).
import { svg } from '../dom.js';
import { watchWidth } from './live.js';

let instances = 0;

const WIDE = 560;
const NARROWEST = 240; // the portrait's least width: "encoder–decoder attention" fits its box

/**
 * Where everything goes in one layout: the two blocks, their feed-forward boxes and titles,
 * the three attention boxes, the texts under the stacks, the arrows and their notes.
 */
const WIDE_LAYOUT = {
  width: WIDE,
  height: 330,
  blocks: [
    { x: 20, y: 60, width: 220, height: 190, title: [30, 80], ff: [40, 200, 180] },
    { x: 300, y: 20, width: 240, height: 230, title: [310, 40], ff: [320, 200, 200] },
  ],
  uses: { encoderSelf: [40, 100, 180], decoderSelf: [320, 52, 200], cross: [320, 126, 200] },
  source: [130, 290],
  target: [420, 290],
  arrows: ['M130,276 L130,252', 'M240,155 C270,155 280,147 318,147', 'M420,276 L420,252', 'M420,20 L420,6'],
  notes: [
    [244, 190, 'keys, values'],
    [430, 14, 'next'],
  ],
};

/** The portrait, `w` wide: the decoder above the encoder, the keys and values going up the left edge. */
function portraitLayout(w) {
  const inner = w - 60; // the boxes' width
  const mid = w / 2;
  // Between the stacks: the decoder's input (right) over the note on the keys and values (left).
  return {
    width: w,
    height: 484,
    blocks: [
      { x: 10, y: 278, width: w - 20, height: 150, title: [20, 298], ff: [30, 366, inner] },
      { x: 10, y: 28, width: w - 20, height: 196, title: [20, 48], ff: [30, 176, inner] },
    ],
    uses: { encoderSelf: [30, 308, inner], decoderSelf: [30, 58, inner], cross: [30, 120, inner] },
    source: [mid, 468],
    target: [w - 20, 244, 'end'],
    arrows: [
      `M${mid},452 L${mid},430`,
      'M20,278 L20,141 L28,141',
      `M${w - 40},232 L${w - 40},226`,
      `M${mid},26 L${mid},8`,
    ],
    notes: [
      [26, 264, 'keys, values'],
      [mid + 8, 18, 'next'],
    ],
  };
}

export class UsesDiagram {
  /**
   * @param {{onSelect: (use: string) => void, caption: string, unit?: string}} options unit: what the
   *   decoder writes one at a time ('character', 'word'), named by the note on its output arrow
   */
  constructor({ onSelect, caption, unit = 'character' }) {
    this.onSelect = onSelect;
    this.unit = unit;
    this.captionText = caption;
    this.marker = `uses-arrowhead-${++instances}`;
    this.element = document.createElement('figure');
    this.element.className = 'uses-diagram';
    this.svg = svg('svg', {
      role: 'group',
      'aria-label': 'the three uses of attention in the Transformer; choose one to show its maps',
    });
    this.caption = document.createElement('figcaption');
    this.caption.className = 'heatmap-caption';
    this.element.append(this.svg, this.caption);
    this.room = WIDE; // the figure's width, once it is on the page
    this.state = null;
    // The layout follows the width the figure gets (known once it is on the page, and after
    // every resize): a phone gets the portrait.
    watchWidth(this.element, (room) => {
      const redraw = room < WIDE || this.room < WIDE; // the wide layout does not depend on the width
      this.room = room;
      if (redraw && this.state) this.update(this.state);
    });
  }

  /**
   * @param {{layers: number, heads: number, selected: string | null, source: string, target: string}} state
   *   source and target: the texts under the encoder and the decoder (e.g. the input, what was written)
   */
  update(state) {
    this.state = state;
    const { layers, heads, selected, source, target } = state;
    const portrait = this.room < WIDE;
    const place = portrait ? portraitLayout(Math.max(NARROWEST, this.room)) : WIDE_LAYOUT;
    const s = this.svg;
    s.setAttribute('viewBox', `0 0 ${place.width} ${place.height}`);
    s.setAttribute('width', String(place.width));
    s.setAttribute('height', String(place.height));
    s.dataset.layout = portrait ? 'portrait' : 'wide';
    s.replaceChildren();
    const defs = svg('defs');
    const marker = svg('marker', {
      id: this.marker,
      viewBox: '0 0 10 10',
      refX: 9,
      refY: 5,
      markerWidth: 7,
      markerHeight: 7,
      orient: 'auto-start-reverse',
    });
    marker.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', fill: 'currentColor' }));
    defs.append(marker);
    s.append(defs);
    const arrow = (d) => {
      const path = svg('path', { d, class: 'uses-arrow' });
      path.style.markerEnd = `url(#${this.marker})`;
      return path;
    };

    // Blocks: the encoder stack and the decoder stack, each with its feed-forward box.
    ['encoder', 'decoder'].forEach((name, i) => {
      const b = place.blocks[i];
      const [fx, fy, fw] = b.ff;
      s.append(
        svg('rect', { class: 'uses-block', x: b.x, y: b.y, width: b.width, height: b.height, rx: 8 }),
        svg('text', { x: b.title[0], y: b.title[1] }, `${name} layer × ${layers}`),
        svg('rect', { class: 'uses-other', x: fx, y: fy, width: fw, height: 32, rx: 4 }),
        svg('text', { x: fx + fw / 2, y: fy + 21, 'text-anchor': 'middle' }, 'feed-forward'),
      );
    });
    const box = (use, lines) => {
      const [x, y, width] = place.uses[use];
      const g = svg('g', {
        class: 'uses-use',
        role: 'button',
        tabindex: 0,
        'data-use': use,
        'aria-pressed': String(use === selected),
      });
      g.append(svg('rect', { x, y, width, height: 42, rx: 6 }));
      lines.forEach((line, i) =>
        g.append(svg('text', { x: x + width / 2, y: y + 17 + 15 * i, 'text-anchor': 'middle' }, line)),
      );
      const choose = () => this.onSelect(use);
      g.addEventListener('click', choose);
      g.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          choose();
        }
      });
      return g;
    };
    s.append(
      box('encoderSelf', ['self-attention', `${heads} heads`]),
      box('decoderSelf', ['masked self-attention', `${heads} heads, causal`]),
      box('cross', ['encoder–decoder attention', `${heads} heads`]),
    );
    // Data flow.
    const short = (text) => (text.length > 30 ? `${text.slice(0, 29)}…` : text);
    const text = ([x, y, anchor = 'middle'], content) => svg('text', { x, y, 'text-anchor': anchor }, short(content));
    s.append(
      text(place.source, source),
      text(place.target, target),
      ...place.arrows.map(arrow),
      ...place.notes.map(([x, y, note]) =>
        svg('text', { class: 'uses-note', x, y }, note === 'next' ? `next ${this.unit}` : note),
      ),
    );
    this.caption.textContent = this.captionText;
  }
}
