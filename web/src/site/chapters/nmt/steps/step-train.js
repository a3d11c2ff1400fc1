// The NMT chapter's training step: the controls (task, score function, run,
// reset, the shipped checkpoint), the status line and loss curve, and beside
// them the input box, the translation shaded by confidence, and the attention
// plot whose cells explain themselves from the model's scores.
import { cellStory, errorLine, experiment, step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { Heatmap } from '../../../figures/heatmap.js';
import { LineChart } from '../../../figures/line-chart.js';
import {
  alignmentNote,
  characterConfidence,
  chars,
  confidenceWarning,
  DATE_FORMATS,
  explainAttention,
  LOW_CONFIDENCE,
  REVERSAL_MILESTONES,
  SCORES,
  TASKS,
  translationCheck,
} from '../model.js';

/** The output characters, each as opaque as the model was sure of it: [spans]. */
function outputSpans(r) {
  const confidence = characterConfidence(r);
  return confidence.map(({ char, p, runnerUp }) => {
    const span = el(
      'span',
      {
        className: p < LOW_CONFIDENCE ? 'nmt-char is-unsure' : 'nmt-char',
        title: `p = ${p.toFixed(3)} (runner-up “${runnerUp.char}”, ${runnerUp.p.toFixed(3)})`,
        dataset: { p: p.toFixed(4) },
      },
      char,
    );
    span.style.setProperty('--p', String(p));
    return span;
  });
}

/** What the dates or reversal model was trained on, for the details box. */
function formatsList(formats, task) {
  if (task !== 'dates') {
    formats.replaceChildren(
      el('summary', {}, 'What the reversal model was trained on'),
      el('p', {}, 'Strings of 3 to 12 digits; the target is the same digits in reverse order.'),
    );
    return;
  }
  formats.replaceChildren(
    el('summary', {}, `The ${DATE_FORMATS.length} formats the model was trained on`),
    el(
      'p',
      {},
      'Each written for 21 November 2026, in lower case, Title case or UPPER case, days with or without a leading zero. Numbers are read day first (dd/mm); years run from 1950 to 2049, so a two-digit year 50–99 is 19xx and 00–49 is 20xx.',
    ),
    el(
      'ul',
      { className: 'nmt-format-list' },
      ...DATE_FORMATS.map(([pattern, example]) => el('li', {}, el('code', {}, example), ` (${pattern})`)),
    ),
  );
}

const choice = (label, options, current) =>
  el(
    'select',
    { attrs: { 'aria-label': label } },
    ...options.map(([id, text]) => el('option', { value: id, selected: id === current }, text)),
  );

/** The step's controls and readouts (wired by ./controls.js and ./messages.js). */
function widgets(state) {
  return {
    errors: errorLine(),
    inputBox: el('input', {
      type: 'text',
      value: state.input,
      className: 'nmt-input',
      attrs: { 'aria-label': 'input to translate', maxlength: 40, spellcheck: 'false' },
    }),
    outputText: el('output', { className: 'nmt-output', attrs: { 'aria-live': 'polite' } }, '…'),
    inputError: el('p', { className: 'error nmt-input-error', attrs: { role: 'alert' }, hidden: true }),
    sampleButton: el('button', { type: 'button', className: 'small', disabled: true }, 'Random example'),
    confidenceNote: el('p', { className: 'nmt-confidence', hidden: true }),
    emptyNote: el('p', { className: 'nmt-empty-note', attrs: { 'aria-live': 'polite' }, hidden: true }),
    alignment: el('p', { className: 'worked nmt-alignment', hidden: true }),
    formats: el('details', { className: 'nmt-formats' }),
    status: el('p', { className: 'nmt-status', attrs: { 'aria-live': 'polite' } }, 'loading the model…'),
    resetButton: el('button', { type: 'button', disabled: true }, 'Reset (train from scratch)'),
    shippedButton: el('button', { type: 'button', disabled: true }, 'Load the shipped checkpoint'),
    scoreSelect: choice('score function', SCORES, state.score),
    taskSelect: choice('task', TASKS, state.task),
    curve: new LineChart({
      label: 'training loss per step',
      className: 'loss-curve',
      width: 340,
      logY: true,
      xName: 'step',
      empty: 'press Start to train',
      caption: 'Training loss (cross-entropy per output character, log scale) against steps',
    }),
  };
}

/**
 * @param {{state: {task: string, score: string, input: string}, run: object, figures: object,
 *          question: object, tryInput: (text: string) => void}} options
 *   run: runControls()' buttons and field; figures: the decoder and encoder maps the readout outlines.
 */
export function trainStep({ state, run, figures, question, tryInput }) {
  const parts = widgets(state);
  let translation = null;
  let spans = [];
  // The output characters as a "figure" the attention readout outlines.
  const outputFigure = {
    highlight: (cells) =>
      spans.forEach((span, t) =>
        span.classList.toggle(
          'is-source',
          cells.some(([, c]) => c === t),
        ),
      ),
  };
  figures.output = outputFigure;
  parts.attentionMap = new Heatmap({
    palette: 'purple',
    label: 'attention weights: output characters (rows) over input characters (columns)',
    vmin: 0,
    vmax: 1,
    cellWidth: 30,
    cellHeight: 24,
    colLabelsOnTop: true,
    format: (w) => (w >= 0.05 ? w.toFixed(1).replace(/^0/, '') : ''),
    explain: cellStory(
      figures,
      () => translation !== null,
      (r, c) => explainAttention(translation, r, c),
    ),
  });
  parts.attentionMap.element.classList.add('nmt-attention');
  const tryOther = experiment({
    label: 'another input',
    explain: '', // what to look for, for the task shown (show())
    apply: () => tryInput('2026 Nov 21st'),
  });
  formatsList(parts.formats, state.task);
  const p = parts;

  const element = step({
    title: 'Train it, and watch where it looks',
    intro: [
      'The model below opens with a checkpoint trained beforehand by this project’s own code, the same trainer you can run here. Reset it to train from scratch with any score function: the training runs in a Web Worker, so the page stays responsive, and the loss curve and the attention plot beside it refresh as it learns (the plot every few seconds).',
      `The second task, reversing a string of digits, has the cleanest alignment there is once learned: output digit 1 should attend to the last input digit, and so on — an anti-diagonal (the note under the plot measures it). How fast it learns, measured with the default seed and Luong’s general score: ${REVERSAL_MILESTONES.text}.`,
      'Type a date (or digits, for the reversal task) beside the loss curve. Each row of the plot is an output character, each column an input character; a dark cell means the decoder attended to that input character while writing that output character. Output characters are as dark as the model is sure of them.',
    ],
    controls: [
      el('label', { className: 'control-label' }, 'Task ', p.taskSelect),
      el('label', { className: 'control-label' }, 'Score function ', p.scoreSelect),
      run.startButton,
      run.pauseButton,
      run.pauseAtField,
      p.resetButton,
      p.shippedButton,
    ],
    output: p.status,
    after: [
      p.errors,
      el(
        'div',
        { className: 'nmt-live' },
        el('div', { className: 'nmt-live-curve' }, p.curve.element),
        el(
          'div',
          { className: 'nmt-live-plot' },
          el(
            'div',
            { className: 'controls nmt-io' },
            el('label', { className: 'control-label' }, 'Input ', p.inputBox),
            el('span', {}, ' → '),
            p.outputText,
            p.sampleButton,
          ),
          p.inputError,
          p.confidenceNote,
          p.emptyNote,
          p.attentionMap.element,
          p.alignment,
          tryOther,
          p.formats,
        ),
      ),
    ],
    predict: question,
  });

  return {
    element,
    ...parts,
    showFormats: (task) => formatsList(p.formats, task),
    /** The translation's characters and warnings (`task`: the task of the model that wrote it). */
    showOutput(r, task) {
      spans = outputSpans(r);
      p.outputText.replaceChildren(...(spans.length ? spans : ['(nothing)']));
      const warnings = [confidenceWarning(characterConfidence(r)), translationCheck(task, r.input, r.output)];
      const text = warnings.filter(Boolean).join(' ');
      p.confidenceNote.hidden = !text;
      p.confidenceNote.textContent = text;
    },
    /** Draws a translation with at least one output character; `note`: what it means, or null. */
    show(r, task, note) {
      translation = r;
      p.emptyNote.hidden = !note;
      p.emptyNote.textContent = note ?? '';
      p.attentionMap.element.hidden = false;
      p.attentionMap.update(r.attention, { rowLabels: chars(r.output), colLabels: chars(r.input) });
      tryOther.querySelector('span').textContent =
        task === 'dates'
          ? 'The same date written another way: does each output digit still look at the input character that holds it? Step through the playback below to check.'
          : 'Other digits: the note under the plot measures whether the alignment is still an anti-diagonal.';
      const alignment = alignmentNote(task, r);
      p.alignment.hidden = !alignment;
      p.alignment.textContent = alignment ?? '';
      question.update(r);
    },
    /** Hides the plot (nothing to draw, or unreadable input) and says why (`why`: text, or null). */
    clear(why) {
      translation = null;
      p.attentionMap.element.hidden = true;
      p.alignment.hidden = true;
      p.confidenceNote.hidden = true;
      p.emptyNote.hidden = !why;
      p.emptyNote.textContent = why ?? '';
      question.update(null);
    },
  };
}
