// Predict, then reveal: one question per step that the reader answers before the
// step's results show. The question, its choices and the right answer all come
// from the live numbers (`update(data)` on every recompute), so the verdict is
// checked against what the figure then shows, never against fixed text.
//
// Whether a lesson asks at all is the lesson's setting: `data-predict="on"` on
// its `article.chapter` (the site's "Predict first" toggle, or the `predict`
// attribute of <attention-lesson>). Off, the questions are hidden and every
// result shows; on, CSS hides a step's results while its state is "asking".
import { el } from './dom.js';
import { shown } from './explain/format.js';

/** Where the site keeps the reader's choice (true when unset: a first visit asks). */
export const PREDICT_STORAGE_KEY = 'attention-lab.predict';

/** The reader's saved preference for the site; storage may be unavailable (privacy modes). */
export function predictPreference() {
  try {
    return globalThis.localStorage?.getItem(PREDICT_STORAGE_KEY) !== 'off';
  } catch {
    return true;
  }
}

export function savePredictPreference(on) {
  try {
    globalThis.localStorage?.setItem(PREDICT_STORAGE_KEY, on ? 'on' : 'off');
  } catch {
    // not saved: the setting still holds for this page
  }
}

/** Turns a lesson's questions on or off (`root` is its `article.chapter`). */
export function setPredicting(root, on) {
  root.dataset.predict = on ? 'on' : 'off';
}

/**
 * The index of the largest value, or null when the runner-up is within `tolerance`
 * of it (relative): then there is no single right answer to ask for.
 * @param {ArrayLike<number>} values
 */
export function clearArgmax(values, tolerance = 1e-9) {
  let best = -1;
  for (let i = 0; i < values.length; i++) if (best < 0 || values[i] > values[best]) best = i;
  if (best < 0 || !Number.isFinite(values[best])) return null;
  for (let i = 0; i < values.length; i++)
    if (i !== best && values[best] - values[i] <= tolerance * Math.max(1, Math.abs(values[best]))) return null;
  return best;
}

/**
 * The indices of `values` from largest to smallest (for "next best" in explanations).
 * @param {ArrayLike<number>} values
 */
export const ranked = (values) => Array.from(values, (_, i) => i).sort((a, b) => values[b] - values[a]);

/**
 * "h̄3 with 929; next h̄1 with 927": the winner and the runner-up of a measure, as an
 * `explain` states them (`unit` goes before each number, e.g. "α = ").
 * @param {string[]} labels
 * @param {ArrayLike<number>} values
 */
export function leader(labels, values, unit = '') {
  const [first, second] = ranked(values);
  const next = second === undefined ? '' : `; next ${labels[second]} with ${unit}${shown(values[second])}`;
  return `${labels[first]} with ${unit}${shown(values[first])}${next}`;
}

/**
 * "Which encoder state will the context be closest to?": a question whose measure is the
 * Euclidean distance from `point(data)` (named `name`, e.g. 'c') to each of
 * `candidates(data)` (named by `labels(data)`); the nearest wins and the explanation states
 * its distance and the runner-up's ("the nearest is h̄4, ‖c − h̄4‖ = 0.3; next h̄1 at 42").
 * @template T
 * @param {{question: string, name: string, point: (data: T) => ArrayLike<number>,
 *          candidates: (data: T) => ArrayLike<number>[], labels: (data: T) => string[]}} spec
 */
export function nearestPrediction({ question, name, point, candidates, labels }) {
  const nearness = (data) => {
    const p = Array.from(point(data));
    return candidates(data).map((v) => -Math.hypot(...p.map((x, k) => x - v[k])));
  };
  return prediction({
    question,
    choices: labels,
    answer: (data) => clearArgmax(nearness(data)),
    explain: (data) => {
      const near = nearness(data);
      const [first, second] = ranked(near);
      const names = labels(data);
      const next = second === undefined ? '' : `; next ${names[second]} at ${shown(-near[second])}`;
      return `the nearest is ${names[first]}, ‖${name} − ${names[first]}‖ = ${shown(-near[first])}${next}.`;
    },
  });
}

/**
 * A question for one step. Pass it as `step({ …, predict })` (chapter-kit.js), which
 * places it above the step's results and hides them until the reader answers.
 * @template T
 * @param {{
 *   question: string | ((data: T) => string),
 *   choices: string[] | ((data: T) => string[]),
 *   answer: (data: T) => number | null,
 *   explain: (data: T) => string,
 * }} spec `answer` is the index of the right choice for these numbers, or null when
 *   there is none (a tie): then the step does not ask. `explain` states the measure
 *   behind the answer ("h̄3 scores highest: 929, next h̄1 with 927").
 */
let questions = 0; // numbers the questions' ids on a page

export function prediction({ question, choices, answer, explain }) {
  const questionId = `predict-question-${++questions}`;
  const questionText = el('span', { className: 'predict-question-text' });
  const choiceRow = el('div', { className: 'predict-choices', attrs: { role: 'group' } });
  const show = el('button', { type: 'button', className: 'small predict-skip', on: { click: () => reveal(null) } });
  show.textContent = 'Just show me';
  const verdict = el('p', { className: 'predict-verdict', attrs: { 'aria-live': 'polite' } });
  // The hidden results keep their place below: say why that space is empty.
  const hint = el('p', { className: 'predict-hint' }, 'This step’s results show below once you answer.');
  const again = el('button', { type: 'button', className: 'small predict-again', on: { click: () => ask() } });
  again.textContent = 'Ask me again';
  const element = el(
    'div',
    // Named by its own question (the toolbar's toggle is the one called "Predict first").
    { className: 'predict', attrs: { role: 'group', 'aria-labelledby': questionId } },
    el('p', { className: 'predict-question', id: questionId }, el('strong', {}, 'Predict: '), questionText),
    choiceRow,
    hint,
    verdict,
    again,
  );

  /** @type {HTMLElement | null} */ let section = null;
  /** @type {T | undefined} */ let data;
  let version = 0; // counts updates, so a verdict says when the numbers changed after the guess
  /** @type {{ choice: number | null, label: string | null, version: number } | null} */ let guess = null;

  const valueOf = (v) => (typeof v === 'function' ? v(data) : v);

  function setState(state) {
    if (section) section.dataset.predictState = state;
    element.dataset.state = state;
    choiceRow.hidden = hint.hidden = state !== 'asking';
    again.hidden = state !== 'revealed';
  }

  function ask() {
    guess = null;
    render();
  }

  function reveal(choice) {
    const labels = valueOf(choices);
    guess = { choice, label: choice === null ? null : labels[choice], version };
    render();
    element.querySelector('.predict-again')?.focus();
  }

  function render() {
    if (data === undefined) return;
    questionText.textContent = valueOf(question);
    const right = answer(data);
    const labels = valueOf(choices);
    if (right === null) {
      // No single right answer with these numbers (a tie): nothing to ask, show the results.
      setState('open');
      verdict.textContent = `Nothing to guess with these inputs: ${explain(data)}`;
      return;
    }
    if (!guess) {
      setState('asking');
      verdict.textContent = '';
      choiceRow.replaceChildren(
        ...labels.map((label, i) =>
          el('button', { type: 'button', className: 'small predict-choice', on: { click: () => reveal(i) } }, label),
        ),
        show,
      );
      return;
    }
    setState('revealed');
    const now = explain(data);
    if (guess.version !== version) verdict.textContent = `With the inputs as they are now: ${now}`;
    else if (guess.choice === null) verdict.textContent = now;
    else if (guess.choice === right) verdict.textContent = `Right: ${now}`;
    else verdict.textContent = `Not this time (you said ${guess.label}): ${now}`;
  }

  return {
    element,
    /** Called by step() with its section, whose results CSS hides while asking. */
    attach(node) {
      section = node;
      render();
    },
    /** Call on every recompute with the step's live numbers. */
    update(next) {
      data = next;
      version++;
      render();
    },
  };
}
