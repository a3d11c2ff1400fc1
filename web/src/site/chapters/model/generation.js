// The model chapter's generation flow: one text (the sentence's tokens, then the
// generated ones), its attention rows (the run's, then a row per step), the token
// the overview shows, and the generate() call running (one at a time; a new
// sentence or model aborts it). The view is the generate step's; the model call
// is model.js's generateText (awaited: the model may live elsewhere).
import { shown } from '../../explain/format.js';
import { message } from './loader.js';
import { eosIdsOf, generateText, generationOptions, TENSORS, tokenLabel } from './model.js';
import { AttentionRows } from './rows.js';
import { headName } from './steps/head-step.js';

const REASONS = { maxTokens: 'max tokens reached', stop: 'the model wrote its end-of-text token' };

/**
 * @param {{ root: HTMLElement, view: ReturnType<import('./steps/generate-step.js').generateStep>,
 *           figures: Record<string, any>, options: Record<string, number>,
 *           live: () => { model: any, shape: any, result: any, sentence: string, selected: { layer: number, head: number }, labels: string[] },
 *           onChange: () => void }} context
 *   live: the chapter's model, run and chosen head now; onChange: the text or its chosen token moved
 */
export function generationFlow({ root, view, figures, options, live, onChange }) {
  let rows = null; // AttentionRows of the text
  let labels = []; // the text's tokens as labels: the sentence's, then the generated ones
  let steps = []; // generate's steps
  let chosen = 0; // the token the overview shows
  let running = null; // the AbortController of the generate() call running

  /** A new run of the sentence (or none): nothing generated is left. */
  function reset() {
    running?.abort();
    running = null;
    steps = [];
    const { model, shape, result } = live();
    if (!result) return;
    rows = new AttentionRows(result.attentions, shape.causal);
    labels = live().labels.slice();
    chosen = labels.length - 1;
    view.reset(labels);
    view.allow(
      shape.causal && typeof model.generate === 'function',
      !shape.causal
        ? 'BERT does not generate: an encoder predicts the tokens hidden by [MASK] from both sides, not the next token.'
        : 'This build of the library has no generate().',
    );
    root.dataset.genSteps = '0';
  }

  async function generate() {
    const { model, shape, result, sentence } = live();
    if (!result || !shape.causal) return;
    reset();
    const controller = new AbortController();
    running = controller;
    const T = result.tokens.length;
    const plan = generationOptions(options, T, shape.positions, shape.vocab, eosIdsOf(model));
    view.begin(labels, plan.cut ? ` at most ${plan.cut} tokens: the model reads ${shape.positions} positions` : '');
    root.dataset.genState = 'running';
    if (plan.message) return finish(controller, plan.message);
    const stale = () => live().model !== model || live().result !== result || running !== controller;
    try {
      const out = await generateText(model, sentence, plan.options, {
        signal: controller.signal,
        // Steps that a worker had already sent when Stop was pressed are not shown.
        onToken: (step) => stale() || controller.signal.aborted || add(step, T),
      });
      if (stale()) return;
      // The model may finish before the Stop reaches it (a worker runs ahead of the page).
      if (controller.signal.aborted) return finish(controller, `stopped after ${steps.length} new tokens.`);
      const why = REASONS[out.stopReason] ?? out.stopReason;
      finish(controller, `done: ${out.ids.length} new tokens (${why}). Choose a new token to see its row.`);
    } catch (error) {
      if (stale()) return;
      const stopped = error?.name === 'AbortError';
      finish(
        controller,
        stopped ? `stopped after ${steps.length} new tokens.` : `generation failed: ${message(error)}`,
      );
    }
  }

  function finish(controller, text) {
    if (running === controller) running = null;
    view.done(text);
    root.dataset.genState = 'done';
  }

  /** One new token: its label, its rows (step i's rows are the query before it: position T + i − 1). */
  function add(step, T) {
    steps.push(step);
    const position = T + steps.length - 1;
    labels.push(tokenLabel(step.token));
    rows.add(step.attentions);
    view.addToken(labels[position], step.p, steps.length - 1, position, step.id);
    chosen = rows.length - 1;
    draw();
    onChange();
    root.dataset.genSteps = String(steps.length);
  }

  /** The chosen head's map over the text (once something was generated). */
  function draw() {
    if (steps.length === 0 || !rows) return;
    const { selected } = live();
    view.showMap(rows.matrix(selected.layer, selected.head), labels, selected);
    view.showReceived(received(selected), labels, selected, firstQuery() + 1);
  }

  /** The position of step 1's query: the sentence's last token. */
  const firstQuery = () => steps[0].attentions[0][0].length - 1;

  /** The chosen head's row of every step, as generate() returned them (steps × positions). */
  function received({ layer, head }) {
    const n = firstQuery() + steps.length;
    const data = new Float32Array(steps.length * n);
    steps.forEach((step, s) => data.set(step.attentions[layer][head], s * n));
    return { rows: steps.length, cols: n, data };
  }

  /** A generated token chosen: its row in words, and the overview on it. */
  function pick(position) {
    if (position >= rows.length) {
      view.showPicked(
        `Token ${position + 1} “${labels[position]}” was the last one drawn: generation ended before reading it, so it has no row yet.`,
      );
      return;
    }
    chosen = position;
    onChange();
    const { selected } = live();
    const row = rows.row(selected.layer, selected.head, position);
    let best = 0;
    for (let j = 1; j < row.length; j++) if (row[j] > row[best]) best = j;
    view.showPicked(
      `Token ${position + 1} “${labels[position]}”: in ${headName(selected)} it puts its largest weight, ${shown(row[best])}, on token ${best + 1} “${labels[best]}” (an even spread over the ${row.length} tokens it reads: ${shown(1 / row.length)}). The overview above shows its rows in every layer.`,
    );
    root.dataset.genPicked = String(position);
  }

  /** A cell of the generation map: where its number comes from, with its sources. */
  function explain(r, c) {
    if (!rows || r >= rows.length) return null;
    const { selected, result } = live();
    const row = rows.row(selected.layer, selected.head, r);
    const w = c < row.length ? row[c] : 0;
    const cell = `weight[${r + 1}][${c + 1}] = ${shown(w)}: how much token ${r + 1} “${labels[r]}” reads token ${c + 1} “${labels[c]}” in ${headName(selected)}`;
    if (c >= row.length) return { text: `${cell}; masked: a token never reads a later one`, sources: [] };
    if (r < result.tokens.length)
      return {
        text: `${cell}; a token of the sentence: the same number as step 4’s map of this head (outlined), since a causal model’s earlier rows do not change when tokens follow`,
        sources: [{ figure: figures[TENSORS.weights], cells: [[r, c]] }],
      };
    const sum = row.reduce((a, b) => a + b, 0);
    const s = r - firstQuery(); // the step whose row this is
    return {
      text: `${cell}; step ${s + 1}’s row as generate() returned it (outlined below): the softmax of this token’s query against the keys of tokens 1 … ${row.length}, the earlier ones read from the key/value cache; the row’s ${row.length} weights sum to ${shown(sum)}`,
      sources: [{ figure: view.received, cells: [[s, c]] }],
    };
  }

  /** The output head's sentence for a generated token (null for a token of the sentence). */
  function drawnText(position) {
    const step = steps[position - (live().result?.tokens.length ?? 0)];
    return step
      ? `Token ${position + 1} “${labels[position]}” was generated with p = ${shown(step.p)} (after the temperature, top-k and top-p; the model’s own p = ${shown(step.pModel)}).`
      : null;
  }

  return {
    reset,
    generate,
    stop: () => running?.abort(),
    draw,
    pick,
    explain,
    drawnText,
    /** The text now: its rows, labels and the token the overview shows. */
    text: () => ({ rows, labels, chosen }),
    choose(i) {
      chosen = i;
    },
  };
}
