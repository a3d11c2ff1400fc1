// What both elements share: a placeholder base class on servers, an open
// shadow root with the shared styles, the theme attribute, error messages.
import { el } from '../dom.js';
import { adoptStyles } from './styles.js';

// On a server there is no HTMLElement: the classes extend a placeholder there,
// so importing the module works and nothing is defined.
export const Base = typeof HTMLElement === 'function' ? HTMLElement : class {};
export const THEMES = ['auto', 'light', 'dark'];

/** An element's open shadow root with the shared styles and one wrapper holding the content. */
export function shadowFrame(element) {
  const shadow = element.attachShadow({ mode: 'open' });
  adoptStyles(shadow);
  const frame = el('div', { className: 'attention-lab', attrs: { part: 'frame' } });
  shadow.append(frame);
  return frame;
}

export function applyTheme(element, frame) {
  const theme = element.getAttribute('theme') ?? 'auto';
  if (theme === 'light' || theme === 'dark') frame.dataset.theme = theme;
  else delete frame.dataset.theme;
}

/** A visible error message (text only). */
export const message = (text) => el('p', { className: 'error', attrs: { role: 'alert' } }, text);

/** True where custom elements can be defined (not on a server). */
export const canDefine = () =>
  typeof HTMLElement === 'function' && typeof customElements === 'object' && customElements !== null;
