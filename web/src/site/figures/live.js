// Every figure on the page that paints a canvas, so that a page-wide change
// (the colour-blind-safe palette switch, the OS switching between light and
// dark) repaints them all. A canvas keeps the colours it was painted with, so
// without this a figure painted in light mode would keep dark ink on a dark page.

/** @type {Set<{canvas: HTMLCanvasElement, draw: () => void, stale?: boolean}>} */
const figures = new Set();

/** Registers a figure whose draw() repaints its canvas from its current state. */
export function track(figure) {
  figures.add(figure);
}

/** Counts page-wide changes (theme, palette); figures read their theme colours again. */
export let themeGeneration = 0;

/** Repaints every figure still on the page and forgets the removed ones. */
export function repaintAll() {
  themeGeneration++;
  for (const figure of figures) {
    if (figure.canvas.isConnected) figure.draw();
    else figures.delete(figure);
  }
}

globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', repaintAll);

// A printed page shows every figure, the ones never scrolled to as well: paint those a
// lazy figure left stale (heatmap.js `lazy`) before the page is laid out for print.
globalThis.addEventListener?.('beforeprint', () => {
  for (const figure of figures) if (figure.stale && figure.canvas.isConnected) figure.draw();
});

/**
 * Calls `changed(width)` with `element`'s content width (whole CSS px) once it gets a box on the
 * page and whenever that width changes: for SVG figures that lay themselves out to fit.
 */
export function watchWidth(element, changed) {
  if (!globalThis.ResizeObserver) return;
  let last = 0;
  new ResizeObserver(([entry]) => {
    const width = Math.floor(entry.contentRect.width);
    if (width > 0 && width !== last) {
      last = width;
      changed(width);
    }
  }).observe(element);
}

// A new width can change how figures fit (colour bar beside or below, cell size).
/** Counts width changes; figures measure their container again when it moves. */
export let widthGeneration = 0;
let resizePending = false;
let lastWidth = globalThis.innerWidth;
globalThis.addEventListener?.('resize', () => {
  if (resizePending || globalThis.innerWidth === lastWidth) return; // phones fire resize on scroll
  resizePending = true;
  requestAnimationFrame(() => {
    resizePending = false;
    lastWidth = globalThis.innerWidth;
    widthGeneration++;
    repaintAll();
  });
});
