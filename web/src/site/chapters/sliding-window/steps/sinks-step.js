// Step 3 of the sliding-window chapter: attention sinks measured on the model
// opened in the model chapter: per layer × head, the mean weight on token 1
// against an even spread over the keys each query may read.
import { el } from '../../../dom.js';
import { liveExperiment, step } from '../../../chapter-kit.js';
import { captioned, Heatmap } from '../../../figures/heatmap.js';
import { shown } from '../../../explain/format.js';
import { openedModelView, tokenLabels } from '../../../lesson-kit/opened-model.js';
import { firstTokenMass, SINK_AT, SINK_FACTOR, sinkHeads } from '../model.js';

/** A longer text for the experiment, in plain words: the model needs no special tokens for it. */
export const LONG_TEXT =
  'The river ran past the old mill, where the miller kept his sacks of grain. Every morning he opened the doors, swept the floor and listened to the wheel turn, and every evening he counted the sacks again before he went home.';

/** At most this many tokens are read (the model's positions, if fewer): the story of a cell lists them all. */
const MAX_TOKENS = 64;

/** The ids of the first tokens of `text` that the model can take (at most MAX_TOKENS). */
export async function modelIds(model, text) {
  const positions = model.config.n_positions ?? model.config.max_position_embeddings ?? MAX_TOKENS;
  return (await model.tokenizer.encode(text)).ids.slice(0, Math.min(positions, MAX_TOKENS));
}

const readText = async (model, text) => model.runIds(await modelIds(model, text), { k: 1 });

const cellName = (l, h) => `L${l + 1} H${h + 1}`;

/** The two figures of one reading: token 1's weight per head and query (drawn), and its mean per layer × head. */
function sinkFigures(m, labels) {
  const rowLabels = Array.from({ length: m.layers * m.heads }, (_, k) =>
    cellName(Math.floor(k / m.heads), k % m.heads),
  );
  const column = new Heatmap({
    palette: 'purple',
    label: 'weight on token 1, one row per layer and head, one column per query',
    vmin: 0,
    vmax: 1,
    pixelAbove: 400,
  });
  column.element.dataset.role = 'input';
  const explain = (l, h) => {
    const k = l * m.heads + h;
    const row = Array.from(m.column.data.subarray(k * m.queries, (k + 1) * m.queries));
    const ratio = m.mass.data[k] / m.baseline;
    const verdict =
      m.mass.data[k] >= SINK_AT && ratio >= SINK_FACTOR
        ? `a sink: at least ${SINK_AT} and ${SINK_FACTOR}× the even spread`
        : `not a sink by this rule (it needs at least ${SINK_AT} and ${SINK_FACTOR}× the even spread)`;
    return {
      text: `first[${cellName(l, h)}] = mean over queries 2 … ${m.queries + 1} of A[i][1] = (${row.map(shown).join(' + ')}) / ${m.queries} = ${shown(m.mass.data[k])}; an even spread gives the mean of 1/i = ${shown(m.baseline)}: ${shown(ratio)}×, ${verdict}.`,
      sources: [{ figure: column, cells: row.map((_, c) => [k, c]) }],
    };
  };
  const mass = new Heatmap({
    palette: 'orange',
    label: 'mean weight on token 1 per layer and head',
    vmin: 0,
    vmax: 1,
    explain,
    rowLabels: Array.from({ length: m.layers }, (_, l) => `L${l + 1}`),
    colLabels: Array.from({ length: m.heads }, (_, h) => `H${h + 1}`),
  });
  return {
    nodes: [
      el(
        'div',
        { className: 'figures' },
        captioned(mass, 'first[layer, head]: the mean over queries 2 … T of the weight on token 1'),
        captioned(column, 'A[i][1]: one row per layer and head, one column per query i = 2 … T'),
      ),
    ],
    draw() {
      mass.update(m.mass);
      column.update(m.column, { rowLabels, colLabels: labels.slice(1) });
    },
  };
}

export function sinksStep(ctx) {
  const { questions, signal } = ctx;
  let long = false;
  let view = null;
  const longer = liveExperiment({
    label: 'a longer text',
    explain: (found) =>
      found
        ? `${long ? 'The longer text' : 'The model chapter’s sentence'}: ${found.sinks.length} of ${found.m.layers * found.m.heads} heads are sinks over ${found.m.queries + 1} tokens; the even spread there is ${shown(found.m.baseline)}.`
        : 'Open a model in the model chapter first.',
    apply: () => {
      long = !long;
      mount();
    },
  });
  let controller = null;
  // The view is a direct child of the step, so the question hides it until answered.
  function mount() {
    controller?.abort();
    controller = new AbortController();
    signal?.addEventListener('abort', () => controller.abort(), { once: true });
    const next = openedModelView({
      signal: controller.signal,
      empty:
        'Open a model in the chapter “Open a real model” (the demo GPT-2 loads with one click): this step then measures its heads here.',
      accepts: (model) => typeof model.run === 'function' && model.family !== 'bert',
      refused: (model) =>
        `The ${model.family} model open now reads in both directions; sinks are measured here on causal models.`,
      question: questions.sinks,
      show: async ({ model, sentence }) => {
        const result = await readText(model, long ? LONG_TEXT : sentence);
        const m = firstTokenMass(result.attentions);
        const labels = tokenLabels(result, m.queries + 1);
        const sinks = sinkHeads(m);
        const figures = sinkFigures(m, labels);
        const found = { m, sinks };
        longer.show(found);
        const top = sinks[0];
        const summary = el(
          'p',
          { className: 'worked' },
          `${model.family} model, ${m.queries + 1} tokens (${long ? 'the longer text' : 'the model chapter’s sentence'}): ${sinks.length} of ${m.layers * m.heads} heads put at least ${SINK_AT} and ${SINK_FACTOR}× the even spread (${shown(m.baseline)}) on token 1${top ? `; the strongest, ${cellName(top.layer, top.head)}, ${shown(top.value)}` : ''}.`,
        );
        return { nodes: [summary, ...figures.nodes], data: found, draw: figures.draw };
      },
    });
    if (view) view.replaceWith(next);
    view = next;
  }
  mount();
  const element = step({
    title: '3. Attention sinks in a real model',
    intro: [
      el(
        'p',
        {},
        'Drop the first tokens from the cache and many models fall apart, even though those tokens rarely matter for the meaning. Xiao et al. (2023) found why: many heads park a large share of their weight on token 1, an “attention sink”, because softmax must put the weight somewhere. Here the heads of the model you opened are measured: for each layer and head, the mean weight that queries 2 … T put on token 1, against a head spreading its weight evenly (query i may read i keys, so 1/i each). A head is called a sink only when its mean is at least 0.2 and twice the even spread.',
      ),
    ],
    formula:
      '\\text{first}_{l,h} = \\frac{1}{T-1} \\sum_{i=2}^{T} A^{(l,h)}_{i1}, \\qquad \\text{even} = \\frac{1}{T-1} \\sum_{i=2}^{T} \\frac{1}{i}',
    after: [view, longer.element],
  });
  return { element, needs: [], show() {} };
}
