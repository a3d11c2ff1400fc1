// The frame the step-by-step chapters share: state from the store, traced
// figures, the inputs editor, one error line, and an update that recomputes the
// stages, shows each step its part and writes the state back.
import { el } from '../dom.js';
import { credit, errorLine, guarded, inputEditor, showSteps } from '../chapter-kit.js';
import { tracedFigures } from '../explain/trace.js';
import { linkFormulas } from '../formula-links.js';

/**
 * Builds a chapter into `root` and computes it once.
 * @param {HTMLElement} root
 * @param {object} parts
 * @param {any} parts.store the state store (render's context)
 * @param {object[]} parts.schema the chapter's URL state
 * @param {string} parts.title
 * @param {object[]} parts.sources the credits under the title (credit()'s { text, title, url, note })
 * @param {string[]} parts.lede the opening paragraph's sentences
 * @param {(kit: {state: object, edit: Function, figures: any, story: any, trace: any}) =>
 *   {steps: object[], after?: Node[], why?: () => Node}} parts.build the steps, the nodes after
 *   them and showSteps's `why`
 * @param {(state: object, trace: any) => {r: object, failures: object}} parts.stages
 * @param {(state: object) => void} [parts.settle] makes the state consistent, on reading and
 *   before each computation
 * @returns {object} what `build` returned, for what the chapter adds (listeners)
 */
export function stepChapter(root, { store, schema, title, sources, lede, build, stages, settle = () => {} }) {
  const state = store.readState(schema);
  settle(state);
  const { trace, figures, story } = tracedFigures(); // every figure explains its cells from the trace
  const edit = inputEditor(
    state,
    () => steps,
    () => update(),
  );
  const built = build({ state, edit, figures, story, trace });
  const { steps, after = [], why } = built;
  const error = errorLine();

  function update() {
    guarded(error, () => {
      settle(state);
      const { r, failures } = stages(state, trace);
      showSteps(steps, r, failures, { why });
      store.writeState(schema, state);
    });
  }

  root.append(
    el('h1', { className: 'chapter-title' }, title),
    ...sources.map(credit),
    el('p', { className: 'lede' }, ...lede),
    ...steps.map((s) => s.element),
    ...after,
    error,
  );
  linkFormulas(root, figures);
  update();
  return built;
}
