// Typesets formulas. Formulas are our own constants, never user text, so each
// chapter's are typeset at build time (scripts/prerender-formulas.mjs writes
// formulas/<chapter>.js, which the chapter hands to addPrerendered): a first
// load carries no KaTeX code. A formula missing there (the map is stale) is
// typeset by the bundled KaTeX (no CDN), loaded then (katex-loader.js).
// \htmlClass is the one HTML extension allowed: it tags a symbol with the
// figure it stands for (see formula-links.js).
import { el } from './dom.js';
import { displayForms, KATEX_OPTIONS, onePerLine, sideBySide } from './formula-forms.js';
import { loadKatex } from './katex-loader.js';

/** Prerendered HTML by TeX source, per mode. */
const prerendered = { display: new Map(), inline: new Map() };

/**
 * Adds a chapter's prerendered formulas (its generated chapters/<id>/formulas.js).
 * @param {{display?: Record<string, string>, inline?: Record<string, string>}} formulas
 */
export function addPrerendered({ display = {}, inline = {} }) {
  for (const [tex, html] of Object.entries(display)) prerendered.display.set(tex, html);
  for (const [tex, html] of Object.entries(inline)) prerendered.inline.set(tex, html);
}

let katex = null; // set once loaded, for formulas that were not prerendered
let katexLoading = null;
const loadKatexOnce = () =>
  (katexLoading ??= loadKatex().then(
    (module) => (katex = module),
    (error) => {
      katexLoading = null; // the next formula tries again
      throw error;
    },
  ));

const canTypeset = (sources, displayMode) =>
  katex !== null || sources.every((tex) => prerendered[displayMode ? 'display' : 'inline'].has(tex));

function render(node, tex, displayMode) {
  const html = prerendered[displayMode ? 'display' : 'inline'].get(tex);
  // KaTeX's output for our own constant TeX, made at build time: not typed text.
  // Its inline styles are classes there (formulas/katex-classes.css), and
  // katex.render sets styles through the CSSOM: both pass a CSP without
  // style-src 'unsafe-inline', which refuses style attributes in HTML.
  if (html !== undefined) node.innerHTML = html;
  else katex.render(tex, node, { ...KATEX_OPTIONS, displayMode });
}

/**
 * Runs `show` now if every one of `sources` can be typeset now; else once
 * KaTeX has loaded, then tells formula-links.js that symbols were added.
 */
function whenTypesettable(node, sources, displayMode, show) {
  globalThis.attentionLabTexLog?.push({ sources, displayMode }); // read by scripts/prerender-formulas.mjs
  if (canTypeset(sources, displayMode)) return show();
  loadKatexOnce().then(
    () => {
      show();
      node.dispatchEvent(new Event('formula-rendered', { bubbles: true }));
    },
    (error) => {
      node.textContent = sources[0];
      console.error(`math.js: KaTeX did not load (${error.message}); showing the TeX source`);
    },
  );
}

// A display formula wider than its column (a phone) is scaled down to fit, to
// at most MIN_SCALE of its size (KaTeX sizes everything in em); beyond that it
// scrolls sideways, with the scroll shadows of components.css. Measured only
// when the column's width changes.
const MIN_SCALE = 0.7;
const widths = new WeakMap();
const fitter =
  typeof ResizeObserver === 'function'
    ? new ResizeObserver((entries) => {
        for (const { target } of entries) {
          const width = target.clientWidth;
          if (widths.get(target) === width) continue; // only its height changed (e.g. by fit itself)
          widths.set(target, width);
          fit(target);
        }
      })
    : null;

const parts = new WeakMap(); // formula node -> its parts, for formulas that may break into lines

function fit(node) {
  node.style.fontSize = '';
  const lines = parts.get(node);
  if (lines) render(node, sideBySide(lines), true);
  // Not every part scales with the font (struts, spacing rounded to pixels): a few passes.
  let scale = 1;
  for (let pass = 0; pass < 4 && scale > MIN_SCALE; pass++) {
    const room = node.clientWidth;
    const need = node.scrollWidth;
    if (!(room > 0 && need > room + 1)) break;
    scale = Math.max(MIN_SCALE, (scale * room) / need - 0.01);
    node.style.fontSize = `${scale.toFixed(3)}em`;
  }
  // Still too wide: one part per line.
  if (lines && node.scrollWidth > node.clientWidth + 1) {
    node.style.fontSize = '';
    render(node, onePerLine(lines), true);
    if (node.scrollWidth > node.clientWidth + 1) {
      node.style.fontSize = `${Math.max(MIN_SCALE, node.clientWidth / node.scrollWidth - 0.01).toFixed(3)}em`;
    }
  }
  if (lines) node.dispatchEvent(new Event('formula-rendered', { bubbles: true })); // new symbol nodes
  // KaTeX's fonts change the widths when they arrive: measure again then.
  const fontsPending = globalThis.document?.fonts?.status === 'loading';
  if (fontsPending) globalThis.document.fonts.ready.then(() => fit(node));
  // A signal for tests: the width the formula was last fitted to, once with its fonts.
  node.dataset.fitted = fontsPending ? 'fonts-pending' : String(node.clientWidth);
}

/**
 * A display-mode formula block, scaled down to fit a narrow column. Given an
 * array, its parts are set side by side (comma, quad) where they fit and one
 * per line where they do not.
 */
export function formula(tex) {
  const node = el('div', { className: 'formula' });
  if (Array.isArray(tex)) parts.set(node, [...tex]);
  const sources = displayForms(tex);
  whenTypesettable(node, sources, true, () => {
    render(node, sources[0], true);
    fitter?.observe(node);
  });
  return node;
}

/** An inline formula. */
export function tex(source) {
  const node = el('span', { className: 'tex' });
  whenTypesettable(node, [source], false, () => render(node, source, false));
  return node;
}

/** `tex` tagged as the symbol of figure `name`: coloured like it and linked to it. */
export const symbol = (name, tex) => `\\htmlClass{sym sym-${name}}{${tex}}`;
