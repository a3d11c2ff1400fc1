// The two kinds of heatmap this chapter draws: attention weights (purple, on
// the fixed 0–1 scale with 'Stretch contrast' in the figure's menu, key labels
// on top) and the queries or keys a head's weights came from (blue, drawn as
// the model sent them: inputs of the readouts, not explained themselves).
import { asInput } from '../../../chapter-kit.js';
import { Heatmap } from '../../../figures/heatmap.js';

/** @param {object} options Heatmap options (label, cell size, explain, …) over the weights' defaults */
export const weightsMap = (options) =>
  new Heatmap({ palette: 'purple', weights: true, colLabelsOnTop: true, annotate: false, ...options });

/** @param {string} label @param {{cellWidth: number, cellHeight: number, colorbar?: boolean}} size */
export const projectionMap = (label, size) =>
  asInput(new Heatmap({ palette: 'blue', label, annotate: false, ...size }));
