// What the sliding-window chapter's steps share: lesson-kit's number field and
// traced heatmap, and an opened-model view that can be rebuilt in place.
export { intField, tracedMap } from '../../../lesson-kit/step-parts.js';

/**
 * An opened-model view (lesson-kit/opened-model.js) that can be built again when
 * the step's own inputs change: `remount()` replaces it in place (and stops the old
 * one listening). `options()` gives openedModelView's options, minus the signal.
 */
export function remountableView(openedModelView, signal, options) {
  let view = null;
  let controller = null;
  function remount() {
    controller?.abort();
    controller = new AbortController();
    signal?.addEventListener('abort', () => controller.abort(), { once: true });
    const next = openedModelView({ ...options(), signal: controller.signal });
    if (view) view.replaceWith(next);
    view = next;
    return view;
  }
  return { remount, element: () => view };
}
