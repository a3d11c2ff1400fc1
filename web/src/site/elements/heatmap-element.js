// <attention-heatmap>: a matrix as a heatmap, from a JSON `data` attribute or the
// `matrix` property. Attribute values come from anyone: they are validated
// (elements/heatmap-input.js) and a problem shows as a message, never a throw.
import { Heatmap } from '../figures/heatmap.js';
import { applyTheme, Base, message, shadowFrame } from './frame.js';
import { readHeatmapInput } from './heatmap-input.js';

export class AttentionHeatmapElement extends Base {
  static get observedAttributes() {
    return [
      'data',
      'row-labels',
      'col-labels',
      'palette',
      'label',
      'annotate',
      'colorbar',
      'rotate-col-labels',
      'vmin',
      'vmax',
      'pixel-above',
      'theme',
    ];
  }

  constructor() {
    super();
    this.frame = shadowFrame(this);
    this.heatmap = null;
    this._matrix = undefined;
  }

  /** Set a matrix directly: number[][] or {rows, cols, data} (e.g. an attention-lab Matrix). */
  set matrix(value) {
    this._matrix = value;
    this.draw();
  }

  get matrix() {
    return this._matrix;
  }

  connectedCallback() {
    this.draw();
  }

  attributeChangedCallback() {
    this.draw();
  }

  /** Draws, or shows why it cannot; never throws (attribute values come from anyone). */
  draw() {
    if (!this.isConnected) return;
    applyTheme(this, this.frame);
    try {
      const input = readHeatmapInput(this, this._matrix ?? undefined);
      if (!input) return;
      if (!this.heatmap) {
        this.heatmap = new Heatmap(input.options);
        this.frame.replaceChildren(this.heatmap.element);
      }
      this.heatmap.update(input.matrix, input.options);
      delete this.dataset.error;
    } catch (error) {
      this.heatmap = null;
      const text = error instanceof Error ? error.message : String(error);
      this.dataset.error = text;
      this.frame.replaceChildren(message(text));
    }
  }
}
