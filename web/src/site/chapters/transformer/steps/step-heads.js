// The hands-on Transformer chapter, step 6: multi-head attention by hand, checked against one call.
import { code, el } from '../../../dom.js';
import { experiment, step } from '../../../chapter-kit.js';
import { tex } from '../../../math.js';
import { figure, setControl, tokenFigure } from './parts.js';

const call = (r) => code(`multiHeadAttention(X, X, X, { heads: ${r.perHead.length}, Wq, Wk, Wv, Wo, mask })`);

export function headsStep({ headsSlot, figures, explain, questions }) {
  const headsRow = el('div', { className: 'figures heads' });
  const concatFig = figure({ palette: 'green', label: 'concatenated head outputs', explain: explain('concat') });
  const mhaFig = figure({ palette: 'blue', label: 'multi-head output = concat · Wo', explain: explain('mha') });
  Object.assign(figures, { concat: concatFig, mha: mhaFig });
  const mhaCheck = el('p', { className: 'worked' });
  let headFigs = [];
  // A square-ish grid (4 heads as 2 + 2, 8 as 3 + 3 + 2, never 2 + 1 + 1), with no more
  // columns than the step's figure box holds: measured after layout, when the box or a head
  // figure (more tokens, wider) changes size, so the edit itself forces no layout.
  const fitColumns = typeof ResizeObserver === 'function' ? new ResizeObserver(() => setColumns()) : null;
  const setColumns = () => {
    const square = Math.ceil(Math.sqrt(headFigs.length));
    const first = headsRow.firstElementChild;
    const gap = parseFloat(getComputedStyle(headsRow).columnGap) || 0;
    const room = headsRow.parentElement?.clientWidth ?? 0; // the step's figure box, not the grid's own width
    const fit = first?.offsetWidth && room ? Math.floor((room + gap) / (first.offsetWidth + gap)) : square;
    headsRow.style.setProperty('--columns', String(Math.max(1, Math.min(square, fit))));
  };
  return {
    element: step({
      title: '6. Multi-head attention',
      intro: [
        el(
          'p',
          {},
          'Instead of one attention over all ',
          tex('d_{\\text{model}}'),
          ' columns, split the projected ',
          tex('Q, K, V'),
          ' into ',
          tex('h'),
          ' blocks of ',
          tex('d_k = d_{\\text{model}}/h'),
          ' columns. Each head attends on its own block, so different heads can pick out different relations. ',
          'The heads’ outputs are put side by side again and mixed by ',
          tex('W^O'),
          '. The mask from step 5 applies to every head.',
        ),
      ],
      formula: [
        '\\operatorname{MultiHead}(X) = \\operatorname{Concat}(\\text{head}_1, \\dots, \\text{head}_h) W^O',
        '\\text{head}_i = \\operatorname{Attention}(Q_i, K_i, V_i)',
        'Q_i = X W^Q_i',
      ],
      controls: [headsSlot],
      figures: [headsRow, concatFig.element, mhaFig.element],
      predict: questions.heads,
      after: [
        mhaCheck,
        experiment({
          label: 'heads = 8 with d_model = 8',
          explain:
            'Then d_k = 1: each head compares one number per token, so its score is a plain product q·k and its weights only rank tokens by that product; split across more heads, each one sees less.',
          apply: () => {
            const root = headsRow.closest('article') ?? document;
            setControl(root, 'd_model', 8);
            setControl(root, 'heads', 8);
          },
        }),
      ],
    }),
    show(r, mask, view) {
      const isMasked = (row, c) => mask.data[row * mask.cols + c] === 0;
      const label = (i) => `head ${i + 1} weights (d_k = ${r.dk})`;
      if (headFigs.length !== r.perHead.length) {
        headFigs.forEach((_, i) => delete figures[`head${i}.weights`]);
        headFigs = r.perHead.map((_, i) =>
          tokenFigure({ palette: 'orange', label: label(i), weights: true, explain: explain(`head${i}.weights`) }),
        );
        headFigs.forEach((f, i) => (figures[`head${i}.weights`] = f));
        headsRow.replaceChildren(...headFigs.map((f) => f.element));
        headsRow.style.setProperty('--columns', String(Math.ceil(Math.sqrt(headFigs.length))));
        fitColumns?.disconnect();
        if (headsRow.parentElement) fitColumns?.observe(headsRow.parentElement);
        fitColumns?.observe(headFigs[0].element);
      }
      r.perHead.forEach((h, i) => headFigs[i].update(h.weights, { ...view.labels, isMasked, label: label(i) }));
      concatFig.update(r.concat, view.rowsOnly);
      mhaFig.update(r.byHand, view.rowsOnly);
      questions.heads.update(r.perHead);
      mhaCheck.replaceChildren(call(r), ' is being compared with the step-by-step computation above …');
    },
    /** The one-call check (oneCallCheck), shown after the by-hand figures: see update(). */
    showCheck(r, { diff }) {
      const [n, d] = [r.byHand.rows, r.byHand.cols];
      mhaCheck.replaceChildren(
        call(r),
        ` gives the same ${n} × ${d} output as the step-by-step computation above: largest difference ${diff.toExponential(1)}.`,
      );
    },
    showCheckError(r, error) {
      mhaCheck.replaceChildren(call(r), ` failed: ${error instanceof Error ? error.message : String(error)}`);
    },
  };
}
