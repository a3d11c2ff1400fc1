// Step 4: what the trained heads do. Each sentence states its measure, the two
// baselines (uniform attention, the same model at initialisation) and names a
// head only when the measure clears both by MARGIN (../claims.js); a
// "show" button opens that head in step 3 and scrolls it into view.
import { experiment, step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { clearArgmax, prediction, ranked } from '../../../predict.js';
import { headName, percent } from '../model.js';
import { MARGIN, measuredClaims, suggestion } from '../claims.js';

const WHAT = {
  field: {
    claim: (h) =>
      `Encoder–decoder attention reads each field where the input wrote it: while writing the year, month and day digits, ${h} puts`,
    measure: 'of its weight on that field in the input (averaged over the 8 digits)',
  },
  copy: {
    claim: (h) => `Encoder–decoder attention finds the character to copy: while writing a digit, ${h} puts`,
    measure: 'of its weight on the input positions holding that digit',
  },
  separator: {
    claim: (h) => `Masked decoder self-attention keeps count of the fields: ${h} puts`,
    measure: 'of each step’s weight on the last “-” written',
    // Said apart from the measured sentence: what the measure may mean, not measured itself.
    reading:
      'A reading, not a measurement: the last “-” is what tells a step whether it is writing the month or the day.',
  },
  start: {
    claim: (h) => `Some decoder heads rest on the start token when they have nothing to look up: ${h} gives`,
    measure: 'of each step’s weight to the start token on average',
  },
  ownRun: {
    claim: (h) => `Encoder self-attention keeps to words and numbers: ${h} keeps`,
    measure: 'of each character’s weight within its own word or number',
  },
};
const NONE = {
  field: 'No encoder–decoder head reads the date fields clearly on this input',
  copy: 'No encoder–decoder head clearly finds the character to copy',
  separator: 'No decoder head clearly watches the last “-”',
  start: 'No decoder head clearly rests on the start token',
  ownRun: 'No encoder head clearly keeps to words and numbers',
};

// The patterns as the predict question names them.
const PATTERN_NAMES = {
  field: 'reading each date field where the input wrote it',
  copy: 'finding the digit to copy',
  separator: 'watching the last “-” written',
  start: 'resting on the start token',
  ownRun: 'keeping to its own word or number',
};
const points = (c) => Math.round(100 * (c.value - c.uniform));

// Which pattern stands out most above uniform attention, by the measured claims.
const clearest = () =>
  prediction({
    question: 'Which pattern will the best head show furthest above uniform attention, on your input?',
    choices: (claims) => claims.map((c) => PATTERN_NAMES[c.id]),
    answer: (claims) => (claims.length > 1 ? clearArgmax(claims.map((c) => c.value - c.uniform)) : null),
    explain: (claims) => {
      const margins = claims.map((c) => c.value - c.uniform);
      const [first, second] = ranked(margins);
      const say = (c) =>
        `${PATTERN_NAMES[c.id]} (${headName(c)}: ${percent(c.value)} against ${percent(c.uniform)} uniform, ${points(c)} points)`;
      if (first === undefined) return 'nothing was measured on this input.';
      return `furthest above uniform is ${say(claims[first])}${second === undefined ? '' : `; next ${say(claims[second])}`}.`;
    },
  });

const baselines = (c) =>
  `uniform attention would give ${percent(c.uniform)}, the same model at initialisation at most ${
    Number.isFinite(c.init) ? percent(c.init) : '(not measured)'
  }`;

export function findingsStep({ onShow, onTry }) {
  const list = el('ul', { className: 'trained-findings', attrs: { 'aria-live': 'polite' } });
  const predict = clearest();
  const element = step({
    title: '4. What the trained heads do',
    intro: [
      `Measured on your input with the model as it is now. For each pattern we take the head that shows it most, and compare its share with two baselines: uniform attention (every visible key the same weight) and the same model at initialisation (same options and seed, untrained; its best head too). A sentence names a head only when its share is at least ${Math.round(
        100 * MARGIN,
      )} points above both; a model straight after Reset names none.`,
    ],
    controls: [
      experiment({
        label: 'another date, “3 March 1999”',
        explain: 'Every sentence is measured again on it: see which heads keep their jobs.',
        apply: () => onTry('3 March 1999'),
      }),
    ],
    figures: [list],
    predict,
  });
  const item = (...parts) => list.append(el('li', {}, ...parts));
  return {
    element,
    /** Nothing to measure: say why. */
    clear(reason) {
      list.replaceChildren(el('li', { className: 'trained-stale' }, reason));
    },
    /** @param {{translation: object, input: string, task: string}} data */
    show({ translation, input, task }) {
      list.replaceChildren();
      const claims = measuredClaims(translation, translation.baseline ?? null, input, task);
      for (const c of claims) {
        const text = WHAT[c.id];
        if (c.holds) {
          const where = { layer: c.layer, head: c.head };
          const button = el(
            'button',
            { type: 'button', className: 'small', on: { click: () => onShow(c.use, where) } },
            `show ${headName(where)}`,
          );
          item(`${text.claim(headName(where))} ${percent(c.value)} ${text.measure}; ${baselines(c)}. `, button);
          if (text.reading)
            list.lastElementChild.append(el('span', { className: 'trained-reading' }, ` ${text.reading}`));
        } else {
          item(
            `${NONE[c.id]}: the best head gives ${percent(c.value)} ${text.measure}, and ${baselines(c)}: less than ${Math.round(100 * MARGIN)} points above both.`,
          );
        }
      }
      predict.update(claims.filter((c) => Number.isFinite(c.value) && Number.isFinite(c.uniform)));
      if (task === 'dates' && !claims.some((c) => c.id === 'field')) {
        const other = suggestion(input, task);
        item(
          `This input does not show the year, month and day once each (or the translation is wrong), so the field alignment of encoder–decoder attention is not measured for it${other ? `; try “${other}”` : ''}.`,
        );
      }
    },
  };
}
