// Custom elements for course websites (import 'attention-lab/elements' and
// include 'attention-lab/elements.css'):
//   <attention-lesson chapter="basics"></attention-lesson>   one whole chapter
//   <attention-heatmap data="[[1,2],[3,4]]" row-labels='["a","b"]'></attention-heatmap>
// Lessons keep their inputs in memory, never in the host page's URL.
import { loadAttention } from 'attention-lab';
import { CHAPTERS } from './chapters/index.js';
import { el } from './dom.js';
import { Heatmap } from './figures/heatmap.js';
import { useMemoryState } from './url-state.js';

useMemoryState();

export class AttentionLessonElement extends HTMLElement {
  static get observedAttributes() {
    return ['chapter'];
  }

  connectedCallback() {
    this.render();
  }

  attributeChangedCallback() {
    if (this.isConnected) this.render();
  }

  async render() {
    const id = this.getAttribute('chapter') ?? CHAPTERS[0].id;
    const chapter = CHAPTERS.find((c) => c.id === id);
    this.classList.add('attention-lab');
    if (!chapter) {
      this.replaceChildren(
        el(
          'p',
          { className: 'error' },
          `attention-lesson: unknown chapter "${id}"; known chapters: ${CHAPTERS.map((c) => c.id).join(', ')}`,
        ),
      );
      return;
    }
    const ticket = (this.ticket = {});
    this.replaceChildren(el('p', { className: 'status', attrs: { role: 'status' } }, 'Loading the WebAssembly core…'));
    const api = await loadAttention();
    if (ticket !== this.ticket) return; // a newer render started meanwhile
    const root = el('article', { className: 'chapter', dataset: { chapter: chapter.id } });
    this.replaceChildren(root);
    chapter.render(root, { api });
    this.dispatchEvent(new CustomEvent('attention-lesson-ready', { bubbles: true, detail: { chapter: chapter.id } }));
  }
}

function parseJsonAttribute(element, name) {
  const text = element.getAttribute(name);
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new TypeError(`attention-heatmap: attribute ${name} is not valid JSON`);
  }
}

/** Accepts number[][] or {rows, cols, data}; returns {rows, cols, data}. */
function asMatrix(value) {
  if (Array.isArray(value)) {
    const rows = value.length;
    const cols = rows ? value[0].length : 0;
    if (
      !rows ||
      !cols ||
      value.some((r) => !Array.isArray(r) || r.length !== cols || r.some((x) => typeof x !== 'number'))
    ) {
      throw new TypeError('attention-heatmap: data must be a non-empty, rectangular number[][]');
    }
    return { rows, cols, data: Float64Array.from(value.flat()) };
  }
  if (
    value &&
    Number.isInteger(value.rows) &&
    Number.isInteger(value.cols) &&
    value.data?.length === value.rows * value.cols
  ) {
    return { rows: value.rows, cols: value.cols, data: Float64Array.from(value.data) };
  }
  throw new TypeError('attention-heatmap: data must be number[][] or {rows, cols, data}');
}

export class AttentionHeatmapElement extends HTMLElement {
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
    ];
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

  draw() {
    if (!this.isConnected) return;
    this.classList.add('attention-lab');
    try {
      const data = this._matrix ?? parseJsonAttribute(this, 'data');
      if (data === undefined) return;
      const number = (name) => (this.hasAttribute(name) ? Number(this.getAttribute(name)) : undefined);
      const options = {
        label: this.getAttribute('label') ?? 'heatmap',
        palette: this.getAttribute('palette') ?? 'viridis',
        rowLabels: parseJsonAttribute(this, 'row-labels'),
        colLabels: parseJsonAttribute(this, 'col-labels'),
        rotateColLabels: this.hasAttribute('rotate-col-labels'),
        annotate: this.getAttribute('annotate') !== 'false',
        colorbar: this.getAttribute('colorbar') !== 'false',
        vmin: number('vmin'),
        vmax: number('vmax'),
      };
      if (!this.heatmap) {
        this.heatmap = new Heatmap(options);
        this.replaceChildren(this.heatmap.element);
      }
      this.heatmap.update(asMatrix(data), options);
    } catch (error) {
      this.heatmap = null;
      this.replaceChildren(el('p', { className: 'error' }, error instanceof Error ? error.message : String(error)));
    }
  }
}

if (!customElements.get('attention-lesson')) customElements.define('attention-lesson', AttentionLessonElement);
if (!customElements.get('attention-heatmap')) customElements.define('attention-heatmap', AttentionHeatmapElement);

export { loadAttention };
