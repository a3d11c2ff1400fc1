// The hands-on Transformer chapter, step 2: raw and scaled scores Q Kᵀ.
import { el } from '../../../dom.js';
import { experiment, outputBlock, step } from '../../../chapter-kit.js';
import { symbol, tex } from '../../../math.js';
import { numpyOrSize, setControl, sym, tokenFigure } from './parts.js';

export function scoresStep(ctx) {
  const scoresFig = tokenFigure({
    palette: 'orange',
    label: 'raw scores Q Kᵀ (rows: queries, columns: keys)',
    explain: ctx.explain('raw'),
  });
  const scaledFig = tokenFigure({
    palette: 'orange',
    label: 'scaled scores Q Kᵀ / √d_k',
    explain: ctx.explain('scaled'),
  });
  Object.assign(ctx.figures, { raw: scoresFig, scaled: scaledFig });
  const scoresOut = outputBlock('raw scores as NumPy prints them');
  return {
    element: step({
      title: '2. Raw scores',
      intro: [
        el(
          'p',
          {},
          'Every query is compared with every key by a dot product. One matrix product does all of them: row ',
          tex('i'),
          ' of ',
          tex('QK^\\top'),
          ' holds query ',
          tex('i'),
          '’s scores against every key.',
        ),
      ],
      formula: `${symbol('raw', '\\operatorname{scores}')} = ${sym.Q} ${sym.K}^\\top \\in \\mathbb{R}^{n_q \\times n_k}`,
      output: scoresOut,
      figures: [scoresFig.element, scaledFig.element],
      predict: ctx.questions.scores,
      after: [
        experiment({
          label: 'another seed',
          explain:
            'New random weights W^Q and W^K, same tokens: every score changes, and with it which key each query favours.',
          apply: () => setControl(scoresFig.element.closest('article') ?? document, 'seed', ctx.state.seed + 1),
        }),
      ],
    }),
    show(proj, view) {
      scoresFig.update(proj.raw, view.labels);
      scaledFig.update(proj.scaled, view.labels);
      scoresOut.textContent = numpyOrSize(proj.raw, 'scores');
      ctx.questions.scores.update({ raw: proj.raw, tokens: view.tokens });
    },
  };
}
