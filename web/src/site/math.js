// Typeset formulas with the bundled KaTeX (no CDN). Formulas are our own
// constants, never user text.
import katex from 'katex';
import { el } from './dom.js';

/** A display-mode formula block. */
export function formula(tex) {
  const node = el('div', { className: 'formula' });
  katex.render(tex, node, { displayMode: true, throwOnError: false, output: 'htmlAndMathml' });
  return node;
}

/** An inline formula. */
export function tex(source) {
  const node = el('span', { className: 'tex' });
  katex.render(source, node, { displayMode: false, throwOnError: false, output: 'htmlAndMathml' });
  return node;
}
