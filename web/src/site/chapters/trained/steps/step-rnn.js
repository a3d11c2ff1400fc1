// Step 7: side by side with the NMT chapter's RNN. The RNN's one attention map
// (explained as the softmax of its scores, which are drawn too so the sources
// are outlined), the Transformer's encoder–decoder heads of the chosen layer,
// and the measured training speeds with a sentence read from their numbers.
import { asInput, step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { Heatmap, captioned } from '../../../figures/heatmap.js';
import { prediction } from '../../../predict.js';
import { chars } from '../../../lesson-kit/seq2seq-model.js';
import { headTensor, labelsFor, speedModelName, speedSentence, traceRnn } from '../model.js';
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
      `Measured on ${speed.date} (${speed.cpu}, Node ${speed.node}, one thread; CPU time, evaluation not counted): default options, seed 0, exact match on all ${speed.heldOut} held-out examples of the task.`,
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

export function rnnStep({ story, figures, trace, speed }) {
  const rnnMap = weightsMap({
    label: 'the RNN’s attention: output characters (rows) over input characters (columns)',
    cellWidth: 22,
    cellHeight: 20,
    explain: story('rnn.weights'),
  });
  // The scores the RNN computed (decoder state · encoder output, as the model sent them): the weights' sources.
  const scoresMap = asInput(
    new Heatmap({
      palette: 'orange',
      label: 'the RNN’s scores e: output characters (rows) over input characters (columns)',
      cellWidth: 22,
      cellHeight: 20,
      colLabelsOnTop: true,
      annotate: false,
    }),
  );
  figures['rnn.scores'] = scoresMap;
  const rnnFigure = captioned(rnnMap, 'RNN with attention (the NMT chapter’s shipped model): its one attention map.');
  const scoresFigure = captioned(
    scoresMap,
    'The RNN’s scores, as its model computed them: each row’s softmax is the row of the map beside it.',
  );
  const output = el('p', { className: 'trained-rnn-output' });
  const crossHeads = el('div', { className: 'figures heads trained-cross-heads' });
  const crossMaps = [];
  const stale = staleNote(rnnFigure, scoresFigure, crossHeads);
  const predict = sameOutput();
  const element = step({
    title: '7. Side by side with the RNN',
    intro: [
      'The NMT chapter’s RNN with attention has one attention map: one query per output character (the decoder state). The Transformer has layers × heads of them. Below, the same input through both models: the RNN’s scores and map, then the Transformer’s encoder–decoder heads of the chosen layer.',
    ],
    output: el('div', {}, output, stale.element),
    figures: [scoresFigure, rnnFigure],
    after: [crossHeads, el('p', { className: 'trained-speed-sentence' }, speedSentence(speed)), speedTable(speed)],
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
      try {
        const r = rnn.translate(input);
        rnnOutput = r.output;
        output.textContent = `RNN: “${input}” → “${r.output}”; Transformer: “${translation.output}”.`;
        traceRnn(trace, r, chars(r.output), chars(input));
        if (r.attention.rows > 0) {
          const labels = { rowLabels: chars(r.output), colLabels: chars(input) };
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
