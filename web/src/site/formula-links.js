// Links formula symbols to the figures they stand for (Distill-style): a symbol
// tagged with math.js's `symbol(name, …)` is coloured like figure `name` (the
// class sym-pal-<its palette>, components.css); hovering or focusing either
// lights up the other. Events are delegated from `root`, and the colours are
// applied again when a formula is typeset anew (math.js re-sets formulas to fit
// their width and dispatches 'formula-rendered').

/**
 * @param {HTMLElement} root where the formulas are
 * @param {Record<string, {element: HTMLElement, options?: {palette?: string}}>} figures by symbol name
 */
export function linkFormulas(root, figures) {
  const nameOf = (node) => [...node.classList].find((c) => c.startsWith('sym-') && !c.startsWith('sym-pal-'))?.slice(4);
  const symbolsOf = (name) => root.querySelectorAll(`.sym-${CSS.escape(name)}`);
  const light = (name, on) => {
    figures[name]?.element.classList.toggle('linked', on);
    symbolsOf(name).forEach((node) => node.classList.toggle('linked', on));
  };
  const colour = (scope) => {
    for (const node of scope.querySelectorAll('.sym')) {
      const palette = figures[nameOf(node)]?.options?.palette;
      if (palette) node.classList.add(`sym-pal-${palette}`);
    }
  };
  colour(root);
  root.addEventListener('formula-rendered', (event) => colour(event.target));
  const symbolEvent = (on) => (event) => {
    const node = event.target.closest?.('.sym');
    const name = node && nameOf(node);
    if (name && figures[name] && !node.contains(event.relatedTarget)) light(name, on);
  };
  root.addEventListener('mouseover', symbolEvent(true));
  root.addEventListener('mouseout', symbolEvent(false));
  for (const name of Object.keys(figures)) {
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
