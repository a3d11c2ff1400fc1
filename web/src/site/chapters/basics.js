// Chapter "Attention Basics": dot-product scoring, softmax and the context
// vector, following Udacity's Attention Basics notebook step by step.
import { code, el } from '../dom.js';
import { ColumnsEditor, VectorEditor } from '../editors.js';
import {
  asInput,
  credit,
  errorLine,
  experiment,
  guarded,
  indexLabels,
  numberedLabels,
  outputBlock,
  step,
} from '../chapter-kit.js';
import { BarChart } from '../figures/bar-chart.js';
import { FlowDiagram } from '../figures/flow-diagram.js';
import { Heatmap } from '../figures/heatmap.js';
import { storyForFigures, Trace } from '../explain/trace.js';
import { linkFormulas } from '../formula-links.js';
import { addPrerendered, symbol, tex } from '../math.js';
import { formatCell, formatFromLog, formatNumpy, formatScalar } from '../numpy-format.js';
import { urlStore } from '../url-state.js';
import {
  basicsAttention,
  DEFAULTS,
  MAX_STEPS,
  SCHEMA,
  softmaxSentence,
  temperatureAt,
  temperedWeights,
  traceBasics,
} from './basics-model.js';
import { basicsQuestions } from './basics-predict.js';
import formulas from '../formulas/basics.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

const column = (v) => ({ rows: v.length, cols: 1, data: Float64Array.from(v) });
const row = (v) => ({ rows: 1, cols: v.length, data: Float64Array.from(v) });
// Formula symbols, coloured like (and linked to) their figures.
const h = symbol('decoder', 'h');
const hs = symbol('annotation', '\\bar h_s');
const H = symbol('annotations', 'H');
const e = symbol('scores', 'e');
const es = symbol('scores', 'e_s');
const alpha = symbol('weights', '\\alpha_s');

/** The three score functions (Luong et al., 2015, section 3.1) and the chapters that compute each. */
function scoringTable() {
  const link = (id, text) => el('a', { href: `#chapter=${id}` }, text);
  const row = (name, formula, ...uses) =>
    el('tr', {}, el('th', { scope: 'row' }, name), el('td', {}, tex(formula)), el('td', {}, ...uses));
  return el(
    'table',
    { className: 'scoring-table' },
    el('caption', {}, 'Score functions'),
    el(
      'tr',
      {},
      el('th', { scope: 'col' }, 'name'),
      el('th', { scope: 'col' }, 'score(h, h̄_s)'),
      el('th', { scope: 'col' }, 'computed in'),
    ),
    row(
      'dot',
      'h^\\top \\bar h_s',
      'this chapter; divided by ',
      tex('\\sqrt{d_k}'),
      ' in ',
      link('qkv', 'Q/K/V attention'),
      ' and ',
      link('transformer', 'the Transformer chapter'),
    ),
    row('general', 'h^\\top W_a \\bar h_s', link('nmt', 'the translator'), ' (its default, “luong-general”)'),
    row(
      'concat',
      'v_a^\\top \\tanh\\big(W_a [h; \\bar h_s]\\big)',
      link('bahdanau', 'Bahdanau additive attention'),
      '; an option of ',
      link('nmt', 'the translator'),
    ),
  );
}

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
    const questions = basicsQuestions(); // predict, then reveal: one per computing step
    const state = store.readState(SCHEMA);
    const save = () => store.writeState(SCHEMA, state);
    /** The latest results, which the provenance readouts explain. */
    let result = null;
    const trace = new Trace(); // the computation, from which every figure explains its cells
    /** Heatmaps by the names the model's explanations use (filled below). */
    const figures = {};
    const story = storyForFigures(trace, figures);

    // ---- Step 1: the decoder hidden state
    const decoderMap = asInput(
      new Heatmap({ palette: 'purple', label: 'decoder hidden state h', rowLabels: indexLabels(3) }),
    );
    const decoderOut = outputBlock('decoder hidden state as NumPy prints it');
    const decoderEditor = new VectorEditor({
      values: state.decoder,
      label: 'decoder hidden state h',
      scrub: { step: 1 },
      onChange: (v) => {
        state.decoder = v;
        update();
      },
    });

    // ---- Step 2: one annotation
    const annotationMap = asInput(new Heatmap({ palette: 'orange', label: 'annotation h̄', rowLabels: indexLabels(3) }));
    const annotationOut = outputBlock('annotation as NumPy prints it');
    const annotationEditor = new VectorEditor({
      values: state.annotation,
      label: 'annotation h̄',
      scrub: { step: 1 },
      onChange: (v) => {
        state.annotation = v;
        update();
      },
    });

    // ---- Step 3: one score
    const singleOut = outputBlock('score of the single annotation');
    const singleSum = el('p', { className: 'worked' });

    // ---- Step 4: the annotations matrix
    const annotationsMap = asInput(
      new Heatmap({ palette: 'orange', label: 'annotations matrix H, one column per encoder step' }),
    );
    const annotationsOut = outputBlock('annotations matrix as NumPy prints it');
    const annotationsEditor = new ColumnsEditor({
      columns: state.annotations,
      name: (j) => `encoder step ${j + 1}`,
      maxColumns: MAX_STEPS,
      scrub: { step: 1 },
      newColumn: (cols) => cols[cols.length - 1].map((x) => Math.round(x * 0.5 + 1)),
      onChange: (cols) => {
        state.annotations = cols;
        update();
      },
    });

    // ---- Step 5: all scores
    const scoresMap = new Heatmap({
      palette: 'orange',
      label: 'scores e, one per encoder step',
      explain: story('scores'),
    });
    const scoresOut = outputBlock('scores as NumPy prints them');

    // ---- Step 6: softmax
    const weightsMap = new Heatmap({
      palette: 'orange',
      label: 'attention weights α',
      weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
      explain: story('weights'),
    });
    const softmaxText = el('p', { className: 'live-sentence' });
    const weightsOut = outputBlock('softmax weights as NumPy prints them (float64)');
    const naiveOut = outputBlock('the naive formula in float64');
    const logOut = outputBlock('log-softmax as NumPy prints it');
    const tinyList = el('ul', { className: 'tiny-weights' });

    // ---- Step 7: weighted annotations
    const appliedMap = new Heatmap({
      palette: 'orange',
      label: 'weighted annotations, one column per encoder step',
      explain: story('applied'),
    });
    const appliedOut = outputBlock('weighted annotations as NumPy prints them');

    // ---- Step 8: context vector
    const contextMap = new Heatmap({
      palette: 'blue',
      label: 'context vector c',
      rowLabels: indexLabels(3),
      explain: story('context'),
    });
    const diagram = new FlowDiagram({ label: 'the attention step: encoder states, scores, weights, context' });
    Object.assign(figures, {
      decoder: decoderMap,
      annotations: annotationsMap,
      scores: scoresMap,
      weights: weightsMap,
      applied: appliedMap,
    });
    const contextOut = outputBlock('context vector as NumPy prints it');

    // ---- Step 6 aside: temperature
    let temperature = 1;
    const temperatureBars = new BarChart({ label: 'weights at temperature T', names: (j) => `α${j + 1}` });
    const temperatureValue = el('output', { className: 'control-label' }, 'T = 1');
    const temperatureSlider = el('input', {
      type: 'range',
      min: '-2',
      max: '2',
      step: '0.01',
      value: '0',
      attrs: { 'aria-label': 'temperature T (logarithmic, 0.01 to 100)' },
      on: {
        input: () => {
          temperature = temperatureAt(Number(temperatureSlider.value));
          drawTemperature();
        },
      },
    });
    function drawTemperature() {
      if (!result) return;
      temperatureValue.textContent = `T = ${temperature}`;
      temperatureBars.update(temperedWeights(api, result.scores, temperature));
    }

    // ---- Experiments: each sets the inputs up and says what to look for.
    const setInputs = (next) => {
      Object.assign(state, next);
      decoderEditor.setValues(state.decoder);
      annotationEditor.setValues(state.annotation);
      annotationsEditor.setColumns(state.annotations);
      update();
    };
    const tryPointAtStep2 = experiment({
      label: 'h = [1, 0, 0]',
      explain:
        'Each score becomes the first entry of its annotation (3, 59, 1, 4), so encoder step 2 wins instead of step 4.',
      apply: () => setInputs({ decoder: [1, 0, 0] }),
    });
    const tryEqualScores = experiment({
      label: 'h = [0, 0, 0]',
      explain: 'Every score is 0, so softmax has nothing to prefer: every weight is 1/n.',
      apply: () => setInputs({ decoder: [0, 0, 0] }),
    });
    const tryDuplicate = experiment({
      label: 'duplicate the winning step',
      explain: 'Two steps with the same, largest score share its weight evenly.',
      apply: () => {
        const scores = state.annotations.map((a) => a.reduce((sum, x, k) => sum + x * state.decoder[k], 0));
        const best = scores.indexOf(Math.max(...scores));
        if (state.annotations.length < MAX_STEPS)
          setInputs({ annotations: [...state.annotations, [...state.annotations[best]]] });
      },
    });
    const tryNotebook = experiment({
      label: 'the notebook’s numbers',
      explain: 'Back to h = [5, 1, 20] and the four annotations of the notebook.',
      apply: () => setInputs(structuredClone(DEFAULTS)),
    });

    const error = errorLine();

    // A failing step shows its error where it happened; the steps after it are greyed out
    // (they still show the last numbers that could be computed), with a way to the explanation.
    const overflowHeading = el('h3', { className: 'sub-title' }, 'Why the formula as written fails');
    const stepOf = { dot: 2, dotScores: 4, softmax: 5, scaleRows: 6, weightedSum: 7 };
    const stepError = el(
      'div',
      { className: 'error step-error', attrs: { role: 'alert' }, hidden: true },
      el('p', { className: 'step-error-text' }),
      el(
        'button',
        {
          type: 'button',
          className: 'small',
          on: { click: () => overflowHeading.scrollIntoView({ behavior: 'smooth', block: 'start' }) },
        },
        'why numbers overflow, and how softmax avoids it',
      ),
    );
    function showStepError(failure) {
      const sections = [...root.querySelectorAll('section.step')];
      sections.forEach((section) => section.classList.remove('stale'));
      stepError.hidden = !failure;
      if (!failure) return true;
      const index = stepOf[String(failure.message).split(':')[0]];
      if (index === undefined || !sections[index]) return false;
      stepError.querySelector('.step-error-text').textContent = failure.message;
      sections[index].querySelector('h2').after(stepError);
      sections.slice(index + 1).forEach((section) => section.classList.add('stale'));
      return true;
    }

    function update() {
      let failure = null;
      try {
        compute();
      } catch (e) {
        failure = e;
      }
      // A failure the chapter can place in a step is shown there; anything else at the bottom.
      const placed = showStepError(failure);
      guarded(error, () => {
        if (!placed) throw failure;
      });
    }

    function compute() {
      const { decoder, annotation, annotations } = state;
      const n = annotations.length;
      decoderMap.update(column(decoder));
      decoderOut.textContent = formatNumpy(decoder, [3]);
      annotationMap.update(column(annotation));
      annotationOut.textContent = formatNumpy(annotation, [3]);

      const r = basicsAttention(api, state);
      result = r;
      traceBasics(trace, state, r);
      // np.dot of the notebook's integer lists is an int64: 927, not 927.0.
      const integers = [...decoder, ...annotation].every(Number.isInteger);
      singleOut.textContent = formatScalar(r.single, { integer: integers });
      singleSum.textContent = `${decoder.map((h, i) => `${formatCell(h)}·${formatCell(annotation[i])}`).join(' + ')} = ${formatCell(r.single)}`;

      annotationsMap.update(r.H, { colLabels: numberedLabels('h̄', n), rowLabels: indexLabels(3) });
      annotationsOut.textContent = formatNumpy(r.H.data, [3, n]);
      scoresMap.update(row(r.scores), { colLabels: numberedLabels('h̄', n) });
      scoresOut.textContent = formatNumpy(r.scores, [n]);

      weightsMap.update(row(r.weights), { colLabels: numberedLabels('h̄', n) });
      weightsOut.textContent = formatNumpy(r.weights, [n]);
      softmaxText.textContent = softmaxSentence(r);
      naiveOut.textContent = formatNumpy(r.naive, [n]);
      logOut.textContent = formatNumpy(r.logWeights, [n]);
      tinyList.replaceChildren(
        ...Array.from(r.weights, (w, j) =>
          el('li', {}, `α${j + 1}: float64 gives ${formatCell(w)}; from log space ${formatFromLog(r.logWeights[j])}`),
        ),
      );

      appliedMap.update(r.applied, { colLabels: numberedLabels('h̄', n), rowLabels: indexLabels(3) });
      appliedOut.textContent = formatNumpy(r.applied.data, [3, n]);
      contextMap.update(column(r.context));
      contextOut.textContent = formatNumpy(r.context, [3]);
      for (const question of Object.values(questions)) question.update(r);
      drawTemperature();
      diagram.update({
        states: annotations,
        query: decoder,
        scores: r.scores,
        weights: r.weights,
        context: r.context,
      });
      save();
    }

    root.append(
      el('h1', { className: 'chapter-title' }, 'Attention Basics'),
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
        after: [
          'Type a number, drag the handle beside it up or down, or use the arrow keys: everything below follows.',
          tryPointAtStep2,
        ],
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
        formula: `\\operatorname{score}(${h}, ${hs}) = ${h}^\\top ${hs} = \\sum_{k=1}^{d} ${symbol('decoder', 'h_k')}\\, ${symbol('annotation', '\\bar h_{s,k}')}`,
        predict: questions.singleScoreSign,
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
        after: [tryDuplicate],
      }),
      step({
        title: '5. Scoring all annotations at once',
        intro: [
          'One vector–matrix product gives every score in one go: entry s is the dot product of h with column s.',
        ],
        formula: `${e} = ${h}^\\top ${H} = \\big[\\, ${h}^\\top ${symbol('annotations', '\\bar h_1')},\\; \\dots,\\; ${h}^\\top ${symbol('annotations', '\\bar h_n')} \\,\\big]`,
        predict: questions.highestScore,
        output: scoresOut,
        figures: [scoresMap.element],
        after: [
          'Which encoder step will get the most attention? The scores alone already say so; softmax decides by how much.',
          tryEqualScores,
          el('h3', { className: 'sub-title' }, 'Other ways to score'),
          el(
            'p',
            {},
            'The dot product is one of three score functions Luong, Pham and Manning (2015) compared; each is a chapter here:',
          ),
          scoringTable(),
        ],
      }),
      step({
        title: '6. Softmax: from scores to weights',
        intro: [
          'Softmax turns scores into positive weights that add up to one. Differences between scores matter, not their size: adding the same number to every score changes nothing.',
        ],
        formula: `${alpha} = \\frac{\\exp(${es})}{\\sum_{j} \\exp(${symbol('scores', 'e_j')})} = \\frac{\\exp(${es} - m)}{\\sum_{j} \\exp(${symbol('scores', 'e_j')} - m)}, \\quad m = \\max_j ${symbol('scores', 'e_j')}`,
        predict: questions.winnerShare,
        output: weightsOut,
        figures: [weightsMap.element],
        after: [
          softmaxText,
          el('h3', { className: 'sub-title' }, 'Temperature'),
          el(
            'p',
            {},
            'Dividing every score by a temperature ',
            tex('T'),
            ' before softmax, ',
            tex('\\alpha = \\operatorname{softmax}(e / T)'),
            ', controls how decisive the weights are: ',
            tex('T = 1'),
            ' gives the weights above, a small ',
            tex('T'),
            ' sends all the weight to the largest score, a large one spreads it evenly.',
          ),
          el('div', { className: 'temperature' }, temperatureSlider, temperatureValue),
          temperatureBars.element,
          overflowHeading,
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
          el('h3', { className: 'sub-title' }, 'Weights too small for a float64'),
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
        formula: `${alpha}\\, ${symbol('annotations', '\\bar h_s')} \\quad \\text{for } s = 1, \\dots, n`,
        predict: questions.largestWeighted,
        output: appliedOut,
        figures: [appliedMap.element],
      }),
      step({
        title: '8. The context vector',
        intro: [
          'Adding up the weighted columns gives the context vector: a blend of the encoder states, mostly the ones the decoder found relevant. The decoder combines it with its own state to predict the next word.',
        ],
        formula: `${symbol('context', 'c')} = \\sum_{s=1}^{n} ${alpha}\\, ${symbol('annotations', '\\bar h_s')} = ${H} ${symbol('weights', '\\alpha')}`,
        predict: questions.nearestState,
        output: contextOut,
        figures: [contextMap.element],
        after: [
          el('h3', { className: 'sub-title' }, 'The whole step at a glance'),
          el(
            'p',
            {},
            'Every number above, in one picture: the decoder state is scored against each encoder state, softmax turns the scores into weights, and each encoder state flows into the context through a line as wide as its weight.',
          ),
          diagram.element,
          tryNotebook,
        ],
      }),
      error,
    );
    linkFormulas(root, { ...figures, annotation: annotationMap, context: contextMap });
    update();
  },
};
