// Step 1 of the RoPE chapter: q's coordinates in pairs, each pair a 2-D arrow
// turning with the position; q at positions 0 … T − 1.
import { el } from '../../../dom.js';
import { asInput, indexingNote, indexLabels, liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { shown } from '../../../explain/format.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { symbol } from '../../../math.js';
import { DIMS, MAX_POSITION } from '../model.js';
import { Dials } from './dials.js';
import { choice, numberField, numpyLines, positionLabels } from './shared.js';

/** The angle m·θ_i of every pair of the current state, θ from the recorded frequencies (scaled row when there is one). */
export const anglesOf = (r, m) =>
  Array.from({ length: r.freqs.cols }, (_, i) => m * r.freqs.data[(r.freqs.rows - 1) * r.freqs.cols + i]);

export function pairsStep(ctx) {
  const { state, edit, figures, story, questions } = ctx;
  const query = asInput(new Heatmap({ palette: 'bone', label: 'the query q, drawn', annotate: true }));
  figures.q = query;
  const turned = new Heatmap({
    palette: 'orange',
    label: 'q turned at positions 0 to T − 1, one row per position',
    explain: story('qRot'),
  });
  figures.qRot = turned;
  const dials = new Dials('each pair of q as an arrow, at position 0 and at position m');
  const seed = numberField('seed', state.seed, { min: 0, max: 4294967295, integer: true, width: '7.5em' }, (x) =>
    edit({ seed: x }),
  );
  const dim = choice('head size d', DIMS, state.headDim, (d) => edit({ headDim: d }));
  const at = numberField('query position m', state.queryAt, { min: 0, max: MAX_POSITION, integer: true }, (x) =>
    edit({ queryAt: x }),
  );
  const code = outputBlock('the NumPy lines that turn q at position m');
  const tryTurn = liveExperiment({
    label: 'a full turn of pair 1',
    explain: (r) => {
      const theta = r.freqs.data[(r.freqs.rows - 1) * r.freqs.cols];
      const full = Math.round((2 * Math.PI) / theta);
      return state.queryAt === full
        ? `m = ${full} ≈ 2π/θ1: pair 1 has turned by ${shown(full * theta)} rad, almost exactly once around; the slower pairs have barely moved.`
        : `Sets m to ${full}, the position nearest 2π/θ1, where the fastest pair has gone once around.`;
    },
    apply: () => {
      const theta = ctx.lastFreqs?.data[(ctx.lastFreqs.rows - 1) * ctx.lastFreqs.cols] ?? 1;
      edit({ queryAt: Math.min(MAX_POSITION, Math.round((2 * Math.PI) / theta)) }, { program: true });
    },
  });
  const element = step({
    title: '1. Coordinates in pairs, turning with the position',
    intro: [
      el(
        'p',
        {},
        'Attention itself has no idea where a token stands: shuffle the tokens and every score stays the same. RoPE gives the position to the query and the key themselves. ',
        'It splits the d coordinates of q into d/2 pairs and treats each pair as an arrow in a plane. At position m, pair i is turned by the angle m·θ_i, and that is all: no vector is added, no length changes.',
      ),
      el(
        'p',
        {},
        'Hugging Face’s Llama-style models pair coordinate i with coordinate i + d/2 (the “half” layout, step 4 shows the other one). Here q is drawn from a seed; move m and watch the arrows turn.',
      ),
      indexingNote(),
    ],
    formula: `\\begin{pmatrix} ${symbol('qRot', "q'_{i}")} \\\\ ${symbol('qRot', "q'_{i+d/2}")} \\end{pmatrix} = \\begin{pmatrix} \\cos m\\theta_i & -\\sin m\\theta_i \\\\ \\sin m\\theta_i & \\cos m\\theta_i \\end{pmatrix} \\begin{pmatrix} ${symbol('q', 'q_{i}')} \\\\ ${symbol('q', 'q_{i+d/2}')} \\end{pmatrix}`,
    controls: [seed.element, dim.element, at.element],
    predict: questions.sameLength,
    output: code,
    figures: [dials.element, captioned(query, 'q: one row, d coordinates'), captioned(turned, 'q at each position')],
    after: [tryTurn.element],
  });
  return {
    element,
    needs: ['qRot', 'turned', 'freqs'],
    show(r) {
      ctx.lastFreqs = r.freqs;
      const cols = indexLabels(state.headDim);
      query.update(r.q, { colLabels: cols, rowLabels: ['q'] });
      turned.update(r.qRot, { colLabels: cols, rowLabels: positionLabels(state.positions) });
      dials.update(r.q.data, r.turned.data, anglesOf(r, state.queryAt), state.queryAt);
      code.textContent = numpyLines(state, r.freqs);
      questions.sameLength.update(r);
      tryTurn.show(r);
    },
    sync() {
      seed.set(state.seed);
      dim.node.value = String(state.headDim);
      at.set(state.queryAt);
    },
  };
}
