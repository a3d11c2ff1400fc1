// Step 6 of the GloVe chapter: additive attention over every query–key pair,
// and what goes wrong in the notebook's version.
import { code, el } from '../../../dom.js';
import { liveExperiment, outputBlock, step } from '../../../chapter-kit.js';
import { shown } from '../../../explain/format.js';
import { symbol, tex } from '../../../math.js';
import { formatNumpy } from '../../../numpy-format.js';
import { clearArgmax } from '../../../predict.js';
import { attentionFigure } from './shared.js';

/** The notebook's Q + K, for these sentences' shapes. */
function notebookBug(n, m, h) {
  const verdict =
    n === m
      ? el(
          'p',
          {},
          `Your sentences both have ${n} tokens, so `,
          code('Q + K'),
          ` would run here, but it pairs query i with key i only: `,
          code('Ws(tanh(Q + K))'),
          ` has shape (${n}, 1), and after the transpose the softmax yields one row of ${n} weights, not a ${n} × ${m} matrix.`,
        )
      : el(
          'p',
          {},
          `Here Q is ${n} × ${h} and K is ${m} × ${h}. Adding them row by row needs equal shapes, so PyTorch stops with `,
          code(
            `RuntimeError: The size of tensor a (${n}) must match the size of tensor b (${m}) at non-singleton dimension 0`,
          ),
          '.',
        );
  return [
    el('h3', { className: 'sub-title' }, 'What goes wrong in the notebook'),
    el(
      'p',
      {},
      'The notebook’s additive attention computes ',
      code('self.Ws(torch.tanh(Q + K))'),
      ': it adds the projected queries and keys row by row instead of pairing every query with every key.',
    ),
    verdict,
    el(
      'p',
      {},
      'Its next cell then calls ',
      code('trainable_attention(...)'),
      ' where it meant ',
      code('additive_attention(...)'),
      ', so the plot shown under “additive attention” is the trainable attention’s matrix again, and the error never surfaces. ',
      'Broadcasting over a new axis fixes it: ',
      code('Q[:, None, :] + K[None, :, :]'),
      ` has shape (${n}, ${m}, ${h}), one sum per pair, which is what is computed above.`,
    ),
  ];
}

/** The strongest pair of the matrix now: "“her” → “son” (0.41)", or that there is a tie. */
function strongestPair(a, weights) {
  const best = clearArgmax(Array.from(weights.data).map((w, x) => (a.mask.data[x] === 1 ? w : -Infinity)));
  if (best === null) return 'no single pair has the largest weight';
  const [i, j] = [Math.floor(best / weights.cols), best % weights.cols];
  return `“${a.qTokens[i]}” → “${a.kTokens[j]}” has the largest weight, ${shown(weights.data[best])}`;
}

export function additiveStep({ state, edit, figures, story, questions, attention }) {
  const figure = attentionFigure({
    label: 'additive attention over every query–key pair',
    linesLabel: 'additive attention as lines from query tokens to key tokens',
    name: 'add.weights',
    story,
    attention,
  });
  figures.additive = figure.map;
  const seedText = el('span', { className: 'seed' });
  const nextSeed = () => edit({ additiveSeed: (state.additiveSeed + 1) >>> 0 });
  const reseed = el('button', { type: 'button', on: { click: nextSeed } }, 'Reseed W_q, W_k, w_s');
  const out = outputBlock('additive attention matrix as NumPy prints it');
  const bugNote = el('div', { className: 'notebook-bug' });
  const tryReseed = liveExperiment({
    label: 'untrained weights, drawn again',
    explain: (r) =>
      `draws W_q, W_k and w_s again from seed ${(state.additiveSeed + 1) >>> 0}. With seed ${state.additiveSeed}, ${strongestPair(r.attention, r.added.weights)}: untrained, the favourite pair changes with the draw.`,
    apply: nextSeed,
  });
  const element = step({
    title: '6. Additive attention, done right',
    intro: [
      el(
        'p',
        {},
        'Additive attention (Bahdanau et al., 2014) scores a pair with a small neural network instead of a dot product: project the query and the key, add them, squash with tanh, and weigh the result with a vector ',
        tex('w_s'),
        '.',
      ),
    ],
    formula: [
      `${symbol('additive', '\\operatorname{score}(i, j)')} = w_s^\\top \\tanh\\!\\big(W_q ${symbol('queryEmbed', 'q_i')} + b_q + W_k ${symbol('keyEmbed', 'k_j')} + b_k\\big) + b_s`,
      '\\text{for every query } i \\text{ and key } j',
    ],
    controls: [reseed, seedText],
    predict: questions.additive,
    output: out,
    figures: figure.elements,
    after: [tryReseed.element, bugNote],
  });
  return {
    element,
    needs: ['added'],
    show(r) {
      const a = r.attention;
      const { weights } = r.added;
      seedText.textContent = `seed ${state.additiveSeed}`;
      figure.show(a, weights);
      out.textContent = formatNumpy(weights.data, [a.qTokens.length, a.kTokens.length]);
      bugNote.replaceChildren(...notebookBug(a.qTokens.length, a.kTokens.length, state.dim));
      tryReseed.show(r);
      questions.additive.update({ a, weights });
    },
  };
}
