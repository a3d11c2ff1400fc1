// A whole model as boxes, top to bottom: the embedding, one row per layer (its
// norms, attention, residual adds and MLP, each box with its output shape), the
// final norm and the output head. Each layer's attention box carries a strip of
// the chosen token's attention (heads × positions, one pixel per weight, on a
// fixed 0–1 scale) and opens that layer when chosen. Hover or focus explains a
// box in the readout below. One Tab stop: the arrow keys move between boxes.
// Built with el() (text through textContent only), painted in the page's scheme.
import { el } from '../dom.js';
import { track } from './live.js';
import { paletteFor } from './palettes.js';

const STRIP_WIDTH = 88; // CSS px: a strip's width, whatever its positions
const STRIP_ROW = 5; // CSS px per head

/**
 * @typedef {{ kind: string, name: string, title: string, shape: { symbols: string, values: number[], text: string },
 *             about: string, weights: string }} Box
 * @typedef {{ index: number, window: number | null, attention: string, boxes: Box[] }} Layer
 * @typedef {{ rows: number, cols: number, data: ArrayLike<number> }} Strip
 */

export class ModelOverview {
  /**
   * @param {{ label: string, palette?: string, onSelectLayer: (layer: number) => void }} options
   */
  constructor(options) {
    this.options = { palette: 'purple', ...options };
    this.readout = el('p', { className: 'overview-readout', attrs: { 'aria-live': 'polite' } });
    this.body = el('div', {
      className: 'overview-body',
      attrs: { role: 'group', 'aria-label': options.label },
    });
    this.caption = el('figcaption', { className: 'heatmap-caption' });
    this.element = el('figure', { className: 'model-overview' }, this.body, this.readout, this.caption);
    this.boxes = []; // every box button, in reading order
    this.strips = []; // layer -> { canvas, strip }
    this.selected = null;
    this.body.addEventListener('keydown', (event) => this.move(event));
    this.hint();
  }

  hint() {
    this.readout.textContent = 'Hover, focus or tap a box to see what it computes and its shape.';
  }

  /** Draws `arch` (architecture.js architectureOf): every box, strips empty until setStrips. */
  update(arch) {
    this.arch = arch;
    this.boxes = [];
    this.strips = [];
    const row = (boxes, className, label) =>
      el(
        'div',
        { className: `overview-row ${className}`, attrs: { role: 'group', 'aria-label': label } },
        ...boxes.map((b) => this.box(b, null)),
      );
    const layers = arch.layers.map((layer) =>
      el(
        'li',
        {
          className: `overview-layer is-${layer.attention}`,
          dataset: { layer: String(layer.index), attention: layer.attention },
          attrs: { 'aria-label': `layer ${layer.index + 1}${layerNote(layer)}` },
        },
        el('span', { className: 'overview-layer-name' }, `layer ${layer.index + 1}${layerNote(layer)}`),
        ...layer.boxes.map((b) => this.box(b, layer)),
      ),
    );
    this.body.replaceChildren(
      row(arch.input, 'overview-input', 'input'),
      el('ol', { className: 'overview-layers', attrs: { 'aria-label': `${arch.layers.length} layers` } }, ...layers),
      row(arch.output, 'overview-output', 'output'),
    );
    this.boxes.forEach((b, i) => (b.tabIndex = i === 0 ? 0 : -1));
    this.select(this.selected);
    this.hint();
  }

  /** One box: a button (an attention box opens its layer), explained on hover and focus. */
  box(b, layer) {
    const attention = b.kind === 'attention' && layer;
    // The name is the visible text with what only a screen reader needs around it (no aria-label:
    // a name that differs from the visible words is one a voice user cannot say).
    const hidden = (text) => el('span', { className: 'overview-hidden' }, text);
    const node = el(
      'button',
      {
        type: 'button',
        className: `overview-box overview-${b.kind}`,
        dataset: {
          kind: b.kind,
          name: b.name,
          shape: b.shape.values.join('×'),
          ...(layer ? { layer: String(layer.index) } : {}),
        },
      },
      hidden(layer ? `layer ${layer.index + 1}, ` : ''),
      el('span', { className: 'overview-box-title' }, b.kind === 'add' ? '+' : b.title),
      hidden(` (${b.name}), output `),
      el('span', { className: 'overview-box-shape' }, b.shape.symbols),
      hidden(` = ${b.shape.values.join(' × ')}${attention ? ': open this layer’s heads' : ''}`),
    );
    if (attention) {
      const canvas = el('canvas', { className: 'overview-strip', attrs: { 'aria-hidden': 'true' } });
      node.append(canvas);
      const entry = { canvas, strip: null, draw: () => this.paint(entry) };
      this.strips[layer.index] = entry;
      track(entry);
      node.addEventListener('click', () => this.options.onSelectLayer(layer.index));
    }
    const explain = () => {
      this.readout.textContent = `${layer ? `Layer ${layer.index + 1}: ` : ''}${b.title} (${b.name}): ${b.about}. Output ${b.shape.text}.${b.weights ? ` Weights: ${b.weights}.` : ''}${this.live(b, layer)}`;
    };
    node.addEventListener('pointerenter', explain);
    node.addEventListener('focus', () => {
      this.boxes.forEach((x) => (x.tabIndex = x === node ? 0 : -1));
      explain();
    });
    this.boxes.push(node);
    return node;
  }

  /** The live numbers a box's readout adds: a layer's strip, the output's probability. */
  live(b, layer) {
    if (b.kind === 'attention' && layer && this.stripText) return ` ${this.stripText(layer.index)}`;
    if (b.kind === 'head' && this.headText) return ` ${this.headText}`;
    return '';
  }

  /** Arrow keys, Home and End move between the boxes (one Tab stop for the figure). */
  move(event) {
    const steps = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    const at = this.boxes.indexOf(/** @type {any} */ (event.target));
    if (at < 0) return;
    let to = at;
    if (event.key in steps) to = at + steps[event.key];
    else if (event.key === 'Home') to = 0;
    else if (event.key === 'End') to = this.boxes.length - 1;
    else return;
    event.preventDefault();
    this.boxes[Math.max(0, Math.min(this.boxes.length - 1, to))].focus();
  }

  /** Marks layer `layer`'s attention box as the one the chapter's head view shows. */
  select(layer) {
    this.selected = layer;
    for (const b of this.boxes)
      if (b.dataset.kind === 'attention') b.setAttribute('aria-pressed', String(Number(b.dataset.layer) === layer));
  }

  /**
   * The chosen token's strips, one per layer (heads × positions), with the readouts'
   * live sentences: stripText(layer) for an attention box, headText for the output head.
   * @param {Strip[]} strips @param {(layer: number) => string} stripText @param {string} headText
   */
  setStrips(strips, stripText, headText) {
    this.stripText = stripText;
    this.headText = headText;
    strips.forEach((strip, l) => {
      const entry = this.strips[l];
      if (!entry) return;
      entry.strip = strip;
      this.paint(entry);
    });
    this.element.dataset.strips = String(strips.length);
  }

  /** One pixel per weight, scaled up without smoothing, in the page's colour scheme. */
  paint({ canvas, strip }) {
    if (!strip) return;
    const scheme = canvas.isConnected && getComputedStyle(canvas).getPropertyValue('--al-heatmap-scheme').trim();
    const palette = paletteFor(this.options.palette, scheme === 'dark' ? 'dark' : 'light');
    canvas.width = Math.max(1, strip.cols);
    canvas.height = Math.max(1, strip.rows);
    canvas.style.width = `${STRIP_WIDTH}px`;
    canvas.style.height = `${Math.max(1, strip.rows) * STRIP_ROW}px`;
    const context = canvas.getContext('2d');
    if (!context || strip.rows === 0 || strip.cols === 0) return;
    const image = context.createImageData(strip.cols, strip.rows);
    for (let i = 0; i < strip.rows * strip.cols; i++) {
      const [r, g, b] = palette(Math.min(1, Math.max(0, strip.data[i])));
      image.data.set([r, g, b, 255], 4 * i);
    }
    context.putImageData(image, 0, 0);
  }
}

/** ", sliding window 4" / ", global" after a layer's name, where the family marks its layers. */
function layerNote(layer) {
  if (layer.attention === 'sliding') return `, sliding window ${layer.window}`;
  if (layer.attention === 'global') return ', global';
  return '';
}
