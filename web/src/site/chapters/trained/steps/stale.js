// Greys a step's figures and says why when what they showed no longer holds
// (an unreadable input, a Reset whose first translation has not arrived): no
// figure keeps showing the previous input's numbers as if they were current.
import { el } from '../../../dom.js';

/** A note plus the nodes it greys: `set(reason)` greys them and shows the reason, `set(null)` clears. */
export function staleNote(...nodes) {
  const note = el('p', { className: 'trained-stale', attrs: { role: 'status' }, hidden: true });
  return {
    element: note,
    set(reason) {
      note.hidden = !reason;
      note.textContent = reason ?? '';
      for (const node of nodes) {
        node.classList.toggle('is-stale', Boolean(reason));
        node.inert = Boolean(reason);
        if (reason) node.setAttribute('aria-hidden', 'true');
        else node.removeAttribute('aria-hidden');
      }
    },
  };
}
