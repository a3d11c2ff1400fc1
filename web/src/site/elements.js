// Custom elements for course websites (import 'attention-lab/elements'):
//   <attention-lesson chapter="basics"></attention-lesson>   one whole chapter
//   <attention-heatmap data="[[1,2],[3,4]]" row-labels='["a","b"]'></attention-heatmap>
// Each element renders into its own shadow root with its own styles (nothing
// leaks in or out), keeps its own state in memory (never the host page's URL),
// and on removal stops its workers. Importing this module where there is no
// DOM (server-side rendering) defines nothing and throws nothing.
import { el } from './dom.js';
import { repaintAll } from './figures/live.js';
import { PALETTES } from './figures/palettes.js';
import { CHAPTERS, loadChapter } from './chapters/index.js';
import { memoryStore } from './url-state.js';
import { setPredicting } from './predict.js';
import { applyTheme, Base, canDefine, message, shadowFrame, THEMES } from './elements/frame.js';
import { AttentionHeatmapElement } from './elements/heatmap-element.js';
import { declareFonts } from './elements/styles.js';
import { packagedAssets } from './elements/assets.js';

/**
 * The page's API module ('attention-lab'), imported when a lesson (or the page)
 * first asks for it: a page with only heatmaps loads no wasm. One module, so one
 * wasm instance with the page's own `import 'attention-lab'`.
 * @type {typeof import('attention-lab').loadAttention}
 */
const loadAttention = (options) => import('attention-lab').then((api) => api.loadAttention(options));

// The chapters (chapters/index.js), each loaded when a lesson first shows it: its
// own chunk in the ES module build, so a page with the Basics lesson loads only that chapter.
const CHAPTER_IDS = CHAPTERS.map((c) => c.id);

export class AttentionLessonElement extends Base {
  static get observedAttributes() {
    return ['chapter', 'palette', 'theme', 'vectors-url', 'glove-worker-url', 'fonts-url', 'predict', 'model-src'];
  }

  constructor() {
    super();
    this.frame = shadowFrame(this);
    /** This lesson's own state (chapter inputs), kept across re-renders and moves. */
    this.store = memoryStore();
    this.storeChapter = null;
    this.controller = null;
  }

  connectedCallback() {
    declareFonts(this.getAttribute('fonts-url') ?? undefined);
    this.render();
  }

  disconnectedCallback() {
    // Ends the chapter: its workers terminate, its trainers are freed.
    this.controller?.abort();
    this.controller = null;
    this.frame.replaceChildren();
  }

  attributeChangedCallback(name, before, after) {
    if (before === after || !this.isConnected) return;
    if (name === 'theme' || name === 'palette') this.applyLook();
    else if (name === 'predict') this.applyPredict();
    else if (name !== 'fonts-url') this.render();
  }

  applyLook() {
    applyTheme(this, this.frame);
    const palette = this.getAttribute('palette');
    if (palette && Object.hasOwn(PALETTES, palette)) this.frame.dataset.paletteOverride = palette;
    else delete this.frame.dataset.paletteOverride;
    repaintAll();
  }

  /** The `predict` attribute: ask one question per step before its results show. */
  applyPredict() {
    const root = this.frame.querySelector('article.chapter');
    if (root) setPredicting(root, this.hasAttribute('predict') && this.getAttribute('predict') !== 'false');
  }

  async render() {
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    this.applyLook();
    const id = this.getAttribute('chapter') ?? CHAPTER_IDS[0];
    const entry = CHAPTERS.find((c) => c.id === id);
    const theme = this.getAttribute('theme');
    const problems = [];
    if (!entry)
      problems.push(
        `attention-lesson: unknown chapter "${id.slice(0, 40)}"; known chapters: ${CHAPTER_IDS.join(', ')}`,
      );
    if (theme !== null && !THEMES.includes(theme))
      problems.push(`attention-lesson: theme "${theme.slice(0, 40)}" is not one of ${THEMES.join(', ')}`);
    const palette = this.getAttribute('palette');
    if (palette !== null && !Object.hasOwn(PALETTES, palette))
      problems.push(
        `attention-lesson: palette "${palette.slice(0, 40)}" is not one of ${Object.keys(PALETTES).join(', ')}`,
      );
    if (problems.length) {
      this.frame.replaceChildren(...problems.map(message));
      return;
    }
    if (this.storeChapter !== id) {
      this.store = memoryStore(); // another chapter: start from its defaults
      this.storeChapter = id;
    }
    this.frame.replaceChildren(
      el('p', { className: 'status', attrs: { role: 'status' } }, 'Loading the WebAssembly core…'),
    );
    let api;
    let chapter;
    try {
      [api, chapter] = await Promise.all([loadAttention({ trainers: false }), loadChapter(entry)]);
    } catch (error) {
      if (!controller.signal.aborted)
        this.frame.replaceChildren(message(`attention-lesson: could not start the lesson: ${error.message}`));
      return;
    }
    if (controller.signal.aborted) return; // removed, or a newer render started meanwhile
    const root = el('article', { className: 'chapter', dataset: { chapter: chapter.id } });
    this.frame.replaceChildren(root);
    this.applyPredict();
    // Assets next to this module (elements/assets.js); the lesson's attributes
    // override them for hosts that move the files. The GloVe vectors are the
    // API's own default (loadDefaultEmbeddings, a URL literal in dist/lib).
    let assets = {};
    try {
      assets = packagedAssets();
    } catch {
      // no module address (a classic script added without a src): the chapters' defaults
    }
    const vectors = this.getAttribute('vectors-url');
    const gloveWorker = this.getAttribute('glove-worker-url');
    if (vectors) assets.vectors = new URL(vectors, document.baseURI).href;
    if (gloveWorker) assets.gloveWorker = new URL(gloveWorker, document.baseURI).href;
    // The model chapter's folder: resolved and checked (same origin only) by the chapter.
    const modelSrc = this.getAttribute('model-src');
    if (modelSrc) assets.modelSrc = modelSrc;
    try {
      chapter.render(root, { api, store: this.store, signal: controller.signal, assets });
    } catch (error) {
      this.frame.replaceChildren(
        message(`attention-lesson: ${error instanceof Error ? error.message : String(error)}`),
      );
      return;
    }
    this.dispatchEvent(new CustomEvent('attention-lesson-ready', { bubbles: true, detail: { chapter: chapter.id } }));
  }
}

export { AttentionHeatmapElement };

if (canDefine()) {
  if (!customElements.get('attention-lesson')) customElements.define('attention-lesson', AttentionLessonElement);
  if (!customElements.get('attention-heatmap')) customElements.define('attention-heatmap', AttentionHeatmapElement);
}

export { loadAttention };
