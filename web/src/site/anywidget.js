// The anywidget front end (Jupyter, JupyterLab, Colab, VS Code notebooks,
// Jupyter Book / MyST's {anywidget} directive): `export default { render }`.
// Self-contained for heatmaps (no wasm needed: it only draws); a lesson imports
// the custom elements module from `elements_url` (default: next to this file).
//
// Traits read from the model:
//   kind         'heatmap' (default) or 'lesson'
//   matrix       list of lists of numbers            (heatmap)
//   row_labels, col_labels, label, palette, vmin, vmax, annotate, pixel_above, theme
//   chapter      a chapter's id, as <attention-lesson chapter> (chapters/*/meta.js) (lesson)
//   elements_url where attention-lab-elements.js is served (lesson)
// Written back: selected = [row, col] of the last clicked cell (heatmap), then save_changes().
import { canDefine, message } from './elements/frame.js';
import { AttentionHeatmapElement } from './elements/heatmap-element.js';

const ATTRIBUTES = {
  label: 'label',
  palette: 'palette',
  vmin: 'vmin',
  vmax: 'vmax',
  pixel_above: 'pixel-above',
  theme: 'theme',
  row_labels: 'row-labels',
  col_labels: 'col-labels',
  annotate: 'annotate',
};
const JSON_TRAITS = new Set(['row_labels', 'col_labels']);

function heatmap({ model, el }) {
  if (canDefine() && !customElements.get('attention-heatmap'))
    customElements.define('attention-heatmap', AttentionHeatmapElement);
  const map = document.createElement('attention-heatmap');
  const sync = () => {
    for (const [trait, attribute] of Object.entries(ATTRIBUTES)) {
      const value = model.get(trait);
      // Absent, None, or an empty list (traitlets' List default): no attribute.
      if (value === undefined || value === null || (Array.isArray(value) && !value.length))
        map.removeAttribute(attribute);
      else map.setAttribute(attribute, JSON_TRAITS.has(trait) ? JSON.stringify(value) : String(value));
    }
    map.matrix = model.get('matrix') ?? undefined;
  };
  const onClick = (event) => {
    const canvas = event.composedPath()[0];
    if (!(canvas instanceof HTMLCanvasElement) || !map.heatmap) return;
    const box = canvas.getBoundingClientRect();
    const cell = map.heatmap.cellAt(event.clientX - box.left, event.clientY - box.top);
    if (!cell) return;
    model.set('selected', cell);
    model.save_changes();
  };
  const traits = ['matrix', ...Object.keys(ATTRIBUTES)];
  for (const trait of traits) model.on(`change:${trait}`, sync);
  map.addEventListener('click', onClick);
  el.append(map);
  sync();
  return () => {
    for (const trait of traits) model.off?.(`change:${trait}`, sync);
    map.remove();
  };
}

function lesson({ model, el }) {
  let url = model.get('elements_url');
  try {
    url = url ? new URL(url, document.baseURI).href : new URL('./attention-lab-elements.js', import.meta.url).href;
  } catch {
    url = null;
  }
  const node = document.createElement('attention-lesson');
  node.setAttribute('chapter', model.get('chapter') ?? 'basics');
  if (model.get('theme')) node.setAttribute('theme', model.get('theme'));
  if (!url) el.append(message('attention-lab widget: set elements_url to where attention-lab-elements.js is served'));
  else
    import(/* @vite-ignore */ /* webpackIgnore: true */ url).then(
      () => el.append(node),
      (error) => el.append(message(`attention-lab widget: cannot load ${url}: ${error.message}`)),
    );
  return () => node.remove(); // removing the lesson ends its workers
}

export default {
  render({ model, el }) {
    return model.get('kind') === 'lesson' ? lesson({ model, el }) : heatmap({ model, el });
  },
};
