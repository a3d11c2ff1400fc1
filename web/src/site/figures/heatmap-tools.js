// A heatmap's actions behind one menu button (the WAI-ARIA menu button pattern),
// so a figure costs two tab stops (its canvas and this button) instead of four:
// download as PNG, copy as NumPy, show the values as a table, and for attention
// weights the colour scale (fixed 0 to 1, or stretched to the data's range).
//
// Keyboard: Enter, Space or ArrowDown opens the menu on its first item, ArrowUp
// on its last; arrows, Home and End move; Enter or Space runs an item; Escape
// closes and returns to the button; Tab closes and moves on.
import { el } from '../dom.js';

let menus = 0; // ids that tie each button to its menu

/**
 * Attention weights lie in [0, 1]: drawn on that fixed scale, 0.11 looks the same
 * pale colour in every figure, and near-uniform weights look near-uniform.
 * `stretch` spreads the colours over the data's own range instead.
 * @param {import('./heatmap.js').Heatmap} heatmap
 */
export function setWeightScale(heatmap, stretch) {
  heatmap.stretched = stretch;
  heatmap.options.vmin = stretch ? undefined : 0;
  heatmap.options.vmax = stretch ? undefined : 1;
}

/**
 * The menu button and its menu for `heatmap`; its `details` (the values table)
 * loses its own summary, the menu opens and closes it.
 * @param {import('./heatmap.js').Heatmap} heatmap
 * @returns {HTMLElement}
 */
export function heatmapTools(heatmap) {
  const weights = Boolean(heatmap.options.weights);
  if (weights && heatmap.options.vmin === undefined && heatmap.options.vmax === undefined)
    setWeightScale(heatmap, false);
  const summary = heatmap.details.querySelector('summary');
  if (summary) summary.hidden = true;

  const id = `heatmap-menu-${++menus}`;
  const button = el(
    'button',
    {
      type: 'button',
      className: 'small heatmap-menu-button',
      attrs: { 'aria-haspopup': 'menu', 'aria-expanded': 'false', 'aria-controls': id },
    },
    weights ? 'PNG · Copy · Table · Contrast ▾' : 'PNG · Copy · Table ▾',
  );
  const item = (text, run, role = 'menuitem') =>
    el('li', { className: 'heatmap-menu-item', tabIndex: -1, attrs: { role }, dataset: { run } }, text);
  const tableItem = item('Show the values as a table', 'table');
  const items = [item('Download as PNG', 'png'), item('Copy as NumPy', 'copy'), tableItem];
  const stretchItem = weights
    ? item('Stretch contrast (colours span the data, not 0 to 1)', 'stretch', 'menuitemcheckbox')
    : null;
  if (stretchItem) items.push(stretchItem);
  const menu = el('ul', { className: 'heatmap-menu', id, hidden: true, attrs: { role: 'menu' } }, ...items);
  menu.setAttribute('aria-label', `${heatmap.options.label}: actions`);

  const refresh = () => {
    tableItem.textContent = heatmap.details.open ? 'Hide the values table' : 'Show the values as a table';
    stretchItem?.setAttribute('aria-checked', String(Boolean(heatmap.stretched)));
  };
  const open = (index) => {
    refresh();
    menu.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    items.at(index)?.focus();
  };
  const close = (returnFocus) => {
    if (menu.hidden) return;
    menu.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    if (returnFocus) button.focus();
  };
  const run = (node) => {
    const action = node.dataset.run;
    close(true);
    if (action === 'png') heatmap.downloadPng();
    else if (action === 'copy') heatmap.copyNumpy();
    else if (action === 'table') heatmap.details.open = !heatmap.details.open;
    else if (action === 'stretch') {
      setWeightScale(heatmap, !heatmap.stretched);
      heatmap.draw();
      wrapper.dataset.scale = heatmap.stretched ? 'stretched' : 'fixed';
    }
    refresh();
  };

  button.addEventListener('click', () => (menu.hidden ? open(0) : close(false)));
  button.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      event.stopPropagation(); // not the page's step keys
      open(event.key === 'ArrowDown' ? 0 : -1);
    }
  });
  menu.addEventListener('click', (event) => {
    const node = event.target.closest?.('[data-run]');
    if (node) run(node);
  });
  menu.addEventListener('keydown', (event) => {
    const at = items.indexOf(event.target);
    const go = (i) => items[(i + items.length) % items.length].focus();
    const keys = {
      ArrowDown: () => go(at + 1),
      ArrowUp: () => go(at - 1),
      Home: () => go(0),
      End: () => go(items.length - 1),
      Escape: () => close(true),
      Enter: () => run(event.target),
      ' ': () => run(event.target),
    };
    if (event.key === 'Tab') close(false);
    else if (keys[event.key]) {
      event.preventDefault();
      event.stopPropagation();
      keys[event.key]();
    }
  });
  // A click or focus anywhere else closes it.
  const wrapper = el('div', { className: 'heatmap-tools' }, button, menu);
  wrapper.addEventListener('focusout', (event) => {
    if (!wrapper.contains(/** @type {Node} */ (event.relatedTarget))) close(false);
  });
  heatmap.details.addEventListener('toggle', refresh);
  if (weights) wrapper.dataset.scale = 'fixed';
  return wrapper;
}
