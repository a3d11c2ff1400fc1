// Types for 'attention-lab/elements'. Importing the module defines the elements.
import type { Matrix } from 'attention-lab';
export { loadAttention } from 'attention-lab';

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
}
