// KaTeX's code, loaded only for a formula that was not typeset at build time
// (math.js). Every build swaps this module for the data script katex.js, injected
// (scripts/build-site.mjs, build-web.mjs: the package holds KaTeX's code once); the
// import() stays for code run from the sources (chapter tests).

/** @returns {Promise<typeof import('katex').default>} */
export const loadKatex = () => import('katex').then((module) => module.default);
