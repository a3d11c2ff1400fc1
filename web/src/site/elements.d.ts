// Types for 'attention-lab/elements'. Importing the module defines the elements
// (in a browser; on a server it defines nothing and does not throw).
// React/JSX: import type {} from 'attention-lab/react' (see react.d.ts).
import type { Matrix } from 'attention-lab';
export { loadAttention } from 'attention-lab';

/** The chapters <attention-lesson chapter="…"> knows: the build writes their ids here (every chapters/<id>/meta.js). */
export type AttentionChapter = string;
/** Heatmap palettes (figures/palettes.js). */
export type AttentionPalette = 'orange' | 'purple' | 'blue' | 'green' | 'bone' | 'viridis' | (string & {});

/** Attributes of <attention-lesson>, as written in HTML or JSX. */
export interface AttentionLessonAttributes {
  chapter?: AttentionChapter;
  /** Draw every heatmap of the lesson with this palette (e.g. 'viridis', colour-blind safe). */
  palette?: AttentionPalette;
  /** 'auto' (default: follows the OS), 'light' or 'dark'. */
  theme?: 'auto' | 'light' | 'dark';
  /** Where the GloVe lesson fetches its vectors (default: the package's dist/lib/embeddings file). */
  'vectors-url'?: string;
  /** Where the GloVe lesson starts its file-loading worker (default: lesson-worker.js next to the module). */
  'glove-worker-url'?: string;
  /** The folder holding KaTeX's woff2 fonts (default: fonts/ next to the module). */
  'fonts-url'?: string;
  /** Present (and not "false"): each step asks the reader one question before its results show. */
  predict?: boolean | '' | 'true' | 'false';
  /**
   * The model lesson: a folder on the page's own origin holding config.json, model.safetensors and
   * tokenizer.json (a Hugging Face GPT-2), opened instead of the built-in demo model.
   */
  'model-src'?: string;
}

/** Attributes of <attention-heatmap>. Invalid values show a message inside the element. */
export interface AttentionHeatmapAttributes {
  /** JSON number[][] (at most 4096 rows or columns, 1,048,576 cells). */
  data?: string;
  'row-labels'?: string;
  'col-labels'?: string;
  palette?: AttentionPalette;
  label?: string;
  annotate?: 'true' | 'false';
  colorbar?: 'true' | 'false';
  'rotate-col-labels'?: boolean | '';
  vmin?: number | string;
  vmax?: number | string;
  /** Above this many cells, one pixel per cell (default 1024, at most 4096). */
  'pixel-above'?: number | string;
  theme?: 'auto' | 'light' | 'dark';
}

/** <attention-lesson chapter="basics">: renders one chapter; fires 'attention-lesson-ready'. */
export declare class AttentionLessonElement extends HTMLElement {}

/** <attention-heatmap>: draws a matrix given as the `matrix` property or a JSON `data` attribute. */
export declare class AttentionHeatmapElement extends HTMLElement {
  matrix: number[][] | Matrix | { rows: number; cols: number; data: ArrayLike<number> } | undefined;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-lesson': AttentionLessonElement;
    'attention-heatmap': AttentionHeatmapElement;
  }
  interface HTMLElementEventMap {
    'attention-lesson-ready': CustomEvent<{ chapter: AttentionChapter }>;
  }
}
