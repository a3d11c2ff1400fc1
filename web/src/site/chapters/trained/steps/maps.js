// The kinds of heatmap this chapter draws: attention weights (purple, on the
// fixed 0–1 scale with 'Stretch contrast' in the figure's menu, key labels on
// top), the queries or keys a head's weights came from (blue, each cell
// explained as x W + b), and what those projections read and applied (the
// layer's input rows, W and b: drawn as the model sent them, the chapter's inputs).
import { asInput } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { SOURCE_FIELDS, sourceTensor } from '../model.js';

/** @param {object} options Heatmap options (label, cell size, explain, …) over the weights' defaults */
export const weightsMap = (options) =>
  new Heatmap({ palette: 'purple', weights: true, colLabelsOnTop: true, annotate: false, ...options });

/** @param {string} label @param {object} options cell size, explain, … */
export const projectionMap = (label, options) => new Heatmap({ palette: 'blue', label, annotate: false, ...options });

/** What each source figure shows, in words (under it). */
const CAPTIONS = {
  x: (which, use) =>
    which === 'Q'
      ? 'X_q: the rows the queries read (the layer’s input after its layer norm).'
      : use === 'cross'
        ? 'X_k: the rows the keys read (the encoder’s output).'
        : 'X_k: the rows the keys read (in self-attention, the same rows as X_q).',
  W: (which) => `W_${which.toLowerCase()}: column c gives entry c of every ${which === 'Q' ? 'query' : 'key'}.`,
  b: (which) => `b_${which.toLowerCase()}`,
};
const PARTS = {
  x: (which) => `the rows X_${which} the ${which === 'q' ? 'queries' : 'keys'} read`,
  W: (which) => `W_${which}`,
  b: (which) => `b_${which}`,
};

/**
 * The sources of one use and layer's Q and K: for each, x (the layer's normed
 * input rows; cross-attention's keys read the encoder's output), W and b, as
 * input heatmaps labelled after `prefix` (group(which, figure) lays them out after figure). cellWidth × cellHeight sizes x's
 * cells, weightCell W's (and b's width). show(translation, use, layer, labels,
 * figures) draws them and registers them in `figures` by tensor name.
 */
export function projectionSources(prefix, { cellWidth, cellHeight, weightCell, maskedText }) {
  const make = (which, part) => {
    const size =
      part === 'x'
        ? { cellWidth, cellHeight }
        : { cellWidth: weightCell, cellHeight: part === 'W' ? weightCell : cellHeight };
    const label = `${prefix}${PARTS[part](which.toLowerCase())}`;
    return asInput(new Heatmap({ palette: 'blue', label, annotate: false, colorbar: false, maskedText, ...size }));
  };
  const maps = Object.fromEntries(
    ['Q', 'K'].map((which) => [which, { x: make(which, 'x'), W: make(which, 'W'), b: make(which, 'b') }]),
  );
  // The projection first, then what it was computed from, wrapping as the column allows.
  const group = (which, projection) =>
    el(
      'div',
      { className: 'trained-projection-sources' },
      projection.element,
      maps[which].x.element,
      maps[which].W.element,
      maps[which].b.element,
    );
  return {
    maps,
    /** The Q (or K) figure and its sources side by side. */
    group,
    /**
     * @param {{Q: string[], K: string[]}} labels rows of each x
     * @param {{Q?: (r: number) => boolean, K?: (r: number) => boolean}} [later] rows of x not read yet (hatched)
     */
    show(translation, use, layer, labels, figures, later = {}) {
      for (const which of ['Q', 'K']) {
        for (const part of ['x', 'W', 'b']) {
          const map = maps[which][part];
          figures[sourceTensor(use, layer, which, part)] = map;
          captioned(map, CAPTIONS[part](which, use));
          const mask = part === 'x' ? later[which] : undefined;
          map.update(translation[SOURCE_FIELDS[which][part]][use][layer], {
            rowLabels: part === 'x' ? labels[which] : undefined,
            isMasked: mask,
          });
        }
      }
    },
  };
}
