// KaTeX's code, loaded only for a formula that was not typeset at build time
// (math.js): a chunk of its own in module builds (dynamic import()); the site's
// classic scripts swap this module for an injected script (scripts/build-site.mjs).

/** @returns {Promise<typeof import('katex').default>} */
export const loadKatex = () => import('katex').then((module) => module.default);
