// A model view: one small picture per layer (rows) and head (columns) of one
// use of attention, each a button that opens that head large. Drawn from the
// live weights on a fixed 0–1 scale (weights are probabilities), so heads can be
// compared at a glance; a cell is one ImageData pixel scaled up without smoothing.
//
// A real model may have thousands of maps (64 layers × 64 heads drew 65,536 in
// one task and froze the page for minutes), so the grid shows at most MAX_MAPS
// maps, whole layers at a time, with a note and buttons to page through the
// layers; and it draws them in slices, one task each, the maps on screen first,
// so the page answers input while a big grid fills in.
import { paletteFor } from './palettes.js';

const SIZE = 72; // CSS px: the longer side of a thumbnail
export const MAX_MAPS = 1024; // the most maps one view shows
export const SLICE_MAPS = 32; // the most maps drawn in one task
const SLICE_MS = 8; // a slice also ends after this much drawing
const WIDE = 8; // past these many heads the grid scrolls sideways instead of squeezing its columns

const now = () => (typeof performance === 'undefined' ? Date.now() : performance.now());
const count = (n) => n.toLocaleString('en-US');

/**
 * @typedef {{rows: number, cols: number, data: ArrayLike<number>}} Weights
 */

export class HeadGrid {
  /**
   * @param {{label: string, palette?: string, onSelect: (layer: number, head: number) => void,
   *          maxMaps?: number, sliceMaps?: number}} options
   */
  constructor(options) {
    this.options = { palette: 'purple', maxMaps: MAX_MAPS, sliceMaps: SLICE_MAPS, ...options };
    this.element = document.createElement('div');
    this.element.className = 'head-grid';
    this.element.setAttribute('role', 'group');
    this.element.setAttribute('aria-label', options.label);
    this.buttons = [];
    this.page = 0; // which run of whole layers is shown
    this.maps = null;
    this.shape = ''; // layers × heads × page × use the buttons were built for
    this.pending = new Set(); // indices of buttons whose maps are not drawn yet
    this.visible = new Set(); // buttons near the viewport, drawn first
    this.timer = null;
    this.observer =
      typeof IntersectionObserver === 'undefined'
        ? null
        : new IntersectionObserver(
            (entries) => {
              for (const e of entries) this.visible[e.isIntersecting ? 'add' : 'delete'](e.target);
            },
            { rootMargin: '200px' },
          );
    this.note = document.createElement('p');
    this.note.className = 'head-grid-note';
    this.note.setAttribute('aria-live', 'polite');
    this.earlier = this.pager('earlier layers', -1);
    this.later = this.pager('later layers', 1);
  }

  pager(text, step) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'small head-grid-page';
    button.textContent = text;
    button.addEventListener('click', () => {
      this.page += step;
      if (this.maps) this.update(this.maps, this.selected, this.useName, { keepPage: true, redraw: false });
    });
    return button;
  }

  /** Layers per page, and the heads shown of each layer (all, unless one layer alone passes the cap). */
  layout(layers, heads) {
    const max = this.options.maxMaps;
    const shownHeads = Math.min(heads, max);
    const perPage = Math.max(1, Math.floor(max / Math.max(1, heads)));
    return { shownHeads, perPage, pages: Math.max(1, Math.ceil(layers / perPage)) };
  }

  /**
   * @param {Weights[][]} maps layers × heads
   * @param {{layer: number, head: number} | null} selected
   * @param {string} useName for the buttons' names, e.g. "encoder–decoder attention"
   * @param {{keepPage?: boolean, redraw?: boolean}} [how] redraw false: the maps are those drawn
   *   last, unchanged (only the selection moved); keepPage: the page stays where the reader put it
   */
  update(maps, selected, useName, { keepPage = false, redraw = true } = {}) {
    const layers = maps.length;
    const heads = maps[0]?.length ?? 0;
    const { shownHeads, perPage, pages } = this.layout(layers, heads);
    // A newly selected head on another page brings its page.
    const moved = selected && (selected.layer !== this.selected?.layer || selected.head !== this.selected?.head);
    if (moved && !keepPage) this.page = Math.floor(selected.layer / perPage);
    this.page = Math.min(Math.max(0, this.page), pages - 1);
    const first = this.page * perPage;
    const last = Math.min(layers, first + perPage);
    this.selected = selected;
    const shape = `${layers}×${heads}×${this.page}×${useName}`;
    const rebuilt = this.shape !== shape;
    if (rebuilt) this.build(first, last, shownHeads, useName);
    this.shape = shape;
    this.element.style.setProperty('--heads', String(shownHeads));
    this.element.classList.toggle('head-grid-wide', shownHeads > WIDE);
    this.showNote(layers, heads, first, last, shownHeads, pages);
    for (const button of this.buttons)
      button.setAttribute(
        'aria-pressed',
        String(selected?.layer === Number(button.dataset.layer) && selected?.head === Number(button.dataset.head)),
      );
    // Only the selection changed: the maps drawn stay (a click never redraws a big grid).
    if (!rebuilt && !redraw && maps === this.maps) return;
    this.maps = maps;
    this.pending = new Set(this.buttons.keys());
    this.element.dataset.drawn = '0';
    this.element.dataset.maps = String(this.buttons.length);
    clearTimeout(this.timer);
    this.drawSlice();
  }

  /** Draws one slice (the maps on screen first), then yields to the page before the next. */
  drawSlice() {
    this.timer = null;
    const start = now();
    let drawn = 0;
    const take = (i) => {
      const button = this.buttons[i];
      this.paint(button.querySelector('canvas'), this.maps[button.dataset.layer][button.dataset.head]);
      this.pending.delete(i);
      drawn++;
      return drawn < this.options.sliceMaps && now() - start < SLICE_MS;
    };
    let more = true;
    for (const button of this.visible) {
      const i = this.buttons.indexOf(button);
      if (i >= 0 && this.pending.has(i) && !(more = take(i))) break;
    }
    if (more) for (const i of this.pending) if (!take(i)) break;
    this.element.dataset.drawn = String(this.buttons.length - this.pending.size);
    if (this.pending.size > 0) this.timer = setTimeout(() => this.drawSlice(), 0);
  }

  showNote(layers, heads, first, last, shownHeads, pages) {
    const total = layers * heads;
    const shown = (last - first) * shownHeads;
    this.note.hidden = shown === total;
    this.earlier.disabled = this.page === 0;
    this.later.disabled = this.page >= pages - 1;
    if (this.note.hidden) return;
    const range = last - first === 1 ? `layer ${first + 1}` : `layers ${first + 1}–${last}`;
    const headsText = shownHeads < heads ? ` (heads 1–${shownHeads} of ${count(heads)})` : '';
    this.note.replaceChildren(
      `Showing ${range}${headsText} of ${count(layers)}: ${count(shown)} of ${count(total)} maps; the other ${count(total - shown)} are not drawn. Choose a map’s layer, or page through the layers: `,
      this.earlier,
      ' ',
      this.later,
    );
  }

  build(first, last, heads, useName) {
    this.useName = useName;
    this.observer?.disconnect();
    this.visible.clear();
    this.element.replaceChildren(this.note);
    this.buttons = [];
    const corner = document.createElement('span');
    corner.className = 'head-grid-corner';
    this.element.append(corner);
    for (let h = 0; h < heads; h++) {
      const label = document.createElement('span');
      label.className = 'head-grid-label';
      label.textContent = `head ${h + 1}`;
      this.element.append(label);
    }
    for (let layer = first; layer < last; layer++) {
      const label = document.createElement('span');
      label.className = 'head-grid-label head-grid-layer';
      label.textContent = `layer ${layer + 1}`;
      this.element.append(label);
      for (let head = 0; head < heads; head++) {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'head-grid-cell';
        button.dataset.layer = String(layer);
        button.dataset.head = String(head);
        button.setAttribute('aria-label', `${useName}, layer ${layer + 1}, head ${head + 1}: open it large`);
        button.append(document.createElement('canvas'));
        button.addEventListener('click', () => this.options.onSelect(layer, head));
        this.element.append(button);
        this.buttons.push(button);
        this.observer?.observe(button);
      }
    }
  }

  /** One pixel per weight, scaled to SIZE with crisp edges. */
  paint(canvas, m) {
    const scheme = canvas.isConnected && getComputedStyle(canvas).getPropertyValue('--al-heatmap-scheme').trim();
    const palette = paletteFor(this.options.palette, scheme === 'dark' ? 'dark' : 'light');
    if (canvas.width !== m.cols || canvas.height !== m.rows) {
      canvas.width = Math.max(1, m.cols);
      canvas.height = Math.max(1, m.rows);
    }
    const scale = SIZE / Math.max(m.rows, m.cols, 1);
    canvas.style.width = `${Math.round(m.cols * scale)}px`;
    canvas.style.height = `${Math.round(m.rows * scale)}px`;
    if (m.rows === 0 || m.cols === 0) return;
    const context = canvas.getContext('2d');
    const image = context.createImageData(m.cols, m.rows);
    for (let i = 0; i < m.rows * m.cols; i++) {
      const [r, g, b] = palette(Math.min(1, Math.max(0, m.data[i])));
      image.data[4 * i] = r;
      image.data[4 * i + 1] = g;
      image.data[4 * i + 2] = b;
      image.data[4 * i + 3] = 255;
    }
    context.putImageData(image, 0, 0);
  }
}
