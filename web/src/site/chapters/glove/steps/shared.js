// What the GloVe chapter's steps share: number formats, and the attention
// matrices drawn as a heatmap with the same weights as token lines beside it.
import { columnCells, rowCells } from '../../../explain/format.js';
import { Heatmap } from '../../../figures/heatmap.js';
import { TokenLines } from '../../../figures/token-lines.js';

export const count = (n) => n.toLocaleString('en-US');
export const bytesText = (n) =>
  n >= 1e9 ? `${(n / 1e9).toFixed(2)} GB` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${Math.round(n / 1e3)} kB`;
const fixed = (x) => (Math.abs(x) < 0.005 && x !== 0 ? x.toExponential(0) : x.toFixed(2));

/** The sentences' tokens as row and column labels. */
export const tokenLabels = (a) => ({ rowLabels: a.qTokens, colLabels: a.kTokens });

/**
 * An attention matrix of the sentences (trace name `name`): a heatmap whose masked
 * cells are hatched, and beside it the same weights as lines between the tokens;
 * pointing at a token outlines its row (a query) or its column (a key).
 * `attention()`: the latest sentencesAttention() (its mask), or null.
 */
export function attentionFigure({ label, linesLabel, name, story, attention }) {
  const map = new Heatmap({
    palette: 'bone',
    label,
    rotateColLabels: true,
    colLabelsOnTop: true,
    format: fixed,
    cellWidth: 46,
    weights: true, // a fixed 0–1 colour scale; "stretch contrast" in the figure's menu
    isMasked: (r, c) => {
      const a = attention();
      return a !== null && a.mask.data[r * a.mask.cols + c] === 0;
    },
    explain: story(name),
  });
  const lines = new TokenLines({
    label: linesLabel,
    onFocus: (focus) => {
      const m = map.matrix;
      if (!m) return;
      map.highlight(
        !focus ? [] : focus.side === 'query' ? rowCells(focus.index, m.cols) : columnCells(m.rows, focus.index),
      );
    },
  });
  lines.element.classList.add('glove-lines'); // one head: the page's accent colour, readable in both themes
  return {
    map,
    elements: [map.element, lines.element],
    show(a, weights) {
      map.update(weights, tokenLabels(a));
      lines.update({ queries: a.qTokens, keys: a.kTokens, heads: [{ name: 'weights', weights }] });
    },
  };
}
