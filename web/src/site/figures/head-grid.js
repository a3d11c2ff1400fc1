// A model view: one small picture per layer (rows) and head (columns) of one
// use of attention, each a button that opens that head large. Drawn from the
// live weights on a fixed 0–1 scale (weights are probabilities), so heads can be
// compared at a glance; a cell is one ImageData pixel scaled up without smoothing.
import { PALETTES } from './palettes.js';

const SIZE = 72; // CSS px: the longer side of a thumbnail

/**
 * @typedef {{rows: number, cols: number, data: ArrayLike<number>}} Weights
 */

export class HeadGrid {
  /**
   * @param {{label: string, palette?: string, onSelect: (layer: number, head: number) => void}} options
   */
  constructor(options) {
    this.options = { palette: 'purple', ...options };
    this.element = document.createElement('div');
    this.element.className = 'head-grid';
    this.element.setAttribute('role', 'group');
    this.element.setAttribute('aria-label', options.label);
    this.buttons = [];
  }

  /**
   * @param {Weights[][]} maps layers × heads
   * @param {{layer: number, head: number} | null} selected
   * @param {string} useName for the buttons' names, e.g. "encoder–decoder attention"
   */
  update(maps, selected, useName) {
    const layers = maps.length;
    const heads = maps[0]?.length ?? 0;
    this.element.style.setProperty('--heads', String(heads));
    if (this.buttons.length !== layers * heads || this.useName !== useName) this.build(layers, heads, useName);
    maps.forEach((row, layer) =>
      row.forEach((m, head) => {
        const button = this.buttons[layer * heads + head];
        button.setAttribute('aria-pressed', String(selected?.layer === layer && selected?.head === head));
        this.paint(button.querySelector('canvas'), m);
      }),
    );
  }

  build(layers, heads, useName) {
    this.useName = useName;
    this.element.replaceChildren();
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
    for (let layer = 0; layer < layers; layer++) {
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
      }
    }
  }

  /** One pixel per weight, scaled to SIZE with crisp edges. */
  paint(canvas, m) {
    const palette = PALETTES[this.options.palette];
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
