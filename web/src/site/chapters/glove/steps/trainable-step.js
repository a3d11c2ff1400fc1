// Step 5 of the GloVe chapter: trainable attention, the vectors projected by
// random (untrained) linear layers first.
import { code, el } from '../../../dom.js';
import { liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { shown } from '../../../explain/format.js';
import { symbol, tex } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';
import { PROJECTION_SIZES } from '../model.js';
import { attentionFigure } from './shared.js';

const NOTEBOOK_DIM = 256;
const kept = (m, a) => Array.from(m.data).filter((_, x) => a.mask.data[x] === 1);
const range = (m, a) => [Math.min(...kept(m, a)), Math.max(...kept(m, a))];

function rangeText(state, a, weights) {
  const [tLo, tHi] = range(weights, a);
  const [dLo, dHi] = range(a.dot.weights, a);
  const [n, m, d] = [a.qTokens.length, a.kTokens.length, state.dim];
  return (
    (Number.isFinite(tLo)
      ? `Weights now span ${tLo.toFixed(3)} to ${tHi.toFixed(3)}, against ${dLo.toFixed(3)} to ${dHi.toFixed(3)} without projections${a.missing.length ? ' (masked cells left out)' : ''}. `
      : '') + `Q, K and V are ${n} × ${d}, ${m} × ${d} and ${m} × ${d}; the output is ${n} × ${d}.`
  );
}

// Try the notebook's d: whether the weights come out flatter is read off the live numbers.
function notebookDimText(state, a, weights) {
  if (state.dim !== NOTEBOOK_DIM) return `sets d = ${NOTEBOOK_DIM}, the notebook’s size.`;
  const [now, before] = [Math.max(...kept(weights, a)), Math.max(...kept(a.dot.weights, a))];
  if (!Number.isFinite(now) || !Number.isFinite(before)) return `d = ${NOTEBOOK_DIM} now, as in the notebook.`;
  const verdict = now < before ? 'flatter than' : now > before ? 'sharper than' : 'as sharp as';
  return `d = ${NOTEBOOK_DIM} now, as in the notebook: the largest weight is ${shown(now)}, against ${shown(before)} without projections, so random projections leave the weights ${verdict} the raw vectors’.`;
}

export function trainableStep({ state, edit, figures, story, questions, attention }) {
  const figure = attentionFigure({
    label: 'trainable attention with random projections',
    linesLabel: 'trainable attention as lines from query tokens to key tokens',
    name: 'train.weights',
    story,
    attention,
  });
  figures.trainable = figure.map;
  const dimSelect = el(
    'select',
    { attrs: { 'aria-label': 'projection size d' }, on: { change: () => edit({ dim: Number(dimSelect.value) }) } },
    ...PROJECTION_SIZES.map((d) => el('option', { value: String(d), selected: d === state.dim }, String(d))),
  );
  const seedText = el('span', { className: 'seed' });
  const reseed = el(
    'button',
    { type: 'button', on: { click: () => edit({ trainableSeed: (state.trainableSeed + 1) >>> 0 }) } },
    'Reseed W_q, W_k, W_v',
  );
  const out = outputBlock('trainable attention matrix as NumPy prints it');
  const note = el('p', {});
  const tryNotebook = liveExperiment({
    label: `d = ${NOTEBOOK_DIM}`,
    explain: (r) => notebookDimText(state, r.attention, r.trained.weights),
    apply: () => edit({ dim: NOTEBOOK_DIM }, { program: true }),
  });
  const element = step({
    title: '5. Making it trainable',
    intro: [
      el(
        'p',
        {},
        'A model learns what to look for by projecting the vectors first: ',
        tex('Q = X_q W_q^\\top + b_q'),
        ', and likewise ',
        tex('K'),
        ' and ',
        tex('V'),
        ', each a linear layer from the embedding size to a size ',
        tex('d'),
        ' (300 → 256 in the notebook). ',
        'Before training the projections are random — PyTorch draws the weights and biases of ',
        code('nn.Linear'),
        ' uniformly in ',
        tex('\\pm 1/\\sqrt{\\text{in}}'),
        ', and so do we, from a seeded generator. Random projections scramble the similarities, so the weights are close to uniform: the layers still have to learn which words should find each other.',
      ),
    ],
    formula: `${symbol('trainable', 'A')} = \\operatorname{softmax}\\!\\Big(\\frac{(${symbol('queryEmbed', 'X_q')} W_q^\\top + b_q)(${symbol('keyEmbed', 'X_k')} W_k^\\top + b_k)^\\top}{\\sqrt{d}}\\Big)`,
    controls: [el('label', {}, 'd = ', dimSelect), reseed, seedText],
    predict: questions.trainable,
    output: out,
    figures: figure.elements,
    after: [note, tryNotebook.element],
  });
  return {
    element,
    needs: ['trained'],
    show(r) {
      const a = r.attention;
      const { weights } = r.trained;
      seedText.textContent = `seed ${state.trainableSeed}`;
      figure.show(a, weights);
      out.textContent = formatNumpy(weights.data, [a.qTokens.length, a.kTokens.length]);
      note.textContent = rangeText(state, a, weights);
      tryNotebook.show(r);
      questions.trainable.update({ a, weights });
    },
    sync: () => (dimSelect.value = String(state.dim)),
  };
}
