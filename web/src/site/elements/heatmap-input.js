// Reads an <attention-heatmap>'s attributes (and its `matrix` property) into
// Heatmap options, refusing what would break the page: every problem is a
// HeatmapInputError whose message the element shows in place of the figure.
import { PALETTES } from '../figures/palettes.js';

/** Largest matrix drawn at all (cells), and per side. */
export const MAX_CELLS = 1 << 20;
export const MAX_SIDE = 4096;
/** Above this many cells the figure draws one pixel per cell (attribute pixel-above). */
export const DEFAULT_PIXEL_ABOVE = 1024;
/** The largest pixel-above accepted: annotated canvases stay a few thousand pixels wide. */
export const MAX_PIXEL_ABOVE = 4096;
const MAX_LABEL = 200;

export class HeatmapInputError extends Error {
  name = 'HeatmapInputError';
}

const fail = (message) => {
  throw new HeatmapInputError(`attention-heatmap: ${message}`);
};

function jsonAttribute(element, name) {
  const text = element.getAttribute(name);
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return fail(`attribute ${name} is not valid JSON`);
  }
}

function checkSize(rows, cols) {
  if (rows < 1 || cols < 1) fail(`data must have at least one row and one column, got ${rows} × ${cols}`);
  if (rows > MAX_SIDE || cols > MAX_SIDE || rows * cols > MAX_CELLS)
    fail(
      `data of ${rows} × ${cols} is too large to draw (at most ${MAX_SIDE} rows or columns and ${MAX_CELLS.toLocaleString('en-US')} cells)`,
    );
}

/** Accepts number[][] or {rows, cols, data} (an attention-lab Matrix); returns {rows, cols, data}. */
export function readMatrix(value) {
  if (Array.isArray(value)) {
    const rows = value.length;
    const cols = rows && Array.isArray(value[0]) ? value[0].length : 0;
    checkSize(rows, cols);
    const data = new Float64Array(rows * cols);
    for (let r = 0; r < rows; r++) {
      const row = value[r];
      if (!Array.isArray(row) || row.length !== cols)
        fail(
          `data must be rectangular: row ${r} has ${Array.isArray(row) ? row.length : 'no'} entries, row 0 has ${cols}`,
        );
      for (let c = 0; c < cols; c++) {
        if (typeof row[c] !== 'number') fail(`data[${r}][${c}] is not a number`);
        data[r * cols + c] = row[c];
      }
    }
    return { rows, cols, data };
  }
  if (value && typeof value === 'object' && Number.isSafeInteger(value.rows) && Number.isSafeInteger(value.cols)) {
    checkSize(value.rows, value.cols);
    if (value.data?.length !== value.rows * value.cols)
      fail(`data has ${value.data?.length ?? 'no'} values for ${value.rows} × ${value.cols}`);
    return { rows: value.rows, cols: value.cols, data: Float64Array.from(value.data) };
  }
  return fail('data must be number[][] or {rows, cols, data}');
}

function finiteAttribute(element, name) {
  if (!element.hasAttribute(name)) return undefined;
  const text = element.getAttribute(name).trim();
  const x = text === '' ? NaN : Number(text);
  if (!Number.isFinite(x)) fail(`${name}="${text.slice(0, 40)}" is not a finite number`);
  return x;
}

function labels(element, name, count) {
  const value = jsonAttribute(element, name);
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((l) => typeof l !== 'string' && typeof l !== 'number'))
    fail(`${name} must be a JSON array of strings`);
  if (value.length !== count)
    fail(`${name} has ${value.length} labels for ${count} ${name.startsWith('row') ? 'rows' : 'columns'}`);
  return value.map((l) => String(l).slice(0, MAX_LABEL));
}

/**
 * The matrix and Heatmap options an element asks for, or undefined when it
 * has no data yet. Throws HeatmapInputError.
 */
export function readHeatmapInput(element, matrixProperty) {
  const raw = matrixProperty ?? jsonAttribute(element, 'data');
  if (raw === undefined) return undefined;
  const matrix = readMatrix(raw);
  const palette = element.getAttribute('palette') ?? 'viridis';
  if (!Object.hasOwn(PALETTES, palette))
    fail(`palette "${palette.slice(0, 40)}" is not one of ${Object.keys(PALETTES).join(', ')}`);
  const vmin = finiteAttribute(element, 'vmin');
  const vmax = finiteAttribute(element, 'vmax');
  if (vmin !== undefined && vmax !== undefined && vmin > vmax) fail(`vmin (${vmin}) is above vmax (${vmax})`);
  let pixelAbove = DEFAULT_PIXEL_ABOVE;
  if (element.hasAttribute('pixel-above')) {
    const text = element.getAttribute('pixel-above').trim();
    pixelAbove = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!(pixelAbove <= MAX_PIXEL_ABOVE))
      fail(`pixel-above="${text.slice(0, 40)}" must be a whole number from 0 to ${MAX_PIXEL_ABOVE}`);
  }
  return {
    matrix,
    options: {
      label: (element.getAttribute('label') ?? 'heatmap').slice(0, MAX_LABEL),
      palette,
      rowLabels: labels(element, 'row-labels', matrix.rows),
      colLabels: labels(element, 'col-labels', matrix.cols),
      rotateColLabels: element.hasAttribute('rotate-col-labels'),
      annotate: element.getAttribute('annotate') !== 'false',
      colorbar: element.getAttribute('colorbar') !== 'false',
      vmin,
      vmax,
      pixelAbove,
    },
  };
}
