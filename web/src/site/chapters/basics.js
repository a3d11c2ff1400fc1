// Chapter "Attention Basics": dot-product scoring, softmax and the context
// vector, following Udacity's Attention Basics notebook step by step.
import { code, el } from '../dom.js';
import { ColumnsEditor, VectorEditor } from '../editors.js';
import { credit, errorLine, guarded, outputBlock, step } from '../chapter-kit.js';
import { Heatmap } from '../figures/heatmap.js';
import { tex } from '../math.js';
import { formatCell, formatFromLog, formatNumpy } from '../numpy-format.js';
import { urlStore } from '../url-state.js';
import { basicsAttention, MAX_STEPS, SCHEMA } from './basics-model.js';

const column = (v) => ({ rows: v.length, cols: 1, data: Float64Array.from(v) });
const row = (v) => ({ rows: 1, cols: v.length, data: Float64Array.from(v) });
const stepNames = (n) => Array.from({ length: n }, (_, j) => `h̄${j + 1}`);
const unitNames = (d) => Array.from({ length: d }, (_, i) => `${i + 1}`);

export default {
  id: 'basics',
  title: 'Attention Basics',
  summary:
    'Score encoder states against a decoder state, turn scores into weights with softmax, and build the context vector.',

  /**
   * @param {HTMLElement} root
   * @param {{api: import('attention-lab').Attention}} context
   */
  render(root, { api, store = urlStore }) {
    const state = store.readState(SCHEMA);
    const save = () => store.writeState(SCHEMA, state);

    // ---- Step 1: the decoder hidden state
    const decoderMap = new Heatmap({ palette: 'purple', label: 'decoder hidden state h', rowLabels: unitNames(3) });
    const decoderOut = outputBlock('decoder hidden state as NumPy prints it');
    const decoderEditor = new VectorEditor({
      values: state.decoder,
      label: 'decoder hidden state h',
      onChange: (v) => {
        state.decoder = v;
        update();
      },
    });

    // ---- Step 2: one annotation
    const annotationMap = new Heatmap({ palette: 'orange', label: 'annotation h̄', rowLabels: unitNames(3) });
    const annotationOut = outputBlock('annotation as NumPy prints it');
    const annotationEditor = new VectorEditor({
      values: state.annotation,
      label: 'annotation h̄',
      onChange: (v) => {
        state.annotation = v;
        update();
      },
    });

    // ---- Step 3: one score
    const singleOut = outputBlock('score of the single annotation');
    const singleSum = el('p', { className: 'worked' });

    // ---- Step 4: the annotations matrix
    const annotationsMap = new Heatmap({
      palette: 'orange',
      label: 'annotations matrix H, one column per encoder step',
    });
    const annotationsOut = outputBlock('annotations matrix as NumPy prints it');
    const annotationsEditor = new ColumnsEditor({
      columns: state.annotations,
      name: (j) => `encoder step ${j + 1}`,
      maxColumns: MAX_STEPS,
      newColumn: (cols) => cols[cols.length - 1].map((x) => Math.round(x * 0.5 + 1)),
      onChange: (cols) => {
        state.annotations = cols;
        update();
      },
    });

    // ---- Step 5: all scores
    const scoresMap = new Heatmap({ palette: 'orange', label: 'scores e, one per encoder step' });
    const scoresOut = outputBlock('scores as NumPy prints them');

    // ---- Step 6: softmax
    const weightsMap = new Heatmap({ palette: 'orange', label: 'attention weights α', vmin: 0, vmax: 1 });
    const weightsOut = outputBlock('softmax weights as NumPy prints them (float64)');
    const naiveOut = outputBlock('the naive formula in float64');
    const logOut = outputBlock('log-softmax as NumPy prints it');
    const tinyList = el('ul', { className: 'tiny-weights' });

    // ---- Step 7: weighted annotations
    const appliedMap = new Heatmap({ palette: 'orange', label: 'weighted annotations, one column per encoder step' });
    const appliedOut = outputBlock('weighted annotations as NumPy prints them');

    // ---- Step 8: context vector
    const contextMap = new Heatmap({ palette: 'blue', label: 'context vector c', rowLabels: unitNames(3) });
    const contextOut = outputBlock('context vector as NumPy prints it');

    const error = errorLine();

    function update() {
      guarded(error, () => {
        const { decoder, annotation, annotations } = state;
        const n = annotations.length;
        decoderMap.update(column(decoder));
        decoderOut.textContent = formatNumpy(decoder, [3]);
        annotationMap.update(column(annotation));
        annotationOut.textContent = formatNumpy(annotation, [3]);

        const r = basicsAttention(api, state);
        singleOut.textContent = formatNumpy([r.single], []);
        singleSum.textContent = `${decoder.map((h, i) => `${formatCell(h)}·${formatCell(annotation[i])}`).join(' + ')} = ${formatCell(r.single)}`;

        annotationsMap.update(r.H, { colLabels: stepNames(n), rowLabels: unitNames(3) });
        annotationsOut.textContent = formatNumpy(r.H.data, [3, n]);
        scoresMap.update(row(r.scores), { colLabels: stepNames(n) });
        scoresOut.textContent = formatNumpy(r.scores, [n]);

        weightsMap.update(row(r.weights), { colLabels: stepNames(n) });
        weightsOut.textContent = formatNumpy(r.weights, [n]);
        naiveOut.textContent = formatNumpy(r.naive, [n]);
        logOut.textContent = formatNumpy(r.logWeights, [n]);
        tinyList.replaceChildren(
          ...Array.from(r.weights, (w, j) =>
            el('li', {}, `α${j + 1}: float64 gives ${formatCell(w)}; from log space ${formatFromLog(r.logWeights[j])}`),
          ),
        );

        appliedMap.update(r.applied, { colLabels: stepNames(n), rowLabels: unitNames(3) });
        appliedOut.textContent = formatNumpy(r.applied.data, [3, n]);
        contextMap.update(column(r.context));
        contextOut.textContent = formatNumpy(r.context, [3]);
        save();
      });
    }

    root.append(
      el('h2', {}, 'Attention Basics'),
      credit({
        text: 'Reproduces, step by step, the',
        title: 'Attention Basics notebook of Udacity’s deep-learning course',
        url: 'https://github.com/udacity/deep-learning-v2-pytorch/blob/master/attention/Attention_Basics.ipynb',
        note: 'The explanations here are our own; every number is computed live by the WebAssembly core',
      }),
      el(
        'p',
        { className: 'lede' },
        'A decoder producing a translation one word at a time does not have to squeeze the whole source sentence into its own state. ',
        'At each step it can look back at every encoder state (an “annotation”), decide how relevant each one is, and blend them into a context vector. ',
        'This chapter does that with three-number vectors, small enough to follow every multiplication. Edit any number: everything below it is recomputed.',
      ),
      step({
        title: '1. The decoder hidden state',
        intro: [
          el(
            'p',
            {},
            'We stand at the first decoding step. A toy recurrent decoder with three hidden units has state ',
            tex('h'),
            '. Real models use hundreds of units; three keep the arithmetic visible.',
          ),
        ],
        controls: [el('span', { className: 'control-label' }, 'h ='), decoderEditor.element],
        output: decoderOut,
        figures: [decoderMap.element],
      }),
      step({
        title: '2. One annotation',
        intro: [
          el(
            'p',
            {},
            'An annotation ',
            tex('\\bar h_s'),
            ' is the encoder’s hidden state at source position ',
            tex('s'),
            ': what the encoder knew after reading that word. It has as many entries as the decoder state, so the two can be compared.',
          ),
        ],
        controls: [el('span', { className: 'control-label' }, 'h̄ ='), annotationEditor.element],
        output: annotationOut,
        figures: [annotationMap.element],
      }),
      step({
        title: '3. Scoring one annotation',
        intro: [
          'The simplest score is the dot product: multiply matching entries and add them up. Vectors pointing the same way score high.',
        ],
        formula: '\\operatorname{score}(h, \\bar h_s) = h^\\top \\bar h_s = \\sum_{k=1}^{d} h_k\\, \\bar h_{s,k}',
        output: singleOut,
        after: [singleSum],
      }),
      step({
        title: '4. All annotations as one matrix',
        intro: [
          el(
            'p',
            {},
            'Put every encoder step side by side: column ',
            tex('s'),
            ' of ',
            tex('H'),
            ' is annotation ',
            tex('\\bar h_s'),
            '. Add or remove encoder steps, or edit any entry.',
          ),
        ],
        controls: [annotationsEditor.element],
        output: annotationsOut,
        figures: [annotationsMap.element],
      }),
      step({
        title: '5. Scoring all annotations at once',
        intro: [
          'One vector–matrix product gives every score in one go: entry s is the dot product of h with column s.',
        ],
        formula: 'e = h^\\top H = \\big[\\, h^\\top \\bar h_1,\\; \\dots,\\; h^\\top \\bar h_n \\,\\big]',
        output: scoresOut,
        figures: [scoresMap.element],
        after: [
          'Which encoder step will get the most attention? The scores alone already say so; softmax decides by how much.',
        ],
      }),
      step({
        title: '6. Softmax: from scores to weights',
        intro: [
          'Softmax turns scores into positive weights that add up to one. Differences between scores matter, not their size: adding the same number to every score changes nothing.',
        ],
        formula:
          '\\alpha_s = \\frac{\\exp(e_s)}{\\sum_{j} \\exp(e_j)} = \\frac{\\exp(e_s - m)}{\\sum_{j} \\exp(e_j - m)}, \\quad m = \\max_j e_j',
        output: weightsOut,
        figures: [weightsMap.element],
        after: [
          el(
            'p',
            {},
            'Scores 927 and 929 differ by only 2, yet softmax gives them about 0.119 and 0.881: ',
            tex('e^{2} \\approx 7.39'),
            ' times more weight for the larger one. The other two steps are all but erased.',
          ),
          el('h4', {}, 'Why the formula as written fails'),
          el(
            'p',
            {},
            'With the notebook’s scores, ',
            tex('\\exp(927)'),
            ' is about ',
            tex('10^{402}'),
            ', far beyond the largest float64 number (',
            tex('\\approx 1.8\\times10^{308}'),
            ', reached at ',
            tex('e^{709.8}'),
            '). Computed literally, it overflows to infinity, and infinity divided by infinity is NaN:',
          ),
          naiveOut,
          el(
            'p',
            {},
            'The original notebook sidestepped this with 128-bit floats. Subtracting the largest score first (the right-hand form above) ',
            'changes nothing mathematically and keeps every exponent at or below zero, so nothing overflows. That is how ',
            code('softmax'),
            ' computes the weights above.',
          ),
          el('h4', {}, 'Weights too small for a float64'),
          el(
            'p',
            {},
            'With the notebook’s scores the third weight is ',
            tex('e^{148-929}/(1+e^{-2}+\\dots) \\approx e^{-781.13}'),
            ', smaller than the smallest positive float64 (about ',
            tex('4.9\\times10^{-324}'),
            '), so it underflows to exactly 0. Working with logarithms keeps it: ',
            code('logSoftmax'),
            ' returns ',
            tex('\\log \\alpha_s = e_s - m - \\log\\sum_j e^{e_j - m}'),
            ', and from that we can still write the number down.',
          ),
          logOut,
          tinyList,
        ],
      }),
      step({
        title: '7. Weighting the annotations',
        intro: [
          'Multiply each annotation by its weight. Columns with tiny weights fade to zero; the best-scoring step dominates.',
        ],
        formula: '\\alpha_s\\, \\bar h_s \\quad \\text{for } s = 1, \\dots, n',
        output: appliedOut,
        figures: [appliedMap.element],
      }),
      step({
        title: '8. The context vector',
        intro: [
          'Adding up the weighted columns gives the context vector: a blend of the encoder states, mostly the ones the decoder found relevant. The decoder combines it with its own state to predict the next word.',
        ],
        formula: 'c = \\sum_{s=1}^{n} \\alpha_s\\, \\bar h_s = H \\alpha',
        output: contextOut,
        figures: [contextMap.element],
      }),
      error,
    );
    update();
  },
};
