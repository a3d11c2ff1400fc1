// What math.js asks KaTeX to typeset, DOM-free, so that the build-time
// prerendering (scripts/prerender-formulas.mjs) makes exactly the same HTML.

/** KaTeX's options. \htmlClass is the one HTML extension allowed (see math.js). */
export const KATEX_OPTIONS = {
  throwOnError: false,
  output: 'htmlAndMathml',
  trust: (context) => context.command === '\\htmlClass',
  strict: (code) => (code === 'htmlExtension' ? 'ignore' : 'warn'),
};

/** A formula given as parts, set side by side (where they fit). */
export const sideBySide = (parts) => parts.join(',\\qquad ');

/** The same parts, one per line (a narrow column). */
export const onePerLine = (parts) => `\\begin{gathered}${parts.join(', \\\\ ')}\\end{gathered}`;

/** Every display-mode TeX string `formula(tex)` may typeset. */
export const displayForms = (tex) => (Array.isArray(tex) ? [sideBySide(tex), onePerLine(tex)] : [tex]);
