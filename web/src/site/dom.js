// DOM helpers. Text always goes through textContent: typed text never reaches innerHTML.

/**
 * Creates an element. `props` sets properties (className, id, type, value, ...),
 * `attrs` inside props sets attributes, `on` inside props adds listeners.
 * Children may be strings (added as text), nodes, or null/false (skipped).
 * @param {string} tag
 * @param {Record<string, any>} [props]
 * @param {...(Node|string|null|false|undefined)} children
 * @returns {HTMLElement}
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  const { attrs, on, dataset, ...rest } = props;
  Object.assign(node, rest);
  for (const [name, value] of Object.entries(attrs ?? {})) node.setAttribute(name, String(value));
  for (const [name, value] of Object.entries(dataset ?? {})) node.dataset[name] = String(value);
  for (const [type, listener] of Object.entries(on ?? {})) node.addEventListener(type, listener);
  append(node, ...children);
  return node;
}

/**
 * Creates an SVG element with attributes and optional text (figures drawn node
 * by node, so typed text can never become markup).
 * @param {string} name
 * @param {Record<string, string | number>} [attrs]
 * @param {string} [text]
 */
export function svg(name, attrs = {}, text) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Appends children (strings become text nodes). */
export function append(parent, ...children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return parent;
}

/** Replaces all children. */
export function replaceChildren(parent, ...children) {
  parent.replaceChildren();
  return append(parent, ...children);
}

/** Inline code span. */
export const code = (text) => el('code', {}, text);
