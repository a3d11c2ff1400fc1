// What the Bahdanau chapter's steps share: formula symbols linked to the
// figures, and a heatmap layout that fits any size the fields allow.
import { symbol } from '../../../math.js';
import { formatCell } from '../../../numpy-format.js';

export const hi = symbol('encoder', 'h_i');
export const sDec = symbol('decoder', 's');
export const W1 = symbol('layer1', 'W_1');
export const w2 = symbol('layer2', 'w_2');
export const alpha = symbol('weights', '\\alpha_i');

// Wide matrices get two-decimal cell labels, big ones no labels and smaller
// cells, so every heatmap fits the page.
const twoDecimals = (x) => (Math.abs(x) < 0.005 ? '0' : x.toFixed(2));
export function layout(rows, cols) {
  if (rows <= 20 && cols <= 10)
    return { annotate: true, format: formatCell, cellWidth: undefined, cellHeight: undefined };
  if (rows <= 20 && cols <= 16) return { annotate: true, format: twoDecimals, cellWidth: 40, cellHeight: undefined };
  return {
    annotate: false,
    cellWidth: Math.min(50, Math.max(10, Math.floor(720 / cols))),
    cellHeight: Math.min(32, Math.max(8, Math.floor(420 / rows))),
  };
}

export const asRow = (v) => ({ rows: 1, cols: v.length, data: v });
export const asColumn = (v) => ({ rows: v.length, cols: 1, data: v });
