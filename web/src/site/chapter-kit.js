// Building blocks shared by chapters: a step is explanation, then formula,
// then code-like output, then a figure (as in The Annotated Transformer).
import { el } from './dom.js';
import { formula as typeset } from './math.js';

/**
 * @param {{title: string, intro?: (Node|string)[], formula?: string | string[], controls?: Node[],
 *          output?: Node, figures?: Node[], after?: (Node|string)[],
 *          predict?: ReturnType<typeof import('./predict.js').prediction>}} parts
 *   `predict`: the step's question (predict.js), shown above its results; while the
 *   reader has not answered, the results (output, figures, after) are hidden.
 * @returns {HTMLElement} a <section class="step">
 */
export function step({ title, intro = [], formula, controls = [], output, figures = [], after = [], predict }) {
  const results = [
    output ?? null,
    figures.length ? el('div', { className: 'figures' }, ...figures) : null,
    ...after.map((p) => (typeof p === 'string' ? el('p', {}, p) : p)),
  ];
  if (predict) for (const node of results) node?.classList?.add('predict-concealed');
  const section = el(
    'section',
    { className: 'step' },
    el('h2', { className: 'step-title' }, title),
    ...intro.map((p) => (typeof p === 'string' ? el('p', {}, p) : p)),
    formula ? typeset(formula) : null,
    controls.length ? el('div', { className: 'controls' }, ...controls) : null,
    predict?.element ?? null,
    ...results,
  );
  predict?.attach(section);
  return section;
}

/** Axis labels 0 … n − 1: vector components and dimensions are indexed from 0, as NumPy and seaborn's tick labels do. */
export const indexLabels = (n) => Array.from({ length: n }, (_, i) => `${i}`);

/** The notebooks' 1-based names `${prefix}1` … `${prefix}n` (h̄1, word_1). */
export const numberedLabels = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

/** A <pre> that shows NumPy-style output; set its text with `.textContent`. */
export function outputBlock(label) {
  return el('pre', { className: 'output', attrs: { 'aria-label': label, 'aria-live': 'polite' } });
}

/** A paragraph for errors reported by the API (text only). */
export function errorLine() {
  return el('p', { className: 'error', attrs: { role: 'alert' }, hidden: true });
}

/** Credits a source notebook or article at the top of a chapter. */
export function credit({ text, title, url, note }) {
  return el(
    'p',
    { className: 'credit' },
    `${text} `,
    el('a', { href: url, rel: 'noopener', target: '_blank' }, title),
    // A note that continues the sentence ("which works through …") follows the title directly.
    note ? (/^[a-z]/.test(note) ? ` ${note}.` : `. ${note}.`) : '.',
  );
}

/**
 * Runs `render()` and shows an API Error's message in `errorNode` instead of
 * throwing, so a bad edit never breaks the page.
 */
export function guarded(errorNode, render) {
  try {
    render();
    errorNode.hidden = true;
    errorNode.textContent = '';
  } catch (error) {
    errorNode.hidden = false;
    errorNode.textContent = error instanceof Error ? error.message : String(error);
  }
}

/**
 * A concrete experiment: a button that sets the inputs up, and what to look for.
 * @param {{label: string, explain: string, apply: () => void}} options
 */
export function experiment({ label, explain, apply }) {
  return el(
    'p',
    { className: 'experiment' },
    el('button', { type: 'button', className: 'small', on: { click: apply } }, `Try: ${label}`),
    ' ',
    el('span', {}, explain),
  );
}

/**
 * Folds a long output block to its first `lines` lines, with a "show all"
 * button (the full text stays in the block, for copying and screen readers).
 * Returns the element to place; `pre` keeps being filled as before.
 */
export function folded(pre, lines = 8) {
  const button = el('button', { type: 'button', className: 'small fold-toggle', hidden: true }, 'show all');
  const box = el('div', { className: 'folded' }, pre, button);
  box.style.setProperty('--fold-lines', String(lines));
  const refresh = () => {
    const count = pre.textContent.split('\n').length;
    button.hidden = count <= lines;
    box.classList.toggle('is-folded', count > lines && !box.classList.contains('expanded'));
    button.textContent = box.classList.contains('expanded') ? 'show less' : `show all ${count} lines`;
    button.setAttribute('aria-expanded', String(box.classList.contains('expanded')));
  };
  button.addEventListener('click', () => {
    box.classList.toggle('expanded');
    refresh();
  });
  new MutationObserver(refresh).observe(pre, { childList: true, characterData: true, subtree: true });
  return box;
}

/**
 * Marks a figure as one of the chapter's inputs (drawn, not computed): it has
 * nothing to explain, and tests/browser/explained-figures.test.mjs skips it.
 */
export function asInput(figure) {
  figure.element.dataset.role = 'input';
  return figure;
}

/**
 * Provenance glue between a chapter's model and its heatmaps: `explainer(r, c)`
 * (a model function) gives { text, sources by figure name } and the story maps
 * the names to `figures`, read when a cell is explained (so it may be filled
 * after the heatmaps are made); `ready()` says whether there are numbers yet.
 */
export function cellStory(figures, ready, explainer) {
  return (r, c) => {
    if (!ready()) return null;
    const { text, sources } = explainer(r, c);
    return {
      text,
      sources: Object.entries(sources)
        .filter(([name]) => figures[name])
        .map(([name, cells]) => ({ figure: figures[name], cells })),
    };
  };
}

/**
 * Runs `fn` once after the next frame is painted (in a task queued from the
 * next animation frame), or after 100 ms at the latest (a hidden tab has no
 * frames). Work an edit need not show in its own frame, such as a check against
 * a second computation, goes there so that frame stays short. Returns a
 * function that cancels the run.
 */
export function afterNextPaint(fn) {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(fallback);
    fn();
  };
  const fallback = setTimeout(run, 100);
  requestAnimationFrame(() => setTimeout(run, 0));
  return () => {
    done = true;
    clearTimeout(fallback);
  };
}
