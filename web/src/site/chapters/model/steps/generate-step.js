// The model chapter's generation: the sentence as the prompt, temperature /
// top-k / top-p / max tokens / seed (a bad value is said under its field and
// the last good one stays), Generate and Stop; each new token appears with its
// probability, and the chosen head's map grows a row per step. Text from the
// model reaches the page through textContent only (el() children).
import { asInput, step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { shown } from '../../../explain/format.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { intField } from '../../../lesson-kit/step-parts.js';
import { NumberInput } from '../../../number-input.js';
import { MAX_NEW_TOKENS, MAX_SEED, MAX_TEMPERATURE, MAX_TOP_K, MIN_TOP_P } from '../model.js';
import { headName } from './head-step.js';

const BIG_MAP = 40 * 40; // past this many cells the map is drawn a pixel per cell

/**
 * @param {{ options: Record<string, number>, onOption: (name: string, value: number) => void,
 *           onGenerate: () => void, onStop: () => void, onPick: (position: number) => void,
 *           explain: (r: number, c: number) => object | null }} context
 */
export function generateStep({ options, onOption, onGenerate, onStop, onPick, explain }) {
  const number = (name, label, min, max) =>
    new NumberInput({
      caption: label,
      label,
      value: options[name],
      min,
      max,
      width: '5em',
      onChange: (x) => onOption(name, x),
      scrub: { step: 0.05 },
    });
  const fields = {
    temperature: number('temperature', 'temperature', 0, MAX_TEMPERATURE),
    topK: intField('top-k', options.topK, 0, MAX_TOP_K, (x) => onOption('topK', x)),
    topP: number('topP', 'top-p', MIN_TOP_P, 1),
    maxTokens: intField('max tokens', options.maxTokens, 1, MAX_NEW_TOKENS, (x) => onOption('maxTokens', x)),
    seed: intField('seed', options.seed, 0, MAX_SEED, (x) => onOption('seed', x)),
  };
  const generate = el('button', { type: 'button', on: { click: () => onGenerate() } }, 'Generate');
  const stop = el('button', { type: 'button', disabled: true, on: { click: () => onStop() } }, 'Stop');
  const status = el('p', { className: 'gen-status', attrs: { 'aria-live': 'polite' } });
  const why = el('p', { className: 'gen-why', hidden: true });
  const prompt = el('span', { className: 'gen-prompt' });
  const produced = el('span', { className: 'gen-tokens', attrs: { role: 'group', 'aria-label': 'generated tokens' } });
  const text = el('p', { className: 'gen-text' }, prompt, produced);
  // Both maps: a row per position or step over every position, labels on top, no numbers in cells.
  const rowsOverPositions = {
    palette: 'purple',
    weights: true,
    pixelAbove: BIG_MAP,
    cellWidth: 22,
    cellHeight: 18,
    colLabelsOnTop: true,
    rotateColLabels: true,
    annotate: false,
  };
  const map = new Heatmap({
    ...rowsOverPositions,
    label: 'the chosen head over the sentence and the generated tokens',
    explain,
  });
  const figure = captioned(map, ' ');
  // What generate() returned, drawn as received (an input): one row per step, over the positions.
  const received = asInput(new Heatmap({ ...rowsOverPositions, label: 'the rows generate() returned, one per step' }));
  const receivedFigure = captioned(received, ' ');
  const mapBox = el('div', { className: 'figures gen-map', hidden: true });
  const picked = el('p', { className: 'gen-picked', attrs: { 'aria-live': 'polite' } });
  const element = step({
    title: '8. Generate',
    intro: [
      'The model writes on from your sentence, one token at a time: it scores every token of its vocabulary, divides the scores by the temperature (0: always the most likely), keeps the top-k most likely (0: all) and the smallest set whose probabilities add up to top-p (1: all), and draws one with the seed. The new token is fed back in; its keys and values join the cache, so each step computes only the new token’s row. Watch the chosen head’s map grow by a row per token.',
    ],
    controls: [...Object.values(fields).map((f) => f.element), generate, stop],
    after: [why, status, text, picked, mapBox],
  });
  let busy = false;
  let canGenerate = true;
  const sync = () => {
    generate.disabled = busy || !canGenerate;
    stop.disabled = !busy;
  };
  return {
    element,
    map,
    received,
    /** Whether this model can generate; `reason` (shown) when it cannot. */
    allow(can, reason = '') {
      canGenerate = can;
      why.hidden = can;
      why.textContent = reason;
      sync();
    },
    /** A new prompt (or none): nothing generated is left on the page. */
    reset(labels) {
      busy = false;
      sync();
      prompt.textContent = labels.join('');
      produced.replaceChildren();
      mapBox.hidden = true;
      mapBox.replaceChildren();
      picked.textContent = '';
      status.textContent = '';
    },
    /** Generation started on `labels` (the sentence's tokens). */
    begin(labels, note = '') {
      this.reset(labels);
      busy = true;
      sync();
      status.textContent = `generating…${note}`;
    },
    /** One new token (its label, its probability, the step it came at; `position` in the text). */
    addToken(label, p, stepIndex, position, id) {
      const chip = el(
        'button',
        {
          type: 'button',
          className: 'gen-token',
          dataset: { position: String(position), step: String(stepIndex), id: String(id) },
          on: { click: () => onPick(position) },
        },
        el('span', { className: 'overview-hidden' }, `generated token ${stepIndex + 1}: `),
        el('span', { className: 'gen-token-text' }, label),
        el('span', { className: 'overview-hidden' }, ', p = '),
        el('sub', { className: 'gen-token-p' }, shown(p)),
      );
      produced.append(chip);
      status.textContent = `generating… ${stepIndex + 1} new token${stepIndex ? 's' : ''}`;
    },
    /** Draws the chosen head's map over every position with a row. */
    showMap(matrix, labels, selected) {
      if (mapBox.hidden) {
        mapBox.hidden = false;
        mapBox.append(figure, receivedFigure);
      }
      mapBox.dataset.rows = String(matrix.rows);
      map.update(matrix, {
        rowLabels: labels.slice(0, matrix.rows),
        colLabels: labels.slice(0, matrix.cols),
        label: `attention weights over the sentence and the new tokens, ${headName(selected)}`,
        caption: `${headName(selected)}: one row per token, the new tokens’ rows added as they are generated (hatched: the future, masked).`,
        isMasked: (r, c) => c > r,
      });
    },
    /** generate()'s rows of the chosen head as received: row s is step s's, over positions 1 … first + s. */
    showReceived(matrix, labels, selected, first) {
      received.update(matrix, {
        rowLabels: Array.from({ length: matrix.rows }, (_, s) => `step ${s + 1}`),
        colLabels: labels.slice(0, matrix.cols),
        label: `the rows generate() returned, ${headName(selected)}`,
        caption: `As generate() returned them, ${headName(selected)}: step s’s row is the attention of the token at position ${first} + s − 1, the one the step’s new token was predicted from (hatched: not read yet).`,
        isMasked: (r, c) => c > first - 1 + r,
      });
    },
    /** Generation ended: why, and how many tokens. */
    done(text) {
      busy = false;
      sync();
      status.textContent = text;
    },
    /** The row of a picked generated token, said in words. */
    showPicked(text) {
      picked.textContent = text;
    },
    sync(values) {
      for (const [name, field] of Object.entries(fields)) field.set(values[name]);
    },
    fields,
  };
}
