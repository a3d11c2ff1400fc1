// Step 7: side by side with the NMT chapter's RNN. The RNN's one attention map
// (the softmax of its scores), its scores (each the decoder state h_t times W_a,
// dotted with an encoder output s_j), the states and outputs they came from
// (each explained by its GRU from the characters' embeddings, drawn as inputs), the Transformer's encoder–decoder
// heads of the chosen layer, and the measured training speeds with a sentence
// read from their numbers.
import { asInput, cellStory, experiment, step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { Heatmap, captioned } from '../../../figures/heatmap.js';
import { prediction } from '../../../predict.js';
import { chars } from '../../../lesson-kit/seq2seq-model.js';
import { checkpointParameters } from '../../../lesson-kit/nmt-engine.js';
import { recurrentWeights, stateStories } from '../../../lesson-kit/gru-states.js';
import {
  headTensor,
  labelsFor,
  START,
  rnnScoreWeights,
  speedModelName,
  speedSentence,
  speedWhy,
  traceRnn,
} from '../model.js';
import { weightsMap } from './maps.js';
import { staleNote } from './stale.js';

function speedTable(speed) {
  const rows = speed.results.map((r) =>
    el(
      'tr',
      {},
      el('td', {}, r.task ?? 'dates'),
      el('td', {}, speedModelName(r)),
      el('td', {}, r.stepsPerSecondCpu.toFixed(1)),
      el('td', {}, r.reached ? r.stepsToTarget.toLocaleString('en') : 'not reached'),
      el('td', {}, r.reached ? `${r.secondsToTargetCpu.toFixed(1)} s` : '—'),
    ),
  );
  const head = ['task', 'model', 'steps per second', 'steps to 99%', 'time to 99%'].map((h) => el('th', {}, h));
  const table = el(
    'table',
    { className: 'trained-speed' },
    el(
      'caption',
      {},
      `Measured by the project’s benchmark (scripts/bench-transformer.mjs; ${speed.cpu}, Node ${speed.node}, one thread; CPU time, evaluation not counted): default options, seed 0, exact match on all ${speed.heldOut} held-out examples of the task. Your machine’s speeds differ; the ratios are what to compare.`,
    ),
    el('thead', {}, el('tr', {}, ...head)),
    el('tbody', {}, ...rows),
  );
  return el('div', { className: 'table-scroll' }, table); // scrolls sideways on a phone
}

const sameOutput = () =>
  prediction({
    question: 'Will the RNN and the Transformer write the same translation of your input?',
    choices: ['the same', 'different'],
    answer: ({ rnn, transformer }) => (rnn === null || transformer === null ? null : rnn === transformer ? 0 : 1),
    explain: ({ rnn, transformer }) => `the RNN writes “${rnn ?? '…'}”, the Transformer “${transformer ?? '…'}”.`,
  });

/**
 * The RNN's weights, read once per model from its checkpoint: W_a of its score (Luong general;
 * null for a score without one) and its embeddings and GRUs (the states' stories).
 */
function modelWeights(rnn) {
  const parameters = checkpointParameters(rnn);
  const { embedding, hidden } = rnn.options;
  const { inputAlphabet, outputAlphabet } = rnn;
  const Wa =
    rnn.options.attention === 'luong-general'
      ? rnnScoreWeights(parameters, { inputAlphabet, outputAlphabet, embedding, hidden })
      : null;
  return { rnn, Wa, gru: recurrentWeights(parameters, { alphabet: inputAlphabet, outputAlphabet, embedding, hidden }) };
}

export function rnnStep({ api, story, figures, trace, speed, onTry }) {
  const rnnMap = weightsMap({
    label: 'the RNN’s attention: output characters (rows) over input characters (columns)',
    cellWidth: 22,
    cellHeight: 20,
    explain: story('rnn.weights'),
  });
  // The scores: each (h_t W_a) · s_j, explained down to the states the model sent (drawn as inputs).
  const scoresMap = new Heatmap({
    palette: 'orange',
    label: 'the RNN’s scores e: output characters (rows) over input characters (columns)',
    cellWidth: 22,
    cellHeight: 20,
    colLabelsOnTop: true,
    annotate: false,
    explain: story('rnn.scores'),
  });
  // The states and encoder outputs, each cell explained by its GRU step (lesson-kit/gru-states.js)
  // from the embeddings drawn beside them; stories are made per translation.
  let stories = null;
  const stateFigures = {};
  const stateStory = (kind) =>
    cellStory(
      stateFigures,
      () => stories !== null,
      (r, c) => stories[kind](r, c),
    );
  const stateMap = (label, explain) =>
    new Heatmap({ palette: 'blue', label, annotate: false, colorbar: false, cellWidth: 3, cellHeight: 14, explain });
  const statesMap = stateMap('the RNN’s decoder states h_t: one row per output character', stateStory('decoder'));
  const encoderMap = stateMap('the RNN’s encoder outputs s_j: one row per input character', stateStory('encoder'));
  const embeddingMap = (label) =>
    asInput(new Heatmap({ palette: 'blue', label, annotate: false, colorbar: false, cellWidth: 8, cellHeight: 14 }));
  const inputsMap = embeddingMap('the RNN’s input embeddings: one row per input character');
  const previousMap = embeddingMap('the RNN’s output embeddings: the character each decoder step reads');
  Object.assign(stateFigures, { encoder: encoderMap, decoder: statesMap, inputs: inputsMap, previous: previousMap });
  // h_t W_a: computed here from the states and the checkpoint's W_a (Luong's general score).
  const queriesMap = new Heatmap({
    palette: 'blue',
    label: 'the RNN’s projected queries h_t W_a: one row per output character',
    annotate: false,
    colorbar: false,
    cellWidth: 3,
    cellHeight: 14,
    explain: story('rnn.queries'),
  });
  Object.assign(figures, {
    'rnn.scores': scoresMap,
    'rnn.states': statesMap,
    'rnn.encoder': encoderMap,
    'rnn.queries': queriesMap,
  });
  let weightsOf = { rnn: null, Wa: null, gru: null };
  const rnnFigure = captioned(rnnMap, 'RNN with attention (the NMT chapter’s shipped model): its one attention map.');
  const scoresFigure = captioned(
    scoresMap,
    'The RNN’s scores, as its model computed them: each row’s softmax is the row of the map beside it.',
  );
  const output = el('p', { className: 'trained-rnn-output' });
  const crossHeads = el('div', { className: 'figures heads trained-cross-heads' });
  const crossMaps = [];
  const statesFigure = captioned(statesMap, 'Decoder states h_t (the queries): each a GRU step of the decoder.');
  const encoderFigure = captioned(
    encoderMap,
    'Encoder outputs s_j (the keys): each the sum of the two GRUs’ states at that character.',
  );
  const inputsFigure = captioned(inputsMap, 'Input embeddings: what the encoder’s GRUs read.');
  const previousFigure = captioned(
    previousMap,
    'Output embeddings: what each decoder step reads (the start symbol, then the character written before).',
  );
  const queriesFigure = captioned(
    queriesMap,
    'Projected queries h_t W_a: each state times the score’s matrix W_a (read from the RNN’s checkpoint).',
  );
  const drawnFigures = [
    inputsFigure,
    encoderFigure,
    previousFigure,
    statesFigure,
    queriesFigure,
    scoresFigure,
    rnnFigure,
  ];
  const stale = staleNote(...drawnFigures, crossHeads);
  const why = el('p', { className: 'trained-speed-why' }, speedWhy(speed));
  const predict = sameOutput();
  const element = step({
    title: '7. Side by side with the RNN',
    intro: [
      'The NMT chapter’s RNN with attention has one attention map: one query per output character (the decoder state). The Transformer has layers × heads of them. Below, the same input through both models: the RNN’s states, scores and map, then the Transformer’s encoder–decoder heads of the chosen layer. Hover or focus a score for its dot product.',
    ],
    controls: [
      experiment({
        label: 'a date in another order, “2001/30/11”',
        explain: 'Both models translate it; compare where each one’s attention reads the day and the month.',
        apply: () => onTry('2001/30/11'),
      }),
    ],
    output: el('div', {}, output, stale.element),
    figures: drawnFigures,
    after: [crossHeads, el('p', { className: 'trained-speed-sentence' }, speedSentence(speed)), why, speedTable(speed)],
    predict,
  });
  let drawn = { translation: null, layer: -1 };

  function drawCross(translation, input, layer) {
    if (drawn.translation === translation && drawn.layer === layer) return;
    drawn = { translation, layer };
    const maps = translation.cross[layer];
    const { rowLabels, colLabels } = labelsFor('cross', input, translation.output);
    while (crossMaps.length < maps.length) {
      const h = crossMaps.length;
      crossMaps.push(
        weightsMap({
          label: `Transformer encoder–decoder attention, head ${h + 1}`,
          cellWidth: 14,
          cellHeight: 14,
          colorbar: false,
          explain: (r, c) => story(headTensor('cross', drawn.layer, h))(r, c),
        }),
      );
    }
    // On the page first, then drawn: a heatmap reads its theme's ink from the page.
    crossHeads.replaceChildren(
      ...maps.map((_, h) => captioned(crossMaps[h], `Transformer, layer ${layer + 1}, head ${h + 1}`)),
    );
    maps.forEach((m, h) => crossMaps[h].update(m, { rowLabels, colLabels }));
  }

  return {
    element,
    clear(reason) {
      drawn = { translation: null, layer: -1 };
      output.textContent = '';
      stale.set(reason);
    },
    /** @param {{translation: object, input: string, layer: number, rnn: object | null}} data */
    show({ translation, input, layer, rnn }) {
      stale.set(null);
      drawCross(translation, input, layer);
      if (!rnn) return;
      let rnnOutput = null;
      stories = null; // until this input's translation and weights make new ones
      try {
        const r = rnn.translate(input);
        rnnOutput = r.output;
        output.textContent = `RNN: “${input}” → “${r.output}”; Transformer: “${translation.output}”.`;
        if (weightsOf.rnn !== rnn) weightsOf = modelWeights(rnn);
        const dot = rnn.options.attention === 'luong-dot';
        const labels = { rowLabels: chars(r.output), colLabels: chars(input) };
        traceRnn(api, trace, r, { Wa: weightsOf.Wa, dot, ...labels });
        const alphabets = { alphabet: rnn.inputAlphabet, outputAlphabet: rnn.outputAlphabet };
        const states = { input, output: r.output, encoderOutputs: r.encoderOutputs, decoderStates: r.decoderStates };
        stories = stateStories(states, weightsOf.gru, alphabets);
        if (r.attention.rows > 0) {
          inputsMap.update(stories.x, { rowLabels: labels.colLabels });
          const read = [START, ...labels.rowLabels.slice(0, -1)];
          previousMap.update(stories.y, { rowLabels: read });
          statesMap.update(r.decoderStates, { rowLabels: labels.rowLabels });
          queriesFigure.hidden = !weightsOf.Wa;
          if (weightsOf.Wa) queriesMap.update(trace.value('rnn.queries'), { rowLabels: labels.rowLabels });
          encoderMap.update(r.encoderOutputs, { rowLabels: labels.colLabels });
          scoresMap.update(r.scores, labels);
          rnnMap.update(r.attention, labels);
        }
      } catch (error) {
        output.textContent = `RNN: ${error.message}`;
      }
      predict.update({ rnn: rnnOutput, transformer: translation.output });
    },
  };
}
