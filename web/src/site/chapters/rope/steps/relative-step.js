// Step 3 of the RoPE chapter: q_m · k_n depends only on m − n. The scores of
// q and k turned at every pair of positions are constant along each diagonal.
import { el } from '../../../dom.js';
import { asInput, indexLabels, liveExperiment, step } from '../../../chapter-kit.js';
import { shown } from '../../../explain/format.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol } from '../../../math.js';
import { MAX_POSITION } from '../model.js';
import { numberField, positionLabels } from './shared.js';

/** Whether two scores agree to rounding (relative 1e-9 of their size, or 1e-12). */
export const same = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1e-3, Math.abs(a), Math.abs(b));

export function relativeStep(ctx) {
  const { state, edit, figures, story, questions } = ctx;
  const key = asInput(new Heatmap({ palette: 'bone', label: 'the key k, drawn' }));
  figures.k = key;
  const keys = new Heatmap({ palette: 'green', label: 'k turned at positions 0 to T − 1', explain: story('kRot') });
  const scores = new Heatmap({
    palette: 'purple',
    label: 'scores q_m · k_n: rows are query positions m, columns key positions n',
    colLabelsOnTop: true,
    rotateColLabels: true,
    explain: story('scores'),
  });
  figures.kRot = keys;
  figures.scores = scores;
  const queryAt = numberField('query position m', state.queryAt, { min: 0, max: MAX_POSITION, integer: true }, (x) =>
    edit({ queryAt: x }),
  );
  const keyAt = numberField('key position n', state.keyAt, { min: 0, max: MAX_POSITION, integer: true }, (x) =>
    edit({ keyAt: x }),
  );
  const count = numberField('positions T', state.positions, { min: 2, max: 16, integer: true }, (x) =>
    edit({ positions: x }),
  );
  const sentence = el('p', { className: 'live-sentence' });
  let before = null; // the score and positions when "move both" was pressed
  let last = null; // the latest result
  const moveBoth = liveExperiment({
    label: 'move both by 100',
    explain: (r) => {
      if (!before || state.queryAt !== before.m + 100 || state.keyAt !== before.n + 100)
        return 'Moves q and k 100 positions further: the distance m − n stays, and so should the score.';
      const verdict = same(r.score, before.score) ? 'the same score' : 'a different score';
      return `q at ${state.queryAt}, k at ${state.keyAt}: ${shown(r.score)}; at ${before.m} and ${before.n} it was ${shown(before.score)}: ${verdict}.`;
    },
    apply: () => {
      if (state.queryAt + 100 > MAX_POSITION || state.keyAt + 100 > MAX_POSITION) return;
      before = { m: state.queryAt, n: state.keyAt, score: last?.score };
      edit({ queryAt: state.queryAt + 100, keyAt: state.keyAt + 100 }, { program: true });
    },
  });
  const moveOne = liveExperiment({
    label: 'move only the query by 3',
    explain: (r) =>
      `Moving only q by ${r.shift} gives ${shown(r.queryMoved)} instead of ${shown(r.score)}: the distance changed.`,
    apply: () => edit({ queryAt: Math.min(MAX_POSITION, state.queryAt + 3) }, { program: true }),
  });
  const element = step({
    title: '3. Only the distance counts',
    intro: [
      'Turn q by mθ and k by nθ, then take their dot product: in each pair the two angles subtract, so what is left is a turn by (m − n)θ. The score depends on the two positions only through their difference. Every diagonal of the grid below (same m − n) holds one number, and a model that learned something about “the token two places back” finds it at every position of the text.',
      'Before the rotation the same q and k score q·k at every pair of positions; after it, the score varies with the distance.',
    ],
    formula: `${symbol('scores', 'S_{mn}')} = (R_{m}\\, q) \\cdot (R_{n}\\, k) = q^\\top R_{m}^\\top R_{n}\\, k = q^\\top R_{n-m}\\, k`,
    controls: [queryAt.element, keyAt.element, count.element],
    predict: questions.shiftBoth,
    figures: [
      captioned(key, 'k: drawn after q'),
      captioned(keys, 'k at each position'),
      captioned(scores, 'scores: every diagonal holds one number'),
    ],
    after: [sentence, moveBoth.element, moveOne.element],
  });
  return {
    element,
    needs: ['scores', 'score'],
    show(r) {
      last = r;
      const labels = positionLabels(state.positions);
      key.update(r.k, { colLabels: indexLabels(state.headDim), rowLabels: ['k'] });
      keys.update(r.kRot, { colLabels: indexLabels(state.headDim), rowLabels: labels });
      scores.update(r.scores, { rowLabels: labels, colLabels: labels });
      const { shift } = r;
      sentence.textContent =
        `q at ${state.queryAt} with k at ${state.keyAt}: ${shown(r.score)}. Both moved by ${shift} (${state.queryAt + shift} and ${state.keyAt + shift}): ${shown(r.shifted)}` +
        `${same(r.score, r.shifted) ? ', the same up to rounding' : ''}. Only q moved (${state.queryAt + shift} and ${state.keyAt}): ${shown(r.queryMoved)}. Without any rotation: q·k = ${shown(r.unturned)}.`;
      questions.shiftBoth.update(r);
      moveBoth.show(r);
      moveOne.show(r);
    },
    sync() {
      queryAt.set(state.queryAt);
      keyAt.set(state.keyAt);
      count.set(state.positions);
    },
  };
}
