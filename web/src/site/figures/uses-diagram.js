// The three uses of attention in an encoder–decoder Transformer, as boxes:
// the encoder's self-attention, the decoder's masked self-attention, and the
// encoder–decoder attention whose keys and values come from the encoder. Each
// attention box is a toggle button choosing which use the views below show;
// the stack sizes and the head count are the live model's.
import { svg } from '../dom.js';

let instances = 0;

export class UsesDiagram {
  /**
   * @param {{onSelect: (use: string) => void, caption: string}} options
   */
  constructor({ onSelect, caption }) {
    this.onSelect = onSelect;
    this.captionText = caption;
    this.marker = `uses-arrowhead-${++instances}`;
    this.element = document.createElement('figure');
    this.element.className = 'uses-diagram';
    this.svg = svg('svg', {
      viewBox: '0 0 560 330',
      width: 560,
      height: 330,
      role: 'group',
      'aria-label': 'the three uses of attention in the Transformer; choose one to show its maps',
    });
    this.caption = document.createElement('figcaption');
    this.caption.className = 'heatmap-caption';
    this.element.append(this.svg, this.caption);
  }

  /**
   * @param {{layers: number, heads: number, selected: string | null, source: string, target: string}} state
   *   source and target: the texts under the encoder and the decoder (e.g. the input, what was written)
   */
  update({ layers, heads, selected, source, target }) {
    const s = this.svg;
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

    // Blocks: the encoder stack (left), the decoder stack (right).
    s.append(
      svg('rect', { class: 'uses-block', x: 20, y: 60, width: 220, height: 190, rx: 8 }),
      svg('text', { x: 30, y: 80 }, `encoder layer × ${layers}`),
      svg('rect', { class: 'uses-block', x: 300, y: 20, width: 240, height: 230, rx: 8 }),
      svg('text', { x: 310, y: 40 }, `decoder layer × ${layers}`),
      svg('rect', { class: 'uses-other', x: 40, y: 200, width: 180, height: 32, rx: 4 }),
      svg('text', { x: 130, y: 221, 'text-anchor': 'middle' }, 'feed-forward'),
      svg('rect', { class: 'uses-other', x: 320, y: 200, width: 200, height: 32, rx: 4 }),
      svg('text', { x: 420, y: 221, 'text-anchor': 'middle' }, 'feed-forward'),
    );
    const box = (use, x, y, width, lines) => {
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
      box('encoderSelf', 40, 100, 180, ['self-attention', `${heads} heads`]),
      box('decoderSelf', 320, 52, 200, ['masked self-attention', `${heads} heads, causal`]),
      box('cross', 320, 126, 200, ['encoder–decoder attention', `${heads} heads`]),
    );
    // Data flow.
    const short = (text) => (text.length > 30 ? `${text.slice(0, 29)}…` : text);
    s.append(
      svg('text', { x: 130, y: 290, 'text-anchor': 'middle' }, short(source)),
      arrow('M130,276 L130,252'),
      arrow('M240,155 C270,155 280,147 318,147'),
      svg('text', { class: 'uses-note', x: 244, y: 190 }, 'keys, values'),
      svg('text', { x: 420, y: 290, 'text-anchor': 'middle' }, short(target)),
      arrow('M420,276 L420,252'),
      arrow('M420,20 L420,6'),
      svg('text', { class: 'uses-note', x: 430, y: 14 }, 'next character'),
    );
    this.caption.textContent = this.captionText;
  }
}
