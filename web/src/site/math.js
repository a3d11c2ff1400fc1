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

/** A display-mode formula block. */
export function formula(tex) {
  const node = el('div', { className: 'formula' });
  katex.render(tex, node, { ...OPTIONS, displayMode: true });
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
