// Decoding playback: the decoder writes one character per step. Play, Pause
// and Step walk through the translation; for the step shown, the chosen layer
// and head's three uses are drawn as they are at that moment: the encoder's
// self-attention (computed once, before the first character), the masked
// decoder self-attention and the encoder–decoder attention up to that step's
// row. Rows not yet computed are hatched and show no value (nor do their
// queries, or the keys not yet written, nor the rows those read): the reader
// never sees the future. Every cell shown explains itself through the trace, as
// the maps of step 3 do, down to the rows, W and b each q and k was projected from.
import { experiment, step } from '../../../chapter-kit.js';
import { storyForFigures } from '../../../explain/trace.js';
import { el } from '../../../dom.js';
import { captioned } from '../../../figures/heatmap.js';
import { prediction } from '../../../predict.js';
import { shown } from '../../../explain/format.js';
import { chars } from '../../../lesson-kit/seq2seq-model.js';
import { END, headName, headTensor, labelsFor, projectionTensor, USES } from '../model.js';
import { projectionMap, projectionSources, weightsMap } from './maps.js';
import { staleNote } from './stale.js';

const THIRDS = ['the first third of the input', 'the middle third', 'the last third'];
const rowOf = (m, r) => Array.from(m.data.slice(r * m.cols, (r + 1) * m.cols));
const argmax = (xs) => xs.indexOf(Math.max(...xs));
const thirdOf = (j, n) => Math.min(2, Math.floor((3 * j) / n));

// Where the first output character is read from, by the chosen head's cross-attention row 0.
const firstLook = () =>
  prediction({
    question: 'While writing the first output character, where will the chosen encoder–decoder head look most?',
    choices: THIRDS,
    answer: ({ cross }) => (cross ? thirdOf(argmax(rowOf(cross, 0)), cross.cols) : null),
    explain: ({ cross, input }) => {
      if (!cross) return 'there is no translation to play.';
      const row = rowOf(cross, 0);
      const j = argmax(row);
      return `its row 1 gives the most, ${shown(row[j])}, to input character ${j + 1} “${chars(input)[j]}” of ${cross.cols}.`;
    },
  });

/** What playback step t shows, in words (the caption and the test read it). */
export function playbackCaption(translation, input, { layer, head }, t) {
  const written = [...chars(translation.output), END];
  const cross = rowOf(translation.cross[layer][head], t);
  const self = rowOf(translation.decoderSelf[layer][head], t);
  const j = argmax(cross);
  const k = argmax(self.slice(0, t + 1));
  const keys = labelsFor('decoderSelf', input, translation.output).colLabels;
  return `Step ${t + 1} of ${written.length} writes “${written[t]}”. In ${headName({ layer, head })}, encoder–decoder attention looks most at input character ${j + 1} “${chars(input)[j]}” (${shown(cross[j])}); masked decoder self-attention most at “${keys[k]}” (${shown(self[k])}), the ${t + 1} key${t ? 's' : ''} it can see.`;
}

/** At playback step t (-1: all at once), whether row r of a decoder map is not computed yet. */
const notYet = (t, r) => t >= 0 && r > t;

export function playbackStep({ trace, onStep, onTry }) {
  // Its own figures of each use's queries and keys (chosen layer): a cell's readout outlines its sources here.
  const figures = {};
  const story = storyForFigures(trace, figures);
  // Rows tall enough for a label each (a date's 16 characters once sat in ~100 px).
  const size = { cellWidth: 4, cellHeight: 14, maskedText: 'not yet computed' };
  const notComputed = (r) => ({
    text: `Not computed yet: row ${r + 1} is read at step ${r + 1}, and the playback is at step ${view.t + 1}.`,
    sources: [],
  });
  // A q or k not computed yet (a decoder row after the current step) tells so; any other, its x W + b.
  const projection = (what, u, which) =>
    projectionMap(what, {
      colorbar: false,
      ...size,
      explain: (r, c) =>
        u.id !== 'encoderSelf' && (which === 'Q' || u.id === 'decoderSelf') && notYet(view.t, r)
          ? notComputed(r)
          : story(projectionTensor(u.id, view.selected.layer, which))(r, c),
    });
  const projections = USES.map((u) => ({
    Q: projection(`playback: queries Q of ${u.name}`, u, 'Q'),
    K: projection(`playback: keys K of ${u.name}`, u, 'K'),
    sources: projectionSources(`playback, ${u.short}: `, { ...size, weightCell: 3 }),
  }));
  const maps = USES.map((u) =>
    weightsMap({
      label: `playback: ${u.name} of the chosen layer and head`,
      cellWidth: 16,
      cellHeight: 16,
      colorbar: false,
      maskedText: 'not yet computed', // rows the playback has not reached show no value
      explain: (r, c) =>
        u.id !== 'encoderSelf' && notYet(view.t, r)
          ? {
              text: `Not computed yet: row ${r + 1} is written at step ${r + 1}, and the playback is at step ${view.t + 1}.`,
              sources: [],
            }
          : story(headTensor(u.id, view.selected.layer, view.selected.head))(r, c),
    }),
  );
  const columns = maps.map((m, i) =>
    el(
      'div',
      { className: 'trained-playback-use' },
      captioned(m, i === 0 ? USES[i].name : `${USES[i].name}: rows after the current step are not computed yet`),
      projections[i].sources.group('Q', projections[i].Q),
      projections[i].sources.group('K', projections[i].K),
    ),
  );
  const caption = el('p', { className: 'nmt-playback trained-playback', attrs: { 'aria-live': 'polite' } });
  const playButton = el('button', { type: 'button', disabled: true }, 'Play');
  const stepButton = el('button', { type: 'button', disabled: true }, 'Step');
  const stale = staleNote(...columns);
  const predict = firstLook();
  const view = { translation: null, input: '', selected: { layer: 0, head: 0 }, t: -1 };
  let timer = null;
  let autoplay = null; // the input the experiment plays once its translation is shown

  function draw() {
    const { translation, input, selected, t } = view;
    if (!translation) return;
    const rows = translation.cross[0][0].rows;
    for (const name of Object.keys(figures)) delete figures[name]; // the chosen layer's only
    USES.forEach((u, i) => {
      const { rowLabels, colLabels } = labelsFor(u.id, input, translation.output);
      const encoder = u.id === 'encoderSelf';
      const future = (r, c) => notYet(t, r) || (u.id === 'decoderSelf' && c > r);
      const hidden = encoder ? undefined : future; // the encoder ran in full before the first step
      maps[i].update(translation[u.id][selected.layer][selected.head], { rowLabels, colLabels, isMasked: hidden });
      const { Q, K, sources } = projections[i];
      // The decoder's queries, and its own keys, exist only for the rows written so far.
      const rowsNotYet = (r) => notYet(t, r);
      const later = { Q: encoder ? undefined : rowsNotYet, K: u.id === 'decoderSelf' ? rowsNotYet : undefined };
      sources.show(translation, u.id, selected.layer, { Q: rowLabels, K: colLabels }, figures, later);
      for (const [which, figure, labels] of [
        ['Q', Q, rowLabels],
        ['K', K, colLabels],
      ]) {
        figures[projectionTensor(u.id, selected.layer, which)] = figure;
        figure.update(translation[which === 'Q' ? 'queries' : 'keys'][u.id][selected.layer], {
          rowLabels: labels,
          isMasked: later[which],
        });
      }
    });
    caption.textContent =
      t < 0
        ? `All ${rows} steps at once. Press Play or Step to write the translation one character at a time.`
        : playbackCaption(translation, input, selected, t);
    onStep(t, t < 0 ? null : [...chars(translation.output), END][t]);
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    playButton.textContent = 'Play';
  }
  function advance() {
    if (!view.translation) return stop();
    const rows = view.translation.cross[0][0].rows;
    if (view.t + 1 >= rows) {
      stop(); // played to the end: stay on the last step
      return;
    }
    view.t += 1;
    draw();
  }
  playButton.addEventListener('click', () => {
    if (timer) return stop();
    if (view.translation && view.t + 1 >= view.translation.cross[0][0].rows) view.t = -1;
    playButton.textContent = 'Pause';
    advance();
    timer = setInterval(advance, 900);
  });
  stepButton.addEventListener('click', () => {
    stop();
    if (view.translation && view.t + 1 >= view.translation.cross[0][0].rows) view.t = -1;
    advance();
  });

  const element = step({
    title: '5. Decoding, one character at a time',
    intro: [
      'The decoder writes one character per step, reading what it wrote so far. Step through a translation: the encoder’s self-attention is computed once, before the first step; at each step the masked decoder self-attention and the encoder–decoder attention add one row (the last one not hatched), for every layer and head. Hover or focus a cell for its q·k, its scaling and its softmax.',
    ],
    controls: [
      playButton,
      stepButton,
      experiment({
        label: 'a short date, “1 May 2000”',
        explain: 'Translated, then played from its first step: watch which input characters each step reads.',
        apply: () => {
          autoplay = '1 May 2000'; // played once its translation is shown
          onTry(autoplay);
        },
      }),
    ],
    output: el('div', {}, caption, stale.element),
    figures: columns,
    predict,
  });
  return {
    element,
    stop,
    /** No translation to play: grey the maps and say why. */
    clear(reason) {
      stop();
      view.translation = null;
      playButton.disabled = true;
      stepButton.disabled = true;
      caption.textContent = '';
      stale.set(reason);
      onStep(-1, null);
    },
    show({ translation, input, selected }) {
      const same = view.translation?.output === translation.output && view.input === input;
      Object.assign(view, { translation, input, selected, t: same ? view.t : -1 });
      if (!same) stop();
      playButton.disabled = false;
      stepButton.disabled = false;
      stale.set(null);
      draw();
      predict.update({ cross: translation.cross[selected.layer][selected.head], input });
      if (autoplay !== null && autoplay === input) {
        autoplay = null;
        stop();
        view.t = -1;
        playButton.click();
      }
    },
  };
}
