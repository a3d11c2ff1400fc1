// The elements' styles. Each element renders into its own shadow root, which
// adopts one shared sheet: KaTeX's CSS (without its @font-face rules), the
// classes that stand for the prerendered formulas' inline styles
// (formulas/katex-classes.css) and the components' CSS. Fonts cannot be
// declared inside a shadow root, so KaTeX's @font-face rules go into the
// document once, with absolute URLs (the URLs are
// `new URL('./fonts/…', import.meta.url)` literals that bundlers follow).
// Constructed sheets are used where available: a page's CSP style-src does not
// apply to them, while a <style> element would need 'unsafe-inline'.
import katexCss from 'katex/dist/katex.min.css';
import componentsCss from '../../../components.css';
import formulaClassesCss from '../formulas/katex-classes.css';
import { katexFontFaces } from '../../../../build/katex-fonts.js';

// :host is the element's box on the host page: a block with its own colours
// (set on .attention-lab inside), so a light page with the OS in dark mode never
// shows light text on a light background. theme="light" or "dark" pins the scheme.
const HOST_CSS = `
:host { display: block; contain: layout style; font-size: 16px; }
:host([hidden]) { display: none; }
.attention-lab { padding: 0.5rem 1rem; border-radius: 8px; font: 16px/1.6 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; text-align: start; }
.attention-lab[data-theme='light'] { color-scheme: light; }
.attention-lab[data-theme='dark'] { color-scheme: dark; }
`;

/** KaTeX's rules minus @font-face (ignored inside a shadow root). */
const katexRules = katexCss.replace(/@font-face\s*\{[^}]*\}/g, '');

/** components.css with the theme pins: data-theme on the wrapper overrides the OS scheme. */
function themedComponents(css) {
  // (as written or with its white space and comments taken out by the build)
  const light = css.match(/(?:^|\})\.attention-lab ?\{([^}]*--al-bg[^}]*)\}/m)?.[1] ?? '';
  const dark = css.match(/@media ?\(prefers-color-scheme: ?dark\) ?\{\s*\.attention-lab ?\{([^}]*)\}/)?.[1] ?? '';
  return `${css}
.attention-lab[data-theme='light'] {${light}}
.attention-lab[data-theme='dark'] {${dark}}`;
}

// rem is the host page's root font size, even inside a shadow root (a common
// `html { font-size: 62.5% }` made lesson text 9.5 px): inside, rem lengths are
// px at the 16 px the lesson is set in, so the host's root cannot resize them.
const ROOT_PX = 16;
const remToPx = (css) => css.replace(/(\d*\.?\d+)rem\b/g, (_, n) => `${Number((n * ROOT_PX).toFixed(4))}px`);

export const SHADOW_CSS = remToPx(
  `${katexRules}\n${formulaClassesCss}\n${themedComponents(componentsCss)}\n${HOST_CSS}`,
);

const constructable = () => {
  try {
    return typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype && new CSSStyleSheet();
  } catch {
    return null;
  }
};

let shared = null;

/** Gives a shadow root the elements' styles (one sheet object shared by all). */
export function adoptStyles(shadow) {
  if (shared === null) {
    shared = constructable() || false;
    if (shared) shared.replaceSync(SHADOW_CSS);
  }
  if (shared && 'adoptedStyleSheets' in shadow) shadow.adoptedStyleSheets = [shared];
  else {
    const style = document.createElement('style');
    style.textContent = SHADOW_CSS;
    shadow.append(style);
  }
}

let fontsDeclared = false;

/**
 * Declares KaTeX's fonts in the document once. `base` (optional) replaces the
 * fonts' folder for hosts that move the files (the lesson's fonts-url attribute).
 */
export function declareFonts(base) {
  if (fontsDeclared || typeof document === 'undefined') return;
  fontsDeclared = true;
  // The ES module elements' font URLs (elements/module-host.js: literals bundlers copy), else this module's.
  const css = (globalThis.attentionLabElementsHost?.fontFaces ?? katexFontFaces)(base);
  if (!css) return; // nowhere to find them: formulas use the page's fonts
  const sheet = constructable();
  if (sheet && 'adoptedStyleSheets' in document) {
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } else {
    const style = document.createElement('style');
    style.dataset.attentionLabFonts = '';
    style.textContent = css;
    document.head.append(style);
  }
}
