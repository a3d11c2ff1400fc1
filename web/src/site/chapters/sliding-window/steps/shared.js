// What the sliding-window chapter's steps share: number fields and a heatmap
// registered under its trace name.
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { NumberInput } from '../../../number-input.js';

/** An integer field whose value the chapter can set back (sync). */
export function intField(label, value, min, max, onChange) {
  return new NumberInput({
    caption: label,
    label,
    value,
    integer: true,
    min,
    max,
    width: '6em',
    onChange,
    scrub: { step: 1 },
  });
}

/** A computed heatmap drawing trace tensor `name`, explained from the trace. */
export function tracedMap({ figures, story }, name, options, caption) {
  const map = new Heatmap({ explain: story(name), ...options });
  figures[name] = map;
  return { map, element: captioned(map, caption) };
}

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
