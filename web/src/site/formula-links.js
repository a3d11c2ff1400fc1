// Links formula symbols to the figures they stand for (Distill-style): a symbol
// tagged with math.js's `symbol(name, …)` is coloured like figure `name`;
// hovering or focusing either lights up the other.

/**
 * @param {HTMLElement} root where the formulas are
 * @param {Record<string, {element: HTMLElement}>} figures by symbol name
 */
export function linkFormulas(root, figures) {
  const symbolsOf = (name) => root.querySelectorAll(`.sym-${CSS.escape(name)}`);
  const light = (name, on) => {
    figures[name]?.element.classList.toggle('linked', on);
    symbolsOf(name).forEach((node) => node.classList.toggle('linked', on));
  };
  for (const name of Object.keys(figures)) {
    symbolsOf(name).forEach((node) => {
      node.addEventListener('mouseenter', () => light(name, true));
      node.addEventListener('mouseleave', () => light(name, false));
    });
    const target = figures[name].element;
    for (const [enter, leave] of [
      ['mouseenter', 'mouseleave'],
      ['focusin', 'focusout'],
    ]) {
      target.addEventListener(enter, () => light(name, true));
      target.addEventListener(leave, () => light(name, false));
    }
  }
}
