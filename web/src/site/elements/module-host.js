// What the ES module elements (dist/elements/attention-lab-elements.js) hand to the
// classic elements script they run (dist/classic/attention-lab-elements.js, one copy
// of the elements' code in the package): everything found by address, written as
// the literals every bundler and dev server follows with no configuration (the API
// module, the assets, KaTeX's fonts and code, the chapter scripts), all relative to
// dist/elements/. The classic script reads globalThis.attentionLabElementsHost when
// it needs one of them (api-import.js, assets.js, styles.js, and the chapter list
// and KaTeX loader written by scripts/build-web.mjs), so this module runs first.
import chapterScripts from 'attention-lab:chapter-scripts';
import { katexFontFaces } from '../../../../build/katex-fonts.js';
import { packagedAssets } from './assets.js';

globalThis.attentionLabElementsHost = {
  /** The package's API module (one module, so one wasm instance with the page's own import). */
  api: () => import('attention-lab'),
  assets: packagedAssets,
  fontFaces: katexFontFaces,
  katex: () => new URL('../classic/katex.js', import.meta.url),
  /** Imports a chapter script ('chapters/<id>.js' of dist/site/) for its side effect. */
  script: (file) => chapterScripts[file](),
};
