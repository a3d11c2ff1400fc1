// Step 2 of the Q/K/V chapter: the projections W_Q, W_K and W_V, drawn from a
// seed (NumPy-exact) or typed by the reader.
import { code, el } from '../../../dom.js';
import { asInput, indexLabels, liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { matrixOfRows } from '../../../explain/names.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { MatrixEditor } from '../../../matrix-editor.js';
import { NumberInput } from '../../../number-input.js';
import { isWhole, WEIGHT_KEYS } from '../model.js';
import { numpyRepr, WEIGHT_NAMES } from './shared.js';

const symmetric = (m) =>
  Array.from({ length: m.rows }, (_, i) => i).every((i) =>
    Array.from({ length: m.cols }, (_, j) => j).every((j) => m.get(i, j) === m.get(j, i)),
  );

// Try W_K = W_Q: then S = X W Wᵀ Xᵀ is symmetric; said as a fact only when the live scores are.
function sameProjectionText({ state }, r) {
  const same = state.WK.every((row, i) => row.every((x, j) => x === state.WQ[i][j]));
  if (!same) return 'Sets W_K to W_Q: every key equals its word’s query, so S[i][j] = q_i · q_j = S[j][i].';
  if (r.scores && symmetric(r.scores))
    return 'W_K = W_Q now, and the scores in step 4 are symmetric: S[i][j] = S[j][i] for every pair.';
  return 'W_K = W_Q now.';
}

export function projectionsStep(ctx) {
  const { state, edit, figures } = ctx;
  const editors = {};
  const maps = {};
  for (const key of WEIGHT_KEYS) {
    editors[key] = new MatrixEditor({
      rows: state[key],
      label: WEIGHT_NAMES[key],
      rowLabel: (i) => `row ${i + 1}`,
      scrub: { step: 1 },
      onChange: (rows) => edit({ [key]: rows }, { custom: true }),
    });
    maps[key] = asInput(
      new Heatmap({ palette: 'bone', label: WEIGHT_NAMES[key], rowLabels: indexLabels(3), colLabels: indexLabels(3) }),
    );
    figures[key] = maps[key];
  }
  const seedField = new NumberInput({
    caption: 'seed',
    label: 'seed',
    value: state.seed,
    integer: true,
    min: 0,
    max: 4294967295,
    width: '7.5em',
    scrub: { step: 1 },
    onChange: (seed) => ctx.redraw(seed),
  });
  const redrawButton = el(
    'button',
    { type: 'button', className: 'small', on: { click: () => ctx.redraw(state.seed) } },
    'draw again with this seed',
  );
  const out = outputBlock('W_Q, W_K and W_V as NumPy prints them');
  const trySame = liveExperiment({
    label: 'W_K = W_Q',
    explain: (r) => sameProjectionText(ctx, r),
    apply: () => edit({ WK: state.WQ.map((row) => [...row]) }, { program: true, custom: true }),
  });
  const labelled = (key) =>
    el(
      'div',
      {},
      el('div', { className: 'control-label' }, `${WEIGHT_NAMES[key]} =`),
      el('div', {}, editors[key].element, captioned(maps[key], WEIGHT_NAMES[key])),
    );
  const element = step({
    title: '2. Three projections: W_Q, W_K and W_V',
    intro: [
      el(
        'p',
        {},
        'Training would learn three weight matrices. Here they are random integers 0, 1 or 2, drawn like ',
        code('np.random.seed(42); W_Q = np.random.randint(3, size=(3, 3))'),
        ', then ',
        code('W_K'),
        ' and ',
        code('W_V'),
        ' from the same stream. The generator reproduces NumPy’s exactly, so seed 42 gives the original example’s matrices. Edit them freely.',
      ),
    ],
    controls: [seedField.element, redrawButton],
    output: out,
    figures: WEIGHT_KEYS.map(labelled),
    after: [trySame.element],
  });
  return {
    element,
    show(r) {
      for (const key of WEIGHT_KEYS) maps[key].update(matrixOfRows(state[key]));
      out.textContent = WEIGHT_KEYS.map((key) =>
        numpyRepr(Float64Array.from(state[key].flat()), [3, 3], `${WEIGHT_NAMES[key]} = `, {
          float: !isWhole(state[key]),
        }),
      ).join('\n');
      trySame.show(r);
    },
    sync: () => {
      for (const key of WEIGHT_KEYS) editors[key].setRows(state[key]);
    },
  };
}
