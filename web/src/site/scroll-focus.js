// A box that scrolls sideways (a NumPy printout, a wide formula, a table or a
// figure on a phone) must be reachable from the keyboard, or its hidden part can
// be read only with a pointer (WCAG 2.1.1; axe's scrollable-region-focusable).
// Such a box gets tabindex="0" while it overflows and loses it when it stops,
// so boxes that fit add no tab stop. Checked once a frame at most, after the
// chapter's DOM changed or the window's width did.
const SCROLL_BOXES = 'pre, .formula, .table-scroll, .figures, .token-lines, .flow-diagram';

function update(root) {
  for (const box of root.querySelectorAll(SCROLL_BOXES)) {
    const scrolls = box.scrollWidth > box.clientWidth + 1;
    if (scrolls && !box.hasAttribute('tabindex')) {
      box.tabIndex = 0;
      box.dataset.scrollFocus = '';
    } else if (!scrolls && box.dataset.scrollFocus !== undefined) {
      box.removeAttribute('tabindex');
      delete box.dataset.scrollFocus;
    }
  }
}

/** Keeps the scroll boxes under `root` focusable while they scroll. */
export function focusScrollBoxes(root) {
  let pending = false;
  const schedule = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      update(root);
    });
  };
  new MutationObserver(schedule).observe(root, { childList: true, subtree: true, characterData: true });
  addEventListener('resize', schedule);
  schedule();
}
