// Chapter "Bahdanau additive attention": the alignment network of Bahdanau et
// al. (2014) computed step by step with random NumPy-exact inputs, following a
// NumPy walk-through of the paper (seed 42, 5 encoder steps, 16 hidden units,
// attention size 10).
import { code, el } from '../dom.js';
import {
  asInput,
  credit,
  errorLine,
  folded,
  guarded,
  indexLabels,
  numberedLabels,
  outputBlock,
  step,
} from '../chapter-kit.js';
import { FlowDiagram } from '../figures/flow-diagram.js';
import { lengthSketch } from '../figures/length-sketch.js';
import { captioned, Heatmap } from '../figures/heatmap.js';
import { storyForFigures, Trace } from '../explain/trace.js';
import { addPrerendered, symbol, tex } from '../math.js';
import { linkFormulas } from '../formula-links.js';

import { formatCell, formatNumpy } from '../numpy-format.js';
import { urlStore } from '../url-state.js';
import { NumberInput } from '../number-input.js';
import { bahdanauAttention, SCHEMA, setupLines, traceBahdanau } from './bahdanau-model.js';
import formulas from '../formulas/bahdanau.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

// Formula symbols linked to their figures (formula-links.js).
const hi = symbol('encoder', 'h_i');
const sDec = symbol('decoder', 's');
const W1 = symbol('layer1', 'W_1');
const w2 = symbol('layer2', 'w_2');
const alpha = symbol('weights', '\\alpha_i');
const DEFAULTS = Object.fromEntries(SCHEMA.map((p) => [p.name, p.default]));
const LIMITS = Object.fromEntries(SCHEMA.map((p) => [p.name, [p.min, p.max]]));

// Wide matrices get two-decimal cell labels, big ones no labels and smaller
// cells, so every heatmap fits the page.
const twoDecimals = (x) => (Math.abs(x) < 0.005 ? '0' : x.toFixed(2));
function layout(rows, cols) {
  if (rows <= 20 && cols <= 10)
    return { annotate: true, format: formatCell, cellWidth: undefined, cellHeight: undefined };
  if (rows <= 20 && cols <= 16) return { annotate: true, format: twoDecimals, cellWidth: 40, cellHeight: undefined };
  return {
    annotate: false,
    cellWidth: Math.min(50, Math.max(10, Math.floor(720 / cols))),
    cellHeight: Math.min(32, Math.max(8, Math.floor(420 / rows))),
  };
}

const asRow = (v) => ({ rows: 1, cols: v.length, data: v });
const asColumn = (v) => ({ rows: v.length, cols: 1, data: v });

export default {
  id: 'bahdanau',
  title: 'Bahdanau additive attention',
  summary:
    'Score encoder states with a small tanh network (Bahdanau et al., 2014), softmax the scores and build the context vector, all from NumPy-exact random inputs.',

  /**
   * @param {HTMLElement} root
   * @param {{api: import('attention-lab').Attention}} context
   */
  render(root, { api, store = urlStore }) {
    const state = store.readState(SCHEMA);
    const save = () => store.writeState(SCHEMA, state);
    const field = (key, label) =>
      new NumberInput({
        caption: label,
        label,
        integer: true,
        width: '7.5em',
        value: state[key],
        min: LIMITS[key][0],
        max: LIMITS[key][1],
        onChange: (x) => {
          state[key] = x;
          update();
        },
      });
    const fields = [
      field('seed', 'seed'),
      field('inputLength', 'input_length'),
      field('hiddenSize', 'hidden_size'),
      field('attentionSize', 'attention_size'),
    ];
    const resetButton = el(
      'button',
      {
        type: 'button',
        className: 'small',
        on: {
          click: () => {
            Object.assign(state, DEFAULTS);
            fields.forEach((f, i) => f.set(Object.values(DEFAULTS)[i]));
            update();
          },
        },
      },
      'back to the article (42, 5, 16, 10)',
    );

    /** Heatmaps by the names the model's explanations use (filled below). */
    const figures = {};
    const trace = new Trace(); // the computation, from which every figure explains its cells
    const story = storyForFigures(trace, figures);

    // ---- outputs and figures, filled by update()
    const setupOut = outputBlock('the draws and their shapes');
    const encoderMap = asInput(new Heatmap({ palette: 'orange', label: 'encoder states, one row per encoder step' }));
    const decoderMap = asInput(new Heatmap({ palette: 'purple', label: 'decoder state s' }));
    const encoderOut = outputBlock('encoder_states as NumPy prints it');
    const decoderOut = outputBlock('decoder_state as NumPy prints it');
    const inputsMap = new Heatmap({
      palette: 'viridis',
      label: 'concatenated inputs [h_i; s], one row per encoder step',
      explain: story('inputs'),
    });
    const inputsOut = outputBlock('inputs as NumPy prints them');
    const layer1Map = asInput(new Heatmap({ palette: 'bone', label: 'layer_1 weights W1' }));
    const activationsMap = new Heatmap({
      palette: 'green',
      label: 'tanh activations, one row per encoder step',
      explain: story('activations'),
    });
    const activationsOut = outputBlock('activations as NumPy prints them');
    const layer2Map = asInput(new Heatmap({ palette: 'bone', label: 'layer_2 weights w2' }));
    const scoresMap = new Heatmap({
      palette: 'orange',
      label: 'alignment scores e, one per encoder step',
      explain: story('scores'),
    });
    const scoresOut = outputBlock('alignment scores as NumPy prints them');
    const weightsMap = new Heatmap({
      palette: 'orange',
      label: 'attention weights α',
      weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
      explain: story('weights'),
    });
    const weightsOut = outputBlock('softmax weights as NumPy prints them');
    const weightedMap = new Heatmap({
      palette: 'orange',
      label: 'weighted encoder states α_i h_i',
      explain: story('weighted'),
    });
    const weightedOut = outputBlock('weighted encoder states as NumPy prints them');
    const contextMap = new Heatmap({
      palette: 'blue',
      label: 'context vector c',
      explain: story('context'),
    });
    const contextOut = outputBlock('context vector as NumPy prints it');
    const compareMap = new Heatmap({
      palette: 'orange',
      label: 'weights from additive and from dot-product scores',
      weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
      rowLabels: ['additive', 'dot product'],
      explain: story('compare'),
    });
    const diagram = new FlowDiagram({
      label: 'the attention step: encoder states, additive scores, weights, context',
      stateName: (i) => `h${i + 1}`,
      queryName: 's',
    });
    Object.assign(figures, {
      encoder: encoderMap,
      decoder: decoderMap,
      inputs: inputsMap,
      layer1: layer1Map,
      activations: activationsMap,
      layer2: layer2Map,
      scores: scoresMap,
      weights: weightsMap,
      weighted: weightedMap,
      context: contextMap,
    });
    const compareOut = outputBlock('dot-product scores and weights of the same states');
    const shapeLine = el('p', { className: 'worked' });
    const argmaxLine = el('p', { className: 'worked' });
    const error = errorLine();

    function update() {
      guarded(error, () => {
        const { inputLength: n, hiddenSize: h, attentionSize: a } = state;
        const r = bahdanauAttention(api, state);
        traceBahdanau(trace, r);
        const steps = numberedLabels('h', n);

        setupOut.textContent = setupLines(state);

        encoderMap.update(r.encoderStates, {
          rowLabels: steps,
          colLabels: h <= 16 ? indexLabels(h) : undefined,
          ...layout(n, h),
        });
        encoderOut.textContent = formatNumpy(r.encoderStates.data, [n, h]);
        decoderMap.update(r.decoderState, {
          rowLabels: ['s'],
          colLabels: h <= 16 ? indexLabels(h) : undefined,
          ...layout(1, h),
        });
        decoderOut.textContent = formatNumpy(r.decoderState.data, [1, h]);

        inputsMap.update(r.inputs, { rowLabels: steps, ...layout(n, 2 * h) });
        inputsOut.textContent = formatNumpy(r.inputs.data, [n, 2 * h]);
        shapeLine.textContent = `inputs.shape == (${n}, ${2 * h}) == (input_length, 2*hidden_size): columns 0–${h - 1} (inputs[:, :${h}]) are h_i, columns ${h}–${2 * h - 1} (inputs[:, ${h}:]) are the same s on every row`;

        layer1Map.update(r.layer1, { ...layout(2 * h, a), rowLabels: undefined });
        activationsMap.update(r.activations, {
          rowLabels: steps,
          colLabels: a <= 16 ? indexLabels(a) : undefined,
          vmin: -1,
          vmax: 1,
          ...layout(n, a),
        });
        activationsOut.textContent = formatNumpy(r.activations.data, [n, a]);

        layer2Map.update(asColumn(r.layer2.data), { ...layout(a, 1) });
        scoresMap.update(asColumn(r.scores), { rowLabels: steps, ...layout(n, 1) });
        scoresOut.textContent = formatNumpy(r.scores, [n, 1]);

        weightsMap.update(asRow(r.weights), { colLabels: steps, ...layout(1, n) });
        weightsOut.textContent = formatNumpy(r.weights, [n, 1]);
        const best = r.weights.indexOf(Math.max(...r.weights));
        argmaxLine.textContent = `The largest weight goes to h${best + 1}: ${(100 * r.weights[best]).toFixed(1)} % of the context vector comes from that encoder step.`;

        weightedMap.update(r.weighted, {
          rowLabels: steps,
          colLabels: h <= 16 ? indexLabels(h) : undefined,
          ...layout(n, h),
        });
        weightedOut.textContent = formatNumpy(r.weighted.data, [n, h]);
        contextMap.update(asRow(r.context), {
          rowLabels: ['c'],
          colLabels: h <= 16 ? indexLabels(h) : undefined,
          ...layout(1, h),
        });
        contextOut.textContent = formatNumpy(r.context, [h]);
        diagram.update({
          states: Array.from({ length: n }, (_, i) => r.encoderStates.row(i)),
          query: r.decoderState.data,
          scores: r.scores,
          weights: r.weights,
          context: r.context,
        });

        const both = new Float64Array(2 * n);
        both.set(r.weights, 0);
        both.set(r.dotWeights, n);
        compareMap.update({ rows: 2, cols: n, data: both }, { colLabels: steps, ...layout(2, n) });
        compareOut.textContent = [
          '# dot-product scores of the same states: encoder_states @ decoder_state[0]',
          formatNumpy(r.dotScores, [n]),
          '# their softmax weights',
          formatNumpy(r.dotWeights, [n]),
        ].join('\n');
        save();
      });
    }

    root.append(
      el('h1', { className: 'chapter-title' }, 'Bahdanau additive attention'),
      credit({
        text: 'The attention mechanism of',
        title:
          'Bahdanau, Cho and Bengio (2014), “Neural Machine Translation by Jointly Learning to Align and Translate”',
        url: 'https://arxiv.org/abs/1409.0473',
        note: 'Appendix A of the paper defines the alignment model computed here',
      }),
      credit({
        text: 'Reproduces the numbers of a NumPy walk-through of that paper written after',
        title: 'DeepLearning.AI’s course “Natural Language Processing with Attention Models”',
        url: 'https://www.coursera.org/learn/attention-models-in-nlp',
        note: 'Same seed, sizes and draws; the explanations here are our own and every number is computed live by the WebAssembly core',
      }),
      el(
        'p',
        { className: 'lede' },
        'A plain encoder–decoder network hands the decoder one fixed-size vector for the whole source sentence, and long sentences do not fit. ',
        'Bahdanau attention lets the decoder look back at every encoder state instead: at each output step a tiny neural network rates how well each encoder state matches what the decoder needs now, ',
        'and the decoder receives a blend of the encoder states weighted by those ratings. Here that network runs on random inputs, drawn exactly as NumPy draws them, so you can compare every number with the original NumPy code.',
      ),
      step({
        title: 'Why attention: the bottleneck',
        intro: [
          el(
            'p',
            {},
            'Before attention, an encoder–decoder translator read the whole source sentence into one vector of fixed size and generated the translation from that vector alone. ',
            'Short sentences fit; long ones do not: Bahdanau, Cho and Bengio measured translation quality falling steadily once sentences grew beyond about twenty words. ',
            'Their fix keeps every encoder state and lets the decoder choose, at each output word, which ones to read. With it, quality held up on long sentences.',
          ),
        ],
        figures: [lengthSketch()],
      }),
      step({
        title: '1. Seed and sizes',
        intro: [
          el(
            'p',
            {},
            'In a trained translator the encoder states, the decoder state and the two weight matrices would come out of training. To study the arithmetic, standard normal random numbers do just as well. ',
            'The generator behind ',
            code('new api.RandomState(seed)'),
            ' reproduces NumPy’s ',
            code('np.random.seed'),
            ' / ',
            code('randn'),
            ' stream bit for bit, so with seed 42 and the sizes below you get the very numbers the NumPy version prints. Change the seed or any size and everything below is redrawn and recomputed.',
          ),
        ],
        controls: [...fields.map((f) => f.element), resetButton],
        output: setupOut,
      }),
      step({
        title: '2. The encoder states and the decoder state',
        intro: [
          el(
            'p',
            {},
            'Row ',
            tex('i'),
            ' of ',
            code('encoder_states'),
            ' is ',
            tex('h_i'),
            ', what the encoder knew after reading source word ',
            tex('i'),
            '. The decoder state ',
            tex('s'),
            ' summarises what has been translated so far. Both have ',
            code('hidden_size'),
            ' entries.',
          ),
        ],
        output: folded(encoderOut),
        figures: [captioned(encoderMap, 'encoder_states: row i is h_i'), captioned(decoderMap, 'decoder_state s')],
        after: [decoderOut],
      }),
      step({
        title: '3. Pairing every encoder state with the decoder state',
        intro: [
          el(
            'p',
            {},
            'The alignment network looks at one pair ',
            tex('(h_i, s)'),
            ' at a time, as one long vector: the encoder state followed by the decoder state. ',
            'Doing all pairs at once means repeating ',
            tex('s'),
            ' once per encoder step (NumPy’s ',
            code('decoder_state.repeat(input_length, axis=0)'),
            ') and gluing it to the right of the encoder states (',
            code('np.concatenate(..., axis=1)'),
            ').',
          ),
        ],
        formula: `${symbol('inputs', 'x_i')} = \\begin{bmatrix} ${hi} \\\\ ${sDec} \\end{bmatrix} \\in \\mathbb{R}^{2\\,\\mathrm{hidden}}, \\qquad ${symbol('inputs', 'X')} = \\big[\\, ${symbol('encoder', 'H')} \\;\\big|\\; \\mathbf{1}\\, ${sDec}^\\top \\big] \\in \\mathbb{R}^{n \\times 2\\,\\mathrm{hidden}}`,
        output: folded(inputsOut),
        figures: [captioned(inputsMap, 'inputs: [h_i ; s] on row i')],
        after: [
          shapeLine,
          'In the heatmap the right half is striped vertically: every row carries the same decoder state.',
        ],
      }),
      step({
        title: '4. The first layer, with tanh',
        intro: [
          el(
            'p',
            {},
            'A dense layer with weights ',
            tex('W_1'),
            ' (',
            code('layer_1'),
            ', shape 2·hidden_size × attention_size) mixes the encoder and decoder entries of each row; ',
            tex('\\tanh'),
            ' squashes the results into (−1, 1). The top half of ',
            tex('W_1'),
            ' projects ',
            tex('h_i'),
            ', the bottom half projects ',
            tex('s'),
            ', and the two projections are added — hence “additive” attention. The non-linearity after the sum lets the score depend on the pair in ways a plain dot product cannot.',
          ),
        ],
        formula: [
          `${symbol('activations', 'a_i')} = \\tanh\\!\\big(${W1}^\\top ${symbol('inputs', 'x_i')}\\big) \\in \\mathbb{R}^{\\mathrm{attention}}`,
          `${symbol('activations', 'A')} = \\tanh(${symbol('inputs', 'X')} ${W1}) \\in \\mathbb{R}^{n \\times \\mathrm{attention}}`,
        ],
        output: folded(activationsOut),
        figures: [captioned(layer1Map, 'layer_1 (W1)'), captioned(activationsMap, 'activations = tanh(inputs · W1)')],
        after: [
          'The first heatmap is W1 itself: one row per entry of x_i (the top half multiplies h_i, the bottom half s), one column per attention unit. The second shows the activations, one row per encoder step.',
        ],
      }),
      step({
        title: '5. The second layer: alignment scores',
        intro: [
          el(
            'p',
            {},
            'A second layer ',
            tex('w_2'),
            ' (',
            code('layer_2'),
            ', attention_size × 1) turns each row of activations into a single number, the alignment score ',
            tex('e_i'),
            ': how well source word ',
            tex('i'),
            ' fits what the decoder needs next. No tanh here: the scores go straight to softmax.',
          ),
        ],
        formula: `${symbol('scores', 'e_i')} = ${w2}^\\top ${symbol('activations', 'a_i')} = ${w2}^\\top \\tanh\\!\\big(${W1}^\\top [${hi}; ${sDec}]\\big), \\qquad ${symbol('scores', 'e')} = ${symbol('activations', 'A')}\\, ${w2} \\in \\mathbb{R}^{n \\times 1}`,
        output: scoresOut,
        figures: [captioned(layer2Map, 'layer_2 (w2)'), captioned(scoresMap, 'scores e')],
      }),
      step({
        title: '6. Softmax: scores become weights',
        intro: [
          'Softmax makes the scores positive and scales them to add up to one, so they can serve as proportions of a mix. Larger scores get exponentially more weight.',
        ],
        formula: `${alpha} = \\frac{\\exp(${symbol('scores', 'e_i')})}{\\sum_{j=1}^{n} \\exp(${symbol('scores', 'e_j')})}`,
        output: weightsOut,
        figures: [captioned(weightsMap, 'weights α')],
        after: [argmaxLine],
      }),
      step({
        title: '7. Weighting the encoder states',
        intro: [
          'Each encoder state is multiplied by its weight. Rows with small weights fade; the rows the decoder cares about keep most of their size.',
        ],
        formula: `${symbol('weighted', '\\alpha_i\\, h_i')} \\quad \\text{for } i = 1, \\dots, n`,
        output: folded(weightedOut),
        figures: [captioned(weightedMap, 'α_i · h_i on row i')],
      }),
      step({
        title: '8. The context vector',
        intro: [
          'Summing the weighted rows gives the context vector, a single hidden_size vector that the decoder reads together with its own state to predict the next word. At the next output step the decoder state changes, so the weights, and the context, change too.',
        ],
        formula: `${symbol('context', 'c')} = \\sum_{i=1}^{n} ${alpha}\\, ${hi}`,
        output: contextOut,
        figures: [captioned(contextMap, 'context vector c')],
        after: [
          el('h3', { className: 'sub-title' }, 'The whole step at a glance'),
          el(
            'p',
            {},
            'The decoder state is paired with each encoder state, the small network scores each pair, softmax turns the scores into weights, and each encoder state flows into the context through a line as wide as its weight.',
          ),
          diagram.element,
        ],
      }),
      step({
        title: '9. Additive versus dot-product scoring',
        intro: [
          el(
            'p',
            {},
            'The “Attention Basics” chapter scored with a plain dot product, ',
            tex('e_i = s^\\top h_i'),
            '. The additive score used here differs in three ways:',
          ),
          el(
            'ul',
            {},
            el(
              'li',
              {},
              'it has parameters (',
              tex('W_1'),
              ', ',
              tex('w_2'),
              ') that training adapts, where the dot product is fixed;',
            ),
            el(
              'li',
              {},
              'the encoder and decoder states need not have the same length, since ',
              tex('W_1'),
              ' maps their concatenation to the attention size;',
            ),
            el(
              'li',
              {},
              'the tanh makes the score a non-linear function of the pair, so “similar” can mean more than “pointing the same way”.',
            ),
          ),
          el(
            'p',
            {},
            'The price is speed: every pair goes through a small network, whereas dot products for all pairs are a single matrix product. ',
            'Transformers therefore use dot products, divided by ',
            tex('\\sqrt{d_k}'),
            ' so that long vectors do not push softmax into saturation (Vaswani et al., 2017, who also note that additive attention does better than unscaled dot products for large ',
            tex('d_k'),
            ').',
          ),
        ],
        formula:
          'e_i^{\\text{additive}} = w_2^\\top \\tanh\\!\\big(W_1^\\top [h_i; s]\\big) \\qquad\\text{vs.}\\qquad e_i^{\\text{dot}} = s^\\top h_i',
        output: compareOut,
        figures: [captioned(compareMap, 'weights from the two scoring functions')],
        after: [
          'With untrained random weights the two rankings have no reason to agree: the additive network has not learned what “relevant” means yet.',
        ],
      }),
      error,
    );
    linkFormulas(root, figures);
    update();
  },
};
