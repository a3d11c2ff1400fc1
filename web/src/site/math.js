// Typeset formulas with the bundled KaTeX (no CDN). Formulas are our own
// constants, never user text. \htmlClass is the one HTML extension allowed: it
// tags a symbol with the figure it stands for (see formula-links.js).
import katex from 'katex';
import { el } from './dom.js';

const OPTIONS = {
  throwOnError: false,
  output: 'htmlAndMathml',
  trust: (context) => context.command === '\\htmlClass',
  strict: (code) => (code === 'htmlExtension' ? 'ignore' : 'warn'),
};

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
  if (lines) render(node, lines.join(',\\qquad '));
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
    render(node, `\\begin{gathered}${lines.join(', \\\\ ')}\\end{gathered}`);
    if (node.scrollWidth > node.clientWidth + 1) {
      node.style.fontSize = `${Math.max(MIN_SCALE, node.clientWidth / node.scrollWidth - 0.01).toFixed(3)}em`;
    }
  }
  if (lines) node.dispatchEvent(new Event('formula-rendered', { bubbles: true })); // new symbol nodes
  // KaTeX's fonts change the widths when they arrive: measure again then.
  if (globalThis.document?.fonts?.status === 'loading') globalThis.document.fonts.ready.then(() => fit(node));
}

const render = (node, tex) => katex.render(tex, node, { ...OPTIONS, displayMode: true });

/**
 * A display-mode formula block, scaled down to fit a narrow column. Given an
 * array, its parts are set side by side (comma, quad) where they fit and one
 * per line where they do not.
 */
export function formula(tex) {
  const node = el('div', { className: 'formula' });
  if (Array.isArray(tex)) parts.set(node, tex);
  render(node, Array.isArray(tex) ? tex.join(',\\qquad ') : tex);
  fitter?.observe(node);
  return node;
}

/** An inline formula. */
export function tex(source) {
  const node = el('span', { className: 'tex' });
  katex.render(source, node, { ...OPTIONS, displayMode: false });
  return node;
}

/** `tex` tagged as the symbol of figure `name`: coloured like it and linked to it. */
export const symbol = (name, tex) => `\\htmlClass{sym sym-${name}}{${tex}}`;
