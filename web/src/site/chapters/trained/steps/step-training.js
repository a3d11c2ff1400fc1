// Step 6: train from scratch, on one screen (as TensorFlow Playground does):
// the controls, the loss, the held-out accuracy and the chosen use's head maps
// side by side, and a scrubber over the snapshots saved at each evaluation
// (../snapshots.js) to replay the heads going from uniform to sharp.
import { experiment, step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { HeadGrid } from '../../../figures/head-grid.js';
import { LineChart } from '../../../figures/line-chart.js';
import { prediction } from '../../../predict.js';
import { Snapshots } from '../snapshots.js';
import { USES } from '../model.js';

const useById = Object.fromEntries(USES.map((u) => [u.id, u]));
const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '—');

const LEVELS = ['under 50%', '50% to 99%', '99% or more'];
// How good the model on screen is, by the worker's latest held-out evaluation.
const heldOut = () =>
  prediction({
    question: 'How many of 200 held-out examples will the model as it is now translate exactly?',
    choices: LEVELS,
    answer: ({ accuracy: a }) => (Number.isFinite(a) ? (a < 0.5 ? 0 : a < 0.99 ? 1 : 2) : null),
    explain: ({ accuracy: a, steps }) =>
      Number.isFinite(a) ? `at step ${steps.toLocaleString('en')}, ${pct(a)} of them.` : 'not measured yet.',
  });

export function trainingStep({ controls, status, errors, onSelectHead, onTry }) {
  const curve = new LineChart({
    label: 'training loss per step',
    className: 'loss-curve',
    logY: true,
    xName: 'step',
    width: 240,
    empty: 'Reset, then Start',
    caption: 'Training loss (cross-entropy per output character, log scale) against steps',
  });
  const accuracy = new LineChart({
    label: 'held-out exact match per evaluation',
    className: 'accuracy-curve',
    xName: 'step',
    width: 240,
    empty: 'no evaluation yet',
    caption: 'Held-out exact match (share of 200 examples translated exactly) at each evaluation',
  });
  const snapshots = new Snapshots(32);
  let view = { use: 'cross', selected: { layer: 0, head: 0 } };
  let shownIndex = -1; // the snapshot on screen; -1 follows the newest
  const grid = new HeadGrid({
    label: 'dashboard: every layer and head of the chosen use at the chosen snapshot',
    onSelect: (layer, head) => onSelectHead(view.use, { layer, head }),
  });
  const scrubber = el('input', {
    type: 'range',
    min: 0,
    max: 0,
    value: 0,
    disabled: true,
    className: 'trained-scrubber',
    attrs: { 'aria-label': 'snapshot to show' },
  });
  const scrubLabel = el('output', { className: 'trained-scrub-label', attrs: { 'aria-live': 'polite' } });
  const gridCaption = el('p', { className: 'heatmap-caption' });
  const dashboard = el(
    'div',
    { className: 'trained-dashboard' },
    curve.element,
    accuracy.element,
    el('figure', { className: 'trained-dashboard-heads' }, grid.element, gridCaption),
  );
  const scrub = el(
    'div',
    { className: 'trained-scrub' },
    el('label', { className: 'control-label' }, 'Snapshot ', scrubber),
    scrubLabel,
  );

  function drawSnapshot() {
    const root = dashboard.closest('article');
    if (snapshots.length === 0) {
      gridCaption.textContent = 'The head maps appear with the first translation.';
      scrubLabel.textContent = '';
      return;
    }
    const i = shownIndex < 0 ? snapshots.length - 1 : shownIndex;
    const s = snapshots.at(i);
    scrubber.max = String(snapshots.length - 1);
    scrubber.value = String(i);
    scrubber.disabled = snapshots.length < 2;
    const u = useById[view.use];
    grid.update(s.maps[view.use], view.selected, u.name);
    gridCaption.textContent = `${u.name} at step ${s.steps.toLocaleString('en')} on “${s.input}”: every layer (rows) and head (columns).`;
    scrubLabel.textContent = `${i === snapshots.length - 1 ? 'newest' : `${i + 1} of ${snapshots.length}`}: step ${s.steps.toLocaleString('en')}, loss ${Number.isFinite(s.loss) ? s.loss.toFixed(4) : '—'}, held-out ${pct(s.accuracy)}`;
    if (root) {
      root.dataset.trainedSnapshot = String(s.steps);
      root.dataset.trainedSnapshots = snapshots.items.map((x) => x.steps).join(',');
    }
  }
  scrubber.addEventListener('input', () => {
    const i = Number(scrubber.value);
    shownIndex = i >= snapshots.length - 1 ? -1 : i;
    drawSnapshot();
  });

  const predict = heldOut();
  const element = step({
    title: '6. Train it from scratch',
    intro: [
      'Reset starts from random weights (seed 0, the defaults above) and Start trains in a Web Worker with Adam and the paper’s warm-up schedule. Every few seconds, and whenever training pauses, the worker measures exact match on 200 held-out examples and sends new maps; each is kept as a snapshot. The loss, the accuracy and the heads sit side by side: drag the snapshot slider back to watch the heads go from uniform to sharp. Other tasks grow other patterns: on reversal, the last layer’s encoder–decoder heads shift their weight onto the digit being copied (an anti-diagonal); on sorting, they look a digit up by its value wherever it stands — attention by content, not by position. Step 4 measures the share.',
    ],
    controls,
    formula:
      '\\mathrm{lrate} = d_{model}^{-0.5} \\cdot \\min(\\mathrm{step}^{-0.5},\\; \\mathrm{step} \\cdot \\mathrm{warmup}^{-1.5})',
    output: status,
    figures: [dashboard],
    after: [
      scrub,
      errors,
      experiment({
        label: 'train from scratch to step 300',
        explain:
          'Reset, then Start with “pause at step” 300: it stops by itself there. Compare the loss, the accuracy and the heads with the shipped checkpoint’s (Load the shipped checkpoint brings it back).',
        apply: () => onTry(300),
      }),
    ],
    predict,
  });
  curve.draw();
  accuracy.draw();
  return {
    element,
    /** A new model (Reset or the checkpoint): empty charts and history. */
    reset() {
      curve.reset();
      accuracy.reset();
      snapshots.clear();
      shownIndex = -1;
      drawSnapshot();
    },
    loss(steps, value) {
      curve.add(steps, value);
    },
    accuracy(steps, value) {
      accuracy.add(steps, value);
      predict.update({ steps, accuracy: value });
    },
    /** Saves the model's maps at this step (each translation while it trains, or after a pause). */
    snapshot({ steps, loss, accuracy: acc, input, translation }) {
      const maps = Object.fromEntries(USES.map((u) => [u.id, translation[u.id]]));
      snapshots.add({ steps, loss, accuracy: acc, input, maps });
      drawSnapshot();
    },
    /** The use and head chosen above (the dashboard shows the same). */
    choose(use, selected) {
      view = { use, selected };
      drawSnapshot();
    },
  };
}
