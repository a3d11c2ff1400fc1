// The hands-on Transformer chapter, step 5: padding, causal and hand-flipped masks.
import { el } from '../../../dom.js';
import { asInput, experiment, outputBlock, step } from '../../../chapter-kit.js';
import { tex } from '../../../math.js';
import { NumberInput } from '../../../number-input.js';
import * as M from '../model.js';
import { checkbox, figure, numpyOrSize, setControl, tokenFigure } from './parts.js';
import { paintOnce } from './paint.js';

export function maskStep(ctx) {
  const { state, edit, update } = ctx;
  const maskFig = asInput(
    tokenFigure({
      palette: 'bone',
      label: 'mask (1 = may attend, 0 = masked; click a cell, or focus it and press Enter, to flip it)',
      vmin: 0,
      vmax: 1,
    }),
  );
  const maskedFig = tokenFigure({
    palette: 'orange',
    label: 'masked attention weights',
    weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
    explain: ctx.explain('masked'),
  });
  const maskedOutFig = figure({ palette: 'green', label: 'masked output', explain: ctx.explain('maskedOut') });
  Object.assign(ctx.figures, { mask: maskFig, masked: maskedFig, maskedOut: maskedOutFig });
  const maskedOut = outputBlock('masked attention weights as NumPy prints them');
  const maskNote = el('p', { className: 'worked' });
  maskFig.onCellClick((r, c) => {
    const key = `${r}.${c}`;
    if (!state.flips.delete(key)) state.flips.add(key);
    update();
  });
  return {
    element: step({
      title: '5. Masks: padding and no peeking',
      intro: [
        el(
          'p',
          {},
          'Batches pad short sentences to a common length; nobody should attend to the padding. A decoder generating text must not look at tokens it has not produced yet: ',
          'query ',
          tex('i'),
          ' may only see keys ',
          tex('j \\le i'),
          ' (causal mask). Masked scores are set to ',
          tex('-\\infty'),
          ' before the softmax, so their weight is exactly 0. Click any cell of the mask to flip it.',
        ),
      ],
      formula:
        '\\operatorname{softmax}\\!\\Big(\\frac{Q K^\\top}{\\sqrt{d_k}} + M\\Big), \\qquad M_{ij} = \\begin{cases} 0 & \\text{may attend} \\\\ -\\infty & \\text{masked} \\end{cases}',
      controls: [
        new NumberInput({
          caption: 'padding tokens at the end',
          label: 'padding tokens at the end',
          value: state.padding,
          integer: true,
          min: 0,
          max: M.MAX_TOKENS - 1,
          onChange: edit((p) => (state.padding = p)),
          scrub: { step: 1 },
        }).element,
        checkbox(
          'causal (no looking ahead)',
          state.causal,
          edit((c) => (state.causal = c)),
        ),
        el(
          'button',
          { type: 'button', className: 'small clear-flips', on: { click: edit(() => state.flips.clear()) } },
          'clear flipped cells',
        ),
      ],
      output: maskedOut,
      figures: [maskFig.element, maskedFig.element, maskedOutFig.element],
      predict: ctx.questions.mask,
      after: [
        maskNote,
        experiment({
          label: 'turn on causal',
          explain:
            'Why is the first row of the masked weights one-hot? The first query may see only itself: one score, so its softmax is 1. The second row shares its weight between two keys, and so on down the triangle.',
          apply: () => {
            const root = maskFig.element.closest('section');
            root.querySelector('button.clear-flips')?.click();
            setControl(root, 'causal (no looking ahead)', true);
          },
        }),
      ],
    }),
    show(mask, masked, view, weights) {
      const isMasked = (r, c) => mask.data[r * mask.cols + c] === 0;
      // A new seed keeps the mask (the same object, see update()): no repaint.
      paintOnce(maskFig, mask, view.labels);
      maskedFig.update(masked.weights, { ...view.labels, isMasked });
      maskedOutFig.update(masked.output, view.rowsOnly);
      maskedOut.textContent = numpyOrSize(masked.weights, 'weights');
      ctx.questions.mask.update({ weights, masked: masked.weights, mask });
      const empty = M.emptyRows(mask);
      maskNote.textContent = empty
        ? `${empty} ${empty === 1 ? 'query has' : 'queries have'} no key left to attend to: ${empty === 1 ? 'its' : 'their'} weights and output are all zeros (not NaN).`
        : 'Every query still has at least one key to attend to; each row of weights sums to 1.';
    },
  };
}
