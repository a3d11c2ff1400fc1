// The heatmap figure. Small matrices are drawn in the notebooks' style: numbers
// in the cells, white grid lines, optional row/column labels and a colour bar,
// crisp on high-DPI screens. Matrices with more than `pixelAbove` cells switch
// to pixel mode: one canvas pixel per cell, enlarged by CSS without smoothing,
// no text, the colour scale in the caption, so a 128 × 128 repaint stays far
// below a frame. Hover, keyboard, clicks, PNG, NumPy copy and the table view
// work in both modes.
import { el } from '../dom.js';
import { formatCell, formatNumpy } from '../numpy-format.js';
import { claimExplainedCell, releaseExplainedCell } from './explained-cell.js';
import { heatmapTools } from './heatmap-tools.js';
import { track, repaintAll, themeGeneration, widthGeneration } from './live.js';
import { luminance, PALETTES, paletteFor, rgb } from './palettes.js';

const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const LABEL_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const GRID = 1; // white line between cells, like seaborn's linewidths=1
const COLORBAR_WIDTH = 12;
const TICK_GAP = 8; // tick mark (3 px) plus white space before its label
const SMALL_FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const MIN_CELL = 20; // narrowest cell when fitting a narrow screen (CSS px)
const BAR_BELOW_WIDTH = 160; // a colour bar drawn under the grid

/** A colour-bar label: the cell format with U+2212 for negatives. */
export const tickLabel = (t) => formatCell(t).replace(/^-/, '\u2212');

/**
 * @typedef {object} HeatmapOptions
 * @property {string} [palette] key of PALETTES (default 'orange')
 * @property {string[]} [rowLabels]
 * @property {string[]} [colLabels]
 * @property {boolean} [rotateColLabels] draw column labels vertically (long tokens)
 * @property {boolean} [colLabelsOnTop] matplotlib's matshow puts them on top
 * @property {boolean} [annotate] numbers in cells (default true)
 * @property {(x: number) => string} [format] cell text (default formatCell)
 * @property {boolean} [colorbar] default true
 * @property {number} [vmin] colour scale (default: finite data min)
 * @property {number} [vmax] colour scale (default: finite data max)
 * @property {boolean} [weights] attention weights: a fixed 0–1 colour scale unless the reader
 *   stretches it from the figure's menu (heatmap-tools.js)
 * @property {boolean} [diverging] matrices with both signs (and no vmin/vmax) use the diverging
 *   palette on a scale symmetric about 0, so zero is white and the sign reads at a glance (default true)
 * @property {number} [cellWidth] minimum, CSS px (default 44)
 * @property {number} [cellHeight] CSS px (default 28)
 * @property {string} label accessible name, e.g. "decoder hidden state"
 * @property {(r: number, c: number) => boolean} [isMasked] cells drawn hatched, without their colour (grey in pixel mode)
 * @property {string} [maskedText] what the values table shows in a masked cell (default: its value)
 * @property {number} [pixelAbove] pixel mode when rows * cols exceeds this (default: never)
 * @property {string} [caption] a caption under the picture
 * @property {boolean} [lazy] while the figure is off screen (further than LAZY_MARGIN from the
 *   viewport), update() writes its caption but leaves the canvas for when it scrolls into view
 *   (the canvas says data-painted="stale" meanwhile): a chapter with many large figures
 *   then repaints on an edit only what the reader can see
 * @property {(r: number, c: number) => CellStory | null} [explain] where a cell's value comes
 *   from: hovering, focusing or tapping the cell outlines it, outlines its sources in the other
 *   figures and writes the arithmetic in a readout under the figure (also announced)
 *
 * Keyboard: Tab focuses the canvas, arrow keys move between cells (the readout
 * names the value, row and column), Enter or Space dispatches a 'cellactivate'
 * event ({ detail: { row, col } }) that chapters can treat like a click.
 */

/**
 * @typedef {object} CellStory a computed cell explained (built by the chapter's model)
 * @property {string} text the arithmetic with the actual numbers, e.g. "e1 = 5·3 + 1·12 + 20·45 = 927"
 * @property {Array<{figure: Heatmap, cells: Array<[number, number]>}>} sources cells it was computed from
 */

const IDLE_STORY = 'Hover, focus or tap a cell to see how it was computed.';

let paletteOverride = null;

/** Switches every heatmap to `name` (e.g. 'viridis'), or back to their own palettes with null. */
export function setPaletteOverride(name) {
  paletteOverride = name && PALETTES[name] ? name : null;
  repaintAll();
}

export class Heatmap {
  /** @param {HeatmapOptions} options */
  constructor(options) {
    this.options = { palette: 'orange', annotate: true, colorbar: true, format: formatCell, ...options };
    this.canvas = el('canvas', {
      className: 'heatmap-canvas',
      tabIndex: 0,
      attrs: { role: 'img' },
      on: {
        mousemove: (e) => this.pointAt(e.offsetX, e.offsetY),
        pointerdown: (e) => this.pointAt(e.offsetX, e.offsetY), // a tap on a phone
        mouseleave: () => this.showCell(null),
        focus: () => this.showCell(this.clampedFocus()),
        blur: () => this.showCell(null),
        keydown: (e) => this.keyboard(e),
      },
    });
    this.readout = el('div', { className: 'heatmap-readout', hidden: true, attrs: { 'aria-live': 'polite' } });
    this.table = el('table', { className: 'heatmap-table' });
    // The value table is built only while open: rebuilding thousands of cells
    // on every repaint would cost more than the drawing itself.
    this.details = el(
      'details',
      { className: 'heatmap-values', on: { toggle: () => this.details.open && this.fillTable() } },
      el('summary', {}, 'Values as a table'),
      this.table,
    );
    const tools = heatmapTools(this); // PNG, Copy, table (and a weights scale) behind one menu button
    this.caption = el('figcaption', { className: 'heatmap-caption', hidden: true });
    // Said when a narrow screen leaves some cells without their number (never silently blank).
    this.fitNote = el('p', { className: 'heatmap-fit-note', hidden: true });
    // The provenance readout sits under the figure, in the flow (never over other content).
    this.story = el('p', {
      className: 'heatmap-story',
      hidden: !this.options.explain,
      attrs: { 'aria-live': 'polite' },
    });
    this.story.textContent = IDLE_STORY;
    this.element = el(
      'figure',
      { className: 'heatmap' },
      el('div', { className: 'heatmap-stage' }, this.canvas, this.readout),
      tools, // above the readout, so a readout that grows or shrinks never moves the button
      this.story,
      this.fitNote,
      this.caption,
      this.details,
    );
    /** @type {{rows: number, cols: number, data: ArrayLike<number>} | null} */
    this.matrix = null;
    this.focusCell = null;
    /** @type {[number, number] | null} the cell being explained, outlined */
    this.activeCell = null;
    /** @type {Array<[number, number]>} cells outlined as the sources of a cell in another figure */
    this.highlighted = [];
    /** @type {Heatmap[]} figures this one lit up */
    this.lit = [];
    track(this);
    if (this.options.lazy) watchVisibility(this);
  }

  /**
   * Calls `handler(row, col)` when a cell is clicked, or activated from the
   * keyboard (focus, arrow keys, Enter or Space), in either drawing mode.
   */
  onCellClick(handler) {
    this.canvas.style.cursor = 'pointer';
    this.canvas.addEventListener('click', (event) => {
      const cell = this.cellAt(event.offsetX, event.offsetY);
      if (cell) handler(...cell);
    });
    this.canvas.addEventListener('cellactivate', (event) => handler(event.detail.row, event.detail.col));
  }

  /** The [row, col] under a point in CSS pixels, or null. */
  cellAt(x, y) {
    const l = this.layout;
    // No layout yet, or one of a matrix since reshaped (a lazy figure not repainted): no cell.
    if (!l || !this.matrix || l.rows !== this.matrix.rows || l.cols !== this.matrix.cols) return null;
    const c = Math.floor((x - l.left) / l.cellW);
    const r = Math.floor((y - l.top) / l.cellH);
    return r >= 0 && r < l.rows && c >= 0 && c < l.cols ? [r, c] : null;
  }

  /** The matrix as a NumPy literal, e.g. np.array([[1., 2.]]). */
  numpyLiteral() {
    const { rows, cols, data } = this.matrix;
    return formatNumpy(data, [rows, cols], { prefix: 'np.array(' });
  }

  async copyNumpy() {
    if (!this.matrix) return;
    const text = this.numpyLiteral();
    try {
      await navigator.clipboard.writeText(text);
      this.readout.textContent = 'Copied as a NumPy array.';
      this.readout.hidden = false;
    } catch {
      // No clipboard (file://, old browser): show the text selected, ready to copy.
      const area = el('textarea', {
        className: 'copy-fallback',
        readOnly: true,
        value: text,
        rows: Math.min(8, this.matrix.rows + 1),
      });
      this.element.append(area);
      area.select();
      this.readout.textContent = 'Press Ctrl+C (⌘C) to copy.';
      this.readout.hidden = false;
    }
    this.element.dataset.copied = text;
  }

  downloadPng() {
    if (!this.matrix) return;
    const link = el('a', {
      download: `${(this.options.label || 'heatmap').replace(/[^\w-]+/g, '_')}.png`,
      href: this.canvas.toDataURL('image/png'),
    });
    link.click();
  }

  pointAt(x, y) {
    this.showCell(this.cellAt(x, y));
  }

  /** The keyboard's cell, kept inside the current matrix (it may have shrunk since). */
  clampedFocus() {
    const [r, c] = this.focusCell ?? [0, 0];
    const { rows = 1, cols = 1 } = this.matrix ?? {};
    return [Math.min(r, rows - 1), Math.min(c, cols - 1)];
  }

  keyboard(event) {
    // Moves are counted in the matrix's cells, not the drawing's: the keyboard works on a
    // figure that was never painted (a lazy figure off screen) as on one that was.
    const grid = this.matrix;
    if (!grid) return;
    if ((event.key === 'Enter' || event.key === ' ') && this.focusCell) {
      // Lets chapters make cells actionable from the keyboard, like a click.
      event.preventDefault();
      const [row, col] = this.focusCell;
      this.canvas.dispatchEvent(new CustomEvent('cellactivate', { bubbles: true, detail: { row, col } }));
      return;
    }
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    event.stopPropagation();
    const [r, c] = this.clampedFocus();
    this.focusCell = [
      Math.min(grid.rows - 1, Math.max(0, r + move[0])),
      Math.min(grid.cols - 1, Math.max(0, c + move[1])),
    ];
    this.showCell(this.focusCell);
  }

  /** Outlines `cells` as the sources of a cell being explained elsewhere ([] clears). */
  highlight(cells) {
    if (cells.length === 0 && this.highlighted.length === 0) return;
    this.highlighted = cells;
    this.element.classList.toggle('is-source', cells.length > 0);
    this.repaint();
  }

  /** Explains `cell` (or stops explaining with null): outline, sources, arithmetic. */
  explainCell(cell) {
    const explain = this.options.explain;
    if (!explain) return;
    const same = cell && this.activeCell && cell[0] === this.activeCell[0] && cell[1] === this.activeCell[1];
    if (same || (!cell && !this.activeCell)) return;
    for (const figure of this.lit) figure.highlight([]);
    this.lit = [];
    this.activeCell = cell;
    const story = cell && this.matrix ? explain(cell[0], cell[1]) : null;
    this.story.textContent = story?.text ?? IDLE_STORY;
    for (const { figure, cells } of story?.sources ?? []) {
      if (figure === this) continue;
      figure.highlight(cells);
      this.lit.push(figure);
    }
    this.repaint();
  }

  /**
   * Shows the value, row and column of a cell under the pointer or keyboard focus (null: none).
   * One cell per lesson is shown at a time: showing one here stops the figure that showed one.
   */
  showCell(cell) {
    if (cell && this.matrix) claimExplainedCell(this);
    else releaseExplainedCell(this);
    this.explainCell(cell && this.matrix ? cell : null);
    if (!cell || !this.matrix) {
      this.readout.textContent = '';
      this.readout.hidden = true;
      return;
    }
    const [r, c] = cell;
    const o = this.options;
    const value = this.matrix.data[r * this.matrix.cols + c];
    const rowName = o.rowLabels?.[r] ?? `row ${r + 1}`;
    const colName = o.colLabels?.[c] ?? `column ${c + 1}`;
    // Figures that explain their cells say it under the figure; no tooltip over the page then.
    this.readout.hidden = Boolean(o.explain);
    this.readout.textContent = `${rowName}, ${colName}: ${value}`;
    if (document.activeElement === this.canvas) this.focusCell = cell;
  }

  fillTable() {
    const { rows, cols, data } = this.matrix;
    const o = this.options;
    const head = el(
      'tr',
      {},
      el('th', {}, ''),
      ...Array.from({ length: cols }, (_, c) => el('th', { scope: 'col' }, o.colLabels?.[c] ?? `${c + 1}`)),
    );
    const body = Array.from({ length: rows }, (_, r) =>
      el(
        'tr',
        {},
        el('th', { scope: 'row' }, o.rowLabels?.[r] ?? `${r + 1}`),
        // With maskedText, a masked cell's value is not shown here either (the playback's rows not yet written).
        ...Array.from({ length: cols }, (_, c) =>
          el('td', {}, o.maskedText && o.isMasked?.(r, c) ? o.maskedText : String(data[r * cols + c])),
        ),
      ),
    );
    this.table.replaceChildren(el('caption', {}, o.label), el('thead', {}, head), el('tbody', {}, ...body));
  }

  /**
   * Draws `matrix` ({rows, cols, data} row-major). Options given here override
   * the constructor's for this and later draws.
   */
  update(matrix, options = {}) {
    Object.assign(this.options, options);
    const resized = !this.matrix || this.matrix.rows !== matrix.rows || this.matrix.cols !== matrix.cols;
    this.matrix = matrix;
    if (resized) {
      this.highlighted = [];
      if (this.activeCell) this.explainCell(null);
    } else if (this.activeCell && this.options.explain) {
      // The numbers changed under the pointer: the story follows them.
      const cell = this.activeCell;
      this.activeCell = null;
      this.explainCell(cell);
      return;
    }
    this.repaint();
  }

  /** Draws now, or, for a lazy figure off screen, when it comes into view (see `lazy`). */
  repaint() {
    this.draw({ canvasLater: this.options.lazy === true && this.nearView === false });
  }

  /**
   * Paints the current matrix and writes its caption. `canvasLater` (update() on a lazy figure
   * off screen) writes the caption only; the canvas is painted when it comes into view.
   */
  draw({ canvasLater = false } = {}) {
    const { matrix, options: o, canvas } = this;
    if (!matrix) return;
    const { rows, cols } = matrix;
    const [lo, hi] = colourRange(matrix.data, o);
    // Signed data on a free scale: symmetric about zero, diverging colours.
    this.signed = o.diverging !== false && o.vmin === undefined && o.vmax === undefined && lo < 0 && hi > 0;
    const reach = Math.max(-lo, hi);
    const [vmin, vmax] = this.signed ? [-reach, reach] : [lo, hi];
    const pixels = o.pixelAbove !== undefined && rows * cols > o.pixelAbove;
    canvas.classList.toggle('pixel-map', pixels);
    canvas.classList.toggle('heatmap-canvas', !pixels);
    this.stale = canvasLater;
    if (canvasLater) canvas.dataset.painted = 'stale';
    else if (pixels) this.drawPixels(vmin, vmax);
    else this.drawCells(vmin, vmax);
    // DOM writes only when something changed: a repaint of the same shape at
    // n = 128 should cost the canvas and nothing else (no layout, no new nodes).
    // The mask legend matches the drawing mode: hatched cells, or grey pixels.
    const caption = pixels
      ? `${o.caption ?? o.label} (${rows} × ${cols}; colour scale ${formatCell(vmin)} to ${formatCell(vmax)}${o.isMasked ? '; grey = masked' : ''})`
      : o.caption
        ? `${o.caption}${o.isMasked ? ' (hatched = masked)' : ''}`
        : '';
    setIfChanged(this.caption, 'hidden', !(pixels || o.caption));
    setIfChanged(this.caption, 'textContent', caption);
    const unlabelled = pixels || canvasLater ? 0 : this.unlabelled;
    setIfChanged(this.fitNote, 'hidden', unlabelled === 0);
    setIfChanged(
      this.fitNote,
      'textContent',
      unlabelled === 0
        ? ''
        : `${unlabelled} of ${rows * cols} numbers are not shown: the cells are too narrow at this width. Tap or hover a cell, or open “Values as a table”, to read them.`,
    );
    const label = `${o.label}: heatmap of ${rows} by ${cols} values`;
    if (canvas.getAttribute('aria-label') !== label) canvas.setAttribute('aria-label', label);
    if (!canvasLater) canvas.dataset.painted = 'true';
    if (this.details.open) this.fillTable();
    else if (this.table.childElementCount !== 1 || this.table.firstElementChild.textContent !== o.label)
      this.table.replaceChildren(el('caption', {}, o.label));
  }

  /**
   * The palette drawn: a lesson's own override (its palette attribute), the page's (the reader's
   * choice), else diverging for signed data, else the figure's own.
   */
  paletteName() {
    return (
      this.canvas.closest('[data-palette-override]')?.dataset.paletteOverride ??
      paletteOverride ??
      (this.signed ? 'diverging' : this.options.palette)
    );
  }

  /**
   * The width the figure may take (its container's), read once and again only after the
   * window's width changed (live.js): reading it on every repaint would force a layout
   * in the middle of the chapter's DOM writes.
   */
  roomWidth() {
    if (this.room === undefined || this.room === Infinity || widthGeneration !== this.roomSeen) {
      this.room = this.element.parentElement?.clientWidth || Infinity; // 0 before it is on the page
      this.roomSeen = widthGeneration;
    }
    return this.room;
  }

  /**
   * The theme's ink, frame and highlight colours, read once and again only after the theme
   * changed (live.js): getComputedStyle on every repaint forces a style recalculation.
   */
  themeColours() {
    if (!this.colours || this.coloursSeen !== themeGeneration || !this.colours.read) {
      const styles = getComputedStyle(this.canvas);
      const read = (name, fallback) => styles.getPropertyValue(name).trim() || fallback;
      this.colours = {
        ink: read('--al-heatmap-ink', '#222'),
        frame: read('--al-border', '#dcd8e4'),
        highlight: read('--al-highlight', '#d6246e'),
        grid: read('--al-bg', '#ffffff'),
        masked: read('--al-heatmap-masked', '#c8c8c8'),
        scheme: read('--al-heatmap-scheme', 'light') === 'dark' ? 'dark' : 'light',
        read: this.canvas.isConnected, // before it is on the page the variables are not there yet
      };
      this.coloursSeen = themeGeneration;
    }
    return this.colours;
  }

  /** Pixel mode: one canvas pixel per cell, scaled up by CSS. */
  drawPixels(vmin, vmax) {
    const {
      matrix: { rows, cols, data },
      options: o,
      canvas,
    } = this;
    const room = this.roomWidth(); // fit a narrow screen too
    const block = Math.max(1, Math.min(8, Math.floor(384 / Math.max(rows, cols)), Math.floor(room / cols)));
    if (canvas.width !== cols || canvas.height !== rows) {
      canvas.width = cols;
      canvas.height = rows;
    }
    // Styles set once per size (reading them back from the DOM costs more than remembering).
    const size = `${cols * block}px ${rows * block}px`;
    if (this.pixelSize !== size) {
      canvas.style.width = `${cols * block}px`;
      canvas.style.height = `${rows * block}px`;
      canvas.style.imageRendering = 'pixelated';
      this.pixelSize = size;
    }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    // One ImageData per size, reused; pixels written as whole RGBA words.
    if (this.image?.width !== cols || this.image?.height !== rows) this.image = ctx.createImageData(cols, rows);
    const image = this.image;
    const px = new Uint32Array(image.data.buffer);
    const lut = packedLookupTable(this.paletteName(), this.themeColours().scheme);
    const scale = vmax > vmin ? 255 / (vmax - vmin) : 0;
    const flat = scale === 0; // vmax == vmin: every finite cell takes the middle colour
    for (let k = 0; k < px.length; k++) {
      const x = data[k];
      // x - x is 0 for finite x, NaN for NaN and ±Infinity (grey, like masked cells)
      const level = flat ? 128 : ((x - vmin) * scale + 0.5) | 0;
      px[k] = x - x === 0 ? lut[level < 0 ? 0 : level > 255 ? 255 : level] : lut[MASKED];
    }
    // Masked cells are grey (hatching needs more than one pixel): a second pass,
    // so the loop above stays free of a call per cell.
    const isMasked = o.isMasked;
    if (isMasked) {
      for (let r = 0, k = 0; r < rows; r++) for (let c = 0; c < cols; c++, k++) if (isMasked(r, c)) px[k] = lut[MASKED];
    }
    ctx.putImageData(image, 0, 0);
    this.layout = { left: 0, top: 0, cellW: block, cellH: block, rows, cols };
  }

  /** Annotated mode: labelled cells, grid lines, colour bar. */
  drawCells(vmin, vmax) {
    const { matrix, options: o, canvas } = this;
    const { rows, cols, data } = matrix;
    canvas.style.imageRendering = '';
    this.pixelSize = null;
    const ctx = canvas.getContext('2d');
    const { ink, frame, highlight, grid, masked, scheme } = this.themeColours();
    const palette = paletteFor(this.paletteName(), scheme);
    const texts = Array.from(data, (x) => o.format(x));

    // Layout in CSS pixels (a loop, not Math.max(...): large matrices overflow the call stack).
    ctx.font = FONT;
    let textWidth = 0;
    if (o.annotate) for (const t of texts) textWidth = Math.max(textWidth, ctx.measureText(t).width);
    let cellW = Math.max(o.cellWidth ?? 50, Math.ceil(textWidth) + 12);
    const cellH = o.cellHeight ?? 32;
    ctx.font = LABEL_FONT;
    const rowLabelW = o.rowLabels ? Math.ceil(Math.max(...o.rowLabels.map((l) => ctx.measureText(l).width))) + 8 : 0;
    const colLabelExtent = o.colLabels
      ? o.rotateColLabels
        ? Math.ceil(Math.max(...o.colLabels.map((l) => ctx.measureText(l).width))) + 8
        : 20
      : 0;
    const barH = Math.max(rows * (o.cellHeight ?? 32), 110); // tall enough for readable ticks
    const ticks = colorbarTicks(
      vmin,
      vmax,
      Math.min(6, Math.max(2, Math.floor(barH / 24))) /* at most 6, however tall */,
    );
    const tickW = o.colorbar
      ? Math.ceil(Math.max(...ticks.map((t) => ctx.measureText(tickLabel(t)).width))) + TICK_GAP + 4
      : 0;
    const left = rowLabelW + 2;
    const top = (o.colLabelsOnTop ? colLabelExtent : 0) + 8;
    // Narrow screens: the colour bar moves below the grid, then cells shrink (down to
    // MIN_CELL, with smaller numbers) so the figure fits the column instead of scrolling.
    const room = this.roomWidth();
    const sideBar = o.colorbar ? 14 + COLORBAR_WIDTH + 4 + tickW : 4;
    const barBelow = o.colorbar && left + cols * cellW + sideBar > room;
    if (left + cols * cellW + 4 > room)
      cellW = Math.max(o.annotate ? MIN_CELL : 4, Math.floor((room - left - 4) / cols));
    const small = o.annotate && textWidth + 8 > cellW;
    const gridW = cols * cellW;
    const gridH = rows * cellH;
    const belowGrid = top + gridH + (o.colLabelsOnTop ? 0 : colLabelExtent);
    const width = barBelow ? Math.max(left + gridW + 4, left + BAR_BELOW_WIDTH + 24) : left + gridW + sideBar;
    const height = barBelow
      ? belowGrid + 14 + COLORBAR_WIDTH + 22
      : top + Math.max(gridH + (o.colLabelsOnTop ? 0 : colLabelExtent), o.colorbar ? barH : 0) + 8;

    const dpr = globalThis.devicePixelRatio || 1;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);

    const colorOf = (x) => palette(vmax === vmin ? 0.5 : Math.min(1, Math.max(0, (x - vmin) / (vmax - vmin))));

    // Cells. On a narrow screen some numbers may not fit their cells: draw() says how many.
    // When most do not, none is drawn: a few numbers scattered over a blank map read as a pattern.
    ctx.font = small ? SMALL_FONT : FONT;
    const fits = texts.map((t) => o.annotate && (!small || ctx.measureText(t).width + 4 <= cellW));
    const fitting = fits.filter(Boolean).length;
    const numbers = fitting * 2 > texts.length;
    this.unlabelled = o.annotate ? texts.length - (numbers ? fitting : 0) : 0;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const x = data[r * cols + c];
        const px = left + c * cellW;
        const py = top + r * cellH;
        // A masked cell shows no value: its own grey and hatching (a weight not yet computed stays unseen).
        const hidden = Boolean(o.isMasked?.(r, c));
        const color = hidden ? null : Number.isFinite(x) ? colorOf(x) : [200, 200, 200];
        ctx.fillStyle = hidden ? masked : rgb(color);
        ctx.fillRect(px, py, cellW, cellH);
        if (hidden) hatch(ctx, px, py, cellW, cellH, scheme === 'dark');
        else if (numbers && fits[r * cols + c]) {
          ctx.fillStyle = luminance(color) > 0.4 ? '#262626' : '#ffffff';
          ctx.fillText(texts[r * cols + c], px + cellW / 2, py + cellH / 2 + 0.5);
        }
      }
    }
    // Grid lines between cells, in the page's background colour.
    ctx.fillStyle = grid;
    for (let c = 1; c < cols; c++) ctx.fillRect(left + c * cellW - GRID / 2, top, GRID, gridH);
    for (let r = 1; r < rows; r++) ctx.fillRect(left, top + r * cellH - GRID / 2, gridW, GRID);
    // A thin frame, so a palette's extremes (bone's white, black) never merge with the page.
    ctx.strokeStyle = frame;
    ctx.lineWidth = 1;
    ctx.strokeRect(left - 0.5, top - 0.5, gridW + 1, gridH + 1);

    // Labels.
    ctx.fillStyle = ink;
    ctx.font = LABEL_FONT;
    if (o.rowLabels) {
      ctx.textAlign = 'right';
      ctx.textBaseline = 'middle';
      o.rowLabels.forEach((label, r) => ctx.fillText(label, left - 6, top + r * cellH + cellH / 2));
    }
    if (o.colLabels) {
      const y = o.colLabelsOnTop ? top - 6 : top + gridH + 6;
      o.colLabels.forEach((label, c) => {
        const x = left + c * cellW + cellW / 2;
        if (o.rotateColLabels) {
          ctx.save();
          ctx.translate(x, y);
          ctx.rotate(-Math.PI / 2);
          ctx.textAlign = o.colLabelsOnTop ? 'left' : 'right';
          ctx.textBaseline = 'middle';
          ctx.fillText(label, 0, 0);
          ctx.restore();
        } else {
          ctx.textAlign = 'center';
          ctx.textBaseline = o.colLabelsOnTop ? 'bottom' : 'top';
          ctx.fillText(label, x, y);
        }
      });
    }

    // Colour bar with ticks: beside the grid, or below it on a narrow screen.
    if (barBelow) {
      const by = belowGrid + 14;
      for (let i = 0; i < BAR_BELOW_WIDTH; i++) {
        ctx.fillStyle = rgb(palette(i / (BAR_BELOW_WIDTH - 1)));
        ctx.fillRect(left + i, by, 1, COLORBAR_WIDTH);
      }
      ctx.fillStyle = ink;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'top';
      for (const t of ticks) {
        const frac = vmax === vmin ? 0.5 : (t - vmin) / (vmax - vmin);
        const x = left + frac * (BAR_BELOW_WIDTH - 1);
        ctx.fillRect(x, by + COLORBAR_WIDTH, 1, 3);
        ctx.fillText(tickLabel(t), x, by + COLORBAR_WIDTH + 6);
      }
    } else if (o.colorbar) {
      const bx = left + gridW + 14;
      for (let i = 0; i < barH; i++) {
        ctx.fillStyle = rgb(palette(1 - i / Math.max(1, barH - 1)));
        ctx.fillRect(bx, top + i, COLORBAR_WIDTH, 1);
      }
      ctx.fillStyle = ink;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      for (const t of ticks) {
        const frac = vmax === vmin ? 0.5 : (t - vmin) / (vmax - vmin);
        const y = top + (1 - frac) * (barH - 1);
        ctx.fillRect(bx + COLORBAR_WIDTH, y, 3, 1);
        // A gap after the tick mark, so it never reads as a minus sign, and a true minus for negatives.
        ctx.fillText(tickLabel(t), bx + COLORBAR_WIDTH + TICK_GAP, y);
      }
    }

    // Provenance outlines: sources of a cell explained elsewhere, and the cell explained here.
    // One colour that reads on every palette in both themes: sources dashed, the explained cell solid.
    const outline = (cells, dash) => {
      ctx.save();
      ctx.strokeStyle = highlight;
      ctx.lineWidth = 3;
      ctx.setLineDash(dash);
      for (const [r, c] of cells) {
        if (r >= rows || c >= cols) continue;
        ctx.strokeRect(left + c * cellW + 2.5, top + r * cellH + 2.5, cellW - 5, cellH - 5);
      }
      ctx.restore();
    };
    outline(this.highlighted, [5, 3]);
    if (this.activeCell) outline([this.activeCell], []);

    this.layout = { left, top, cellW, cellH, rows, cols };
    // Where the cells are, in CSS pixels (tests read a cell's colour from it).
    canvas.dataset.cells = `${left},${top},${cellW},${cellH}`;
  }
}

// ---- lazy figures: painted when they come near the viewport ---------------------

const LAZY_MARGIN = '300px 0px'; // painted a little before they scroll into view
let visibility = null;
const watched = new WeakMap(); // canvas -> Heatmap

/**
 * Keeps `figure.nearView` up to date (undefined until the first report: painted
 * as usual) and paints a figure whose canvas was left stale when it comes near.
 */
function watchVisibility(figure) {
  if (!globalThis.IntersectionObserver) return; // no observer (old browser): always painted
  visibility ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const near = watched.get(entry.target);
        if (!near) continue;
        near.nearView = entry.isIntersecting;
        if (near.nearView && near.stale) near.draw();
        // A signal for tests and tools: the observer has reported where this figure is.
        entry.target.dataset.nearView = String(near.nearView);
      }
    },
    { rootMargin: LAZY_MARGIN },
  );
  watched.set(figure.canvas, figure);
  visibility.observe(figure.canvas);
}

/** Sets a heatmap's caption and returns its figure element. */
export function captioned(heatmap, text) {
  heatmap.options.caption = text;
  heatmap.caption.textContent = text;
  heatmap.caption.hidden = false;
  return heatmap.element;
}

/** Sets `target[key] = value` unless it already holds that value (no DOM invalidation). */
function setIfChanged(target, key, value) {
  if (target[key] !== value) target[key] = value;
}

/** [vmin, vmax]: the options' bounds, else the finite data's range. */
function colourRange(data, o) {
  let lo = Infinity;
  let hi = -Infinity;
  if (o.vmin === undefined || o.vmax === undefined) {
    for (let i = 0; i < data.length; i++) {
      const x = data[i];
      if (!Number.isFinite(x)) continue;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
  }
  return [o.vmin ?? (lo === Infinity ? 0 : lo), o.vmax ?? (hi === -Infinity ? 1 : hi)];
}

const MASKED = 256; // index of the grey of masked and non-finite cells in a packed table
const lookupTables = new Map();
/**
 * 256 colours of a palette, then the masked grey, each as one opaque RGBA word
 * in the byte order of an ImageData (written through a byte view, so it holds
 * on any endianness).
 */
function packedLookupTable(name, scheme) {
  const key = `${PALETTES[name] ? name : 'orange'}:${scheme}`;
  if (!lookupTables.has(key)) {
    const lut = new Uint32Array(257);
    const bytes = new Uint8ClampedArray(lut.buffer);
    const palette = paletteFor(name, scheme);
    for (let i = 0; i < 256; i++) bytes.set([...palette(i / 255).map(Math.round), 255], i * 4);
    bytes.set([120, 120, 120, 255], MASKED * 4);
    lookupTables.set(key, lut);
  }
  return lookupTables.get(key);
}

function hatch(ctx, x, y, w, h, dark = false) {
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, y, w, h);
  ctx.clip();
  ctx.strokeStyle = dark ? 'rgba(255,255,255,0.55)' : 'rgba(0,0,0,0.35)';
  ctx.lineWidth = 1;
  for (let d = -h; d < w; d += 6) {
    ctx.beginPath();
    ctx.moveTo(x + d, y + h);
    ctx.lineTo(x + d + h, y);
    ctx.stroke();
  }
  ctx.restore();
}

/** Up to `maxTicks` round tick values spanning [vmin, vmax]. */
export function colorbarTicks(vmin, vmax, maxTicks = 5) {
  if (!(vmax > vmin)) return [vmin];
  const span = vmax - vmin;
  const step0 = 10 ** Math.floor(Math.log10(span / maxTicks));
  const step =
    [1, 2, 2.5, 5, 10, 20].map((m) => m * step0).find((s) => Math.floor(span / s + 1e-9) + 1 <= maxTicks) ?? span;
  const ticks = [];
  // Ticks are integer multiples of the step (no accumulated error), and zero is exactly 0, never 1.08e-15.
  for (let k = Math.ceil(vmin / step - 1e-9); k * step <= vmax + step * 1e-9; k++) {
    ticks.push(k === 0 ? 0 : Number((k * step).toPrecision(12)));
  }
  return ticks.length ? ticks : [vmin, vmax];
}
