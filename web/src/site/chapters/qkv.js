// Chapter "Q/K/V attention from scratch": four tiny word vectors, random
// integer projections W_Q, W_K, W_V (NumPy-exact, seed 42), and the general
// attention mechanism computed one matrix at a time.
import { code, el } from '../dom.js';
import { asInput, credit, errorLine, guarded, indexLabels, numberedLabels, outputBlock, step } from '../chapter-kit.js';
import { captioned, Heatmap } from '../figures/heatmap.js';
import { storyForFigures, Trace } from '../explain/trace.js';
import { addPrerendered, symbol, tex } from '../math.js';
import { linkFormulas } from '../formula-links.js';
import { MatrixEditor } from '../matrix-editor.js';
import { formatCell, formatNumpy } from '../numpy-format.js';
import { NumberInput } from '../number-input.js';
import { urlStore } from '../url-state.js';
import { SCHEMA, WEIGHT_KEYS, drawWeights, isWhole, qkvAttention, resolveWeights, traceQkv } from './qkv-model.js';
import formulas from '../formulas/qkv.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

const WEIGHT_NAMES = { WQ: 'W_Q', WK: 'W_K', WV: 'W_V' };
// Formula symbols linked to their figures (formula-links.js).
const X = symbol('words', 'X');
const Q = symbol('Q', 'Q');
const K = symbol('K', 'K');
const V = symbol('V', 'V');
const S = symbol('scores', 'S');
const Sij = symbol('scores', 'S_{ij}');
const alpha = symbol('weights', '\\alpha_{ij}');

// `prefix = array(...)` as NumPy prints it. Integer inputs give NumPy integer
// arrays (words, W, Q, K, V, scores): those print without decimal points,
// "array([[2, 0, 2], ...". Softmax results are always floats.
const numpyRepr = (data, shape, prefix, { float = false } = {}) => {
  const text = formatNumpy(data, shape, { prefix: `${' '.repeat(prefix.length)}array(` }).trimStart();
  const whole = !float && Array.from(data).every((x) => Number.isInteger(x) && Math.abs(x) < 1e15);
  return `${prefix}${whole ? text.replace(/(\d)\.(?=[,\]\s])/g, '$1') : text}`;
};
const matrixOf = (rows) => ({ rows: rows.length, cols: rows[0].length, data: Float64Array.from(rows.flat()) });

export default {
  id: 'qkv',
  title: 'Q/K/V attention from scratch',
  summary:
    'Queries, keys and values for four toy words: project, score every pair, softmax with 1/√d_k, and mix the values.',

  /**
   * @param {HTMLElement} root
   * @param {{api: import('attention-lab').Attention}} context
   */
  render(root, { api, store = urlStore }) {
    const read = store.readState(SCHEMA);
    const weights = resolveWeights(api, read);
    const state = { seed: read.seed, words: read.words, WQ: weights.WQ, WK: weights.WK, WV: weights.WV };
    // Weights typed by the reader go into the URL; drawn ones follow from the seed.
    let customWeights = weights.custom;
    const save = () =>
      store.writeState(SCHEMA, {
        ...state,
        ...Object.fromEntries(WEIGHT_KEYS.map((k) => [k, customWeights ? state[k] : null])),
      });

    // ---- Step 1: words
    const wordsEditor = new MatrixEditor({
      rows: state.words,
      label: 'word vectors',
      rowLabel: (i) => `word_${i + 1}`,
      rowNoun: 'word',
      minRows: 1,
      maxRows: 8,
      newRow: (rows) => [rows.length % 3 === 0 ? 1 : 0, rows.length % 3 === 1 ? 1 : 0, rows.length % 3 === 2 ? 1 : 0],
      onChange: (rows) => {
        state.words = rows;
        update();
      },
    });
    const wordsMap = asInput(
      new Heatmap({ palette: 'purple', label: 'word vectors, one row per word', colLabels: indexLabels(3) }),
    );
    const wordsOut = outputBlock('words as NumPy prints them');

    // ---- Step 2: weights
    const weightEditors = {};
    const weightMaps = {};
    for (const key of ['WQ', 'WK', 'WV']) {
      weightEditors[key] = new MatrixEditor({
        rows: state[key],
        label: WEIGHT_NAMES[key],
        rowLabel: (i) => `row ${i + 1}`,
        onChange: (rows) => {
          state[key] = rows;
          customWeights = true;
          update();
        },
      });
      weightMaps[key] = asInput(
        new Heatmap({
          palette: 'bone',
          label: WEIGHT_NAMES[key],
          rowLabels: indexLabels(3),
          colLabels: indexLabels(3),
        }),
      );
    }
    const redraw = (newSeed) => {
      state.seed = newSeed;
      const w = drawWeights(api, newSeed);
      for (const key of ['WQ', 'WK', 'WV']) {
        state[key] = w[key];
        weightEditors[key].setRows(w[key]);
      }
      customWeights = false;
      update();
    };
    const seedField = new NumberInput({
      caption: 'seed',
      label: 'seed',
      value: state.seed,
      integer: true,
      min: 0,
      max: 4294967295,
      width: '7.5em',
      onChange: redraw,
    });
    const redrawButton = el(
      'button',
      { type: 'button', className: 'small', on: { click: () => redraw(state.seed) } },
      'draw again with this seed',
    );
    const weightsOut = outputBlock('W_Q, W_K and W_V as NumPy prints them');
    const labelled = (key, node) =>
      el('div', {}, el('div', { className: 'control-label' }, `${WEIGHT_NAMES[key]} =`), node);

    // ---- Provenance: the computation as a trace; every figure explains its cells from it.
    const trace = new Trace();
    /** Heatmaps by the names the model's explanations use (filled below). */
    const figures = {};
    const story = storyForFigures(trace, figures);

    // ---- Step 3: Q, K, V
    const projMaps = {
      Q: new Heatmap({
        palette: 'orange',
        label: 'queries Q, one row per word',
        colLabels: indexLabels(3),
        explain: story('Q'),
      }),
      K: new Heatmap({
        palette: 'green',
        label: 'keys K, one row per word',
        colLabels: indexLabels(3),
        explain: story('K'),
      }),
      V: new Heatmap({
        palette: 'blue',
        label: 'values V, one row per word',
        colLabels: indexLabels(3),
        explain: story('V'),
      }),
    };
    const projOut = outputBlock('Q, K and V as NumPy prints them');

    // ---- Step 4: scores
    const scoresMap = new Heatmap({
      palette: 'orange',
      label: 'scores Q·Kᵀ: rows are queries, columns are keys',
      colLabelsOnTop: true,
      explain: story('scores'),
    });
    const scoresOut = outputBlock('scores as NumPy prints them');
    const scoresWorked = el('p', { className: 'worked' });

    // ---- Step 5: weights
    const weightsMap = new Heatmap({
      palette: 'purple',
      label: 'attention weights: row i is how word i spreads its attention',
      weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
      colLabelsOnTop: true,
      explain: story('weights'),
    });
    const attnOut = outputBlock('attention weights as NumPy prints them');
    const scaleLine = el('p', { className: 'worked' });

    // ---- Step 6: output
    const outputMap = new Heatmap({
      palette: 'blue',
      label: 'attention output, one row per word',
      colLabels: indexLabels(3),
      explain: story('output'),
    });
    Object.assign(figures, {
      output: outputMap,
      words: wordsMap,
      ...Object.fromEntries(WEIGHT_KEYS.map((key) => [key, weightMaps[key]])),
      ...projMaps,
      scores: scoresMap,
      weights: weightsMap,
    });
    const outputOut = outputBlock('attention output as NumPy prints it');
    const outputWorked = el('p', { className: 'worked' });

    const error = errorLine();

    function update() {
      guarded(error, () => {
        const n = state.words.length;
        const whole = isWhole;
        // NumPy's dtype: products of integer arrays stay integer arrays.
        const intProducts = whole(state.words) && whole(state.WQ) && whole(state.WK) && whole(state.WV);
        const labels = numberedLabels('word_', n);
        const words = matrixOf(state.words);
        wordsMap.update(words, { rowLabels: labels });
        wordsOut.textContent = numpyRepr(words.data, [n, 3], 'words = ', { float: !whole(state.words) });

        for (const key of ['WQ', 'WK', 'WV']) weightMaps[key].update(matrixOf(state[key]));
        weightsOut.textContent = ['WQ', 'WK', 'WV']
          .map((key) =>
            numpyRepr(Float64Array.from(state[key].flat()), [3, 3], `${WEIGHT_NAMES[key]} = `, {
              float: !whole(state[key]),
            }),
          )
          .join('\n');

        const r = qkvAttention(api, state.words, state.WQ, state.WK, state.WV);
        traceQkv(trace, state.words, state, r);
        for (const name of ['Q', 'K', 'V']) projMaps[name].update(r[name], { rowLabels: labels });
        projOut.textContent = ['Q', 'K', 'V']
          .map((name) => numpyRepr(r[name].data, [n, 3], `${name} = `, { float: !intProducts }))
          .join('\n');

        scoresMap.update(r.scores, { rowLabels: labels, colLabels: labels, rotateColLabels: n > 4 });
        scoresOut.textContent = numpyRepr(r.scores.data, [n, n], 'scores = ', { float: !intProducts });
        const q1 = r.Q.row(0);
        scoresWorked.textContent = `word_1 against word_1: q1 · k1 = ${Array.from(q1, (x, i) => `${formatCell(x)}·${formatCell(r.K.get(0, i))}`).join(' + ')} = ${formatCell(r.scores.get(0, 0))}`;

        scaleLine.textContent = `d_k = ${r.dk}, so every score is divided by √${r.dk} ≈ ${Math.sqrt(r.dk).toFixed(4)} before softmax; each row of weights adds up to 1.`;
        weightsMap.update(r.weights, { rowLabels: labels, colLabels: labels, rotateColLabels: n > 4 });
        attnOut.textContent = numpyRepr(r.weights.data, [n, n], 'weights = ', { float: true });

        outputMap.update(r.output, { rowLabels: labels });
        outputOut.textContent = numpyRepr(r.output.data, [n, 3], 'attention = ', { float: true });
        outputWorked.textContent = `word_1: ${Array.from(r.weights.row(0), (w, j) => `${formatCell(w)}·v${j + 1}`).join(' + ')} = [${Array.from(r.output.row(0), formatCell).join(', ')}]`;
        save();
      });
    }

    root.append(
      el('h1', { className: 'chapter-title' }, 'Q/K/V attention from scratch'),
      credit({
        text: 'Follows part (2) of',
        title: 'neqkir/attention-mechanism',
        url: 'https://github.com/neqkir/attention-mechanism',
        note: 'which works through the example of Stefania Cristina’s “The Attention Mechanism from Scratch” (Machine Learning Mastery)',
      }),
      credit({
        text: 'Example and draws from',
        title: 'The Attention Mechanism from Scratch',
        url: 'https://machinelearningmastery.com/the-attention-mechanism-from-scratch/',
        note: 'Scaling by √d_k from Vaswani et al. (2017), “Attention Is All You Need”. The explanations here are our own; every number is computed live by the WebAssembly core',
      }),
      el(
        'p',
        { className: 'lede' },
        'Bahdanau attention compared one decoder state with every encoder state. The general mechanism behind Transformers turns that into three roles that every word plays at once: ',
        'it asks a question (its query), it advertises what it contains (its key), and it offers content to pass on (its value). ',
        'Each role is a different linear projection of the same word vector. Below, four three-number “words” go through the whole computation; edit any entry, or draw new projections with another seed.',
      ),
      step({
        title: '1. The words',
        intro: [
          el(
            'p',
            {},
            'In a real model each word would be an embedding learned from text, with hundreds of entries. Here the words are short hand-made vectors, one row each: ',
            code('word_3 = word_1 + word_2'),
            ' shares something with both, and ',
            code('word_4'),
            ' has nothing in common with the others.',
          ),
        ],
        controls: [wordsEditor.element],
        output: wordsOut,
        figures: [captioned(wordsMap, 'words: one row per word')],
      }),
      step({
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
        output: weightsOut,
        figures: ['WQ', 'WK', 'WV'].map((key) =>
          labelled(key, el('div', {}, weightEditors[key].element, captioned(weightMaps[key], WEIGHT_NAMES[key]))),
        ),
      }),
      step({
        title: '3. Queries, keys and values',
        intro: [
          el(
            'p',
            {},
            'Multiplying the words by each matrix gives every word its three vectors (row ',
            tex('i'),
            ' belongs to word ',
            tex('i'),
            '):',
          ),
          el(
            'ul',
            {},
            el(
              'li',
              {},
              el('strong', {}, 'query'),
              ' ',
              tex('q_i'),
              ': what word ',
              tex('i'),
              ' is looking for in the others;',
            ),
            el(
              'li',
              {},
              el('strong', {}, 'key'),
              ' ',
              tex('k_j'),
              ': how word ',
              tex('j'),
              ' presents itself to queries: a query that lines up with it finds it;',
            ),
            el(
              'li',
              {},
              el('strong', {}, 'value'),
              ' ',
              tex('v_j'),
              ': what word ',
              tex('j'),
              ' hands over once it has been found.',
            ),
          ),
          'Separating keys from values lets a word be found for one reason and contribute something else.',
        ],
        formula: `${Q} = ${X} ${symbol('WQ', 'W_Q')}, \\qquad ${K} = ${X} ${symbol('WK', 'W_K')}, \\qquad ${V} = ${X} ${symbol('WV', 'W_V')}`,
        output: projOut,
        figures: [
          captioned(projMaps.Q, 'Q: queries'),
          captioned(projMaps.K, 'K: keys'),
          captioned(projMaps.V, 'V: values'),
        ],
      }),
      step({
        title: '4. Scores: every query against every key',
        intro: [
          'Entry (i, j) is the dot product of word i’s query with word j’s key: how strongly word i should attend to word j. All pairs at once are one matrix product.',
        ],
        formula: `${S} = ${Q} ${K}^\\top, \\qquad ${symbol('scores', 'S_{ij}')} = ${symbol('Q', 'q_i')} \\cdot ${symbol('K', 'k_j')}`,
        output: scoresOut,
        figures: [captioned(scoresMap, 'scores: row = query word, column = key word')],
        after: [scoresWorked],
      }),
      step({
        title: '5. Scale, then softmax row by row',
        intro: [
          el(
            'p',
            {},
            'Each row of scores becomes a set of weights with softmax. First the scores are divided by ',
            tex('\\sqrt{d_k}'),
            ', the square root of the key length: the dot product of two random vectors spreads wider as they get longer (its variance grows with ',
            tex('d_k'),
            '), and without the scaling softmax would hand almost all the weight to one word.',
          ),
        ],
        formula: `${alpha} = \\operatorname{softmax}_j\\!\\left(\\frac{${Sij}}{\\sqrt{d_k}}\\right) = \\frac{\\exp(${Sij}/\\sqrt{d_k})}{\\sum_{l} \\exp(${symbol('scores', 'S_{il}')}/\\sqrt{d_k})}`,
        output: attnOut,
        figures: [captioned(weightsMap, 'weights: each row adds up to 1')],
        after: [scaleLine],
      }),
      step({
        title: '6. The output: a mix of values for every word',
        intro: [
          'Each word’s output is the weighted sum of all the values, with its own row of weights. A word’s new representation now carries information from the words it attended to.',
        ],
        formula: [
          `${symbol('output', '\\operatorname{Attention}(Q, K, V)')} = \\operatorname{softmax}\\!\\left(\\frac{${Q} ${K}^\\top}{\\sqrt{d_k}}\\right) ${V}`,
          `${symbol('output', 'o_i')} = \\sum_j ${alpha}\\, ${symbol('V', 'v_j')}`,
        ],
        output: outputOut,
        figures: [captioned(outputMap, 'attention output: one row per word')],
        after: [outputWorked],
      }),
      error,
    );
    linkFormulas(root, figures);
    update();
  },
};
