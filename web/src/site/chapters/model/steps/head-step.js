// The model chapter's head steps: the model view (every layer × head, small
// maps to click; heads that share a key/value head drawn as one group), the
// chosen head large with its queries, keys and values (and, in a rotary family,
// q and k after the rotation) and the value mix (every computed cell explains
// itself through the trace), and the sentences about what heads do, each with
// its measure and baseline.
import { asInput, liveExperiment, step } from '../../../chapter-kit.js';
import { el } from '../../../dom.js';
import { Heatmap, captioned } from '../../../figures/heatmap.js';
import { HeadGrid } from '../../../figures/head-grid.js';
import { shown } from '../../../explain/format.js';
import { FACTOR, headColumnLabels, headColumns, HOLDS_AT, maySee, repeatReading, TENSORS } from '../model.js';

/**
 * What a family's q, k, v are projected from, in its own tensor names: x (the rows) and
 * W (the head's weight columns, q | k | v). GPT-2 stores them as columns of c_attn;
 * BERT and the rotary families as rows (out × in) of three matrices, drawn transposed.
 */
function projectionWords(family) {
  if (family === 'gpt2')
    return {
      x: 'ln_1 of the layer’s input',
      name: 'the head’s columns of c_attn',
      W: 'the head’s columns of c_attn, q | k | v',
      sentence: 'the layer’s input after ln_1, times the head’s columns of c_attn, plus their bias',
    };
  if (family === 'bert')
    return {
      x: 'the layer’s input: the previous layer’s output after its LayerNorm (layer 1: the embeddings’)',
      name: 'the head’s rows of query, key and value',
      W: 'the head’s rows of query, key and value, as columns, q | k | v',
      sentence:
        'the layer’s input (BERT normalises after each sub-layer, so it reads the previous layer’s output as it is), times the head’s rows of query, key and value, plus their bias',
    };
  return {
    x: 'input_layernorm of the layer’s input',
    name: 'the head’s rows of q_proj, k_proj and v_proj',
    W: 'the head’s rows of q_proj (its kv head’s of k_proj, v_proj), as columns, q | k | v',
    sentence:
      'the layer’s input after input_layernorm (an RMSNorm), times the head’s rows of q_proj, k_proj and v_proj',
  };
}

// A real model reads up to 1,024 tokens: past these many cells a map draws one pixel per cell.
const BIG_MAP = 48 * 48;
const BIG_VECTORS = 48 * 64;
const percent = (x) => `${(100 * x).toFixed(0)}%`;
export const headName = ({ layer, head }) => `layer ${layer + 1}, head ${head + 1}`;

/** The query heads that read key/value head g (num_attention_heads / num_key_value_heads each). */
export const groupHeads = (shape, g) => {
  const size = shape.heads / shape.kvHeads;
  return Array.from({ length: size }, (_, i) => g * size + i);
};
export const kvHeadOf = (shape, head) => Math.floor(head / (shape.heads / shape.kvHeads));
const headList = (heads) =>
  heads.length === 1 ? `head ${heads[0] + 1}` : `heads ${heads[0] + 1}–${heads[heads.length - 1] + 1}`;

/** Marks the grid's columns by key/value group (a gap and a rule before each group) and labels them. */
function markGroups(grid, shape) {
  const grouped = shape.kvHeads < shape.heads;
  grid.element.classList.toggle('model-grid-grouped', grouped);
  const size = shape.heads / shape.kvHeads;
  for (const node of grid.element.querySelectorAll('.head-grid-cell, .head-grid-label:not(.head-grid-layer)')) {
    const head =
      node.dataset.head === undefined ? Number(node.textContent.replace(/\D+/g, '')) - 1 : Number(node.dataset.head);
    if (!Number.isInteger(head) || head < 0) continue;
    node.classList.toggle('kv-first', grouped && head % size === 0 && head > 0);
    if (grouped) node.dataset.kv = String(Math.floor(head / size) + 1);
  }
}

/** A “scroll →” cue while `box` is wider than its place (a phone), gone at the end. */
function overflowCue(box) {
  const cue = el('p', { className: 'model-scroll-cue', hidden: true }, 'More heads to the right: scroll →');
  const check = () => {
    const more = box.scrollWidth - box.clientWidth - box.scrollLeft > 2;
    cue.hidden = !more;
    box.classList.toggle('is-cut', more);
  };
  box.addEventListener('scroll', check, { passive: true });
  if (typeof ResizeObserver !== 'undefined') new ResizeObserver(check).observe(box);
  return { cue, check };
}

/** The model view: one small map per layer and head; a click (or Enter) opens that head large. */
export function modelViewStep({ onSelect, predict, onRepeat }) {
  const grid = new HeadGrid({ label: 'model view: every layer and head of the open model', onSelect });
  const { cue, check } = overflowCue(grid.element);
  const intro = el('p', {});
  const groups = el('p', { className: 'model-groups', hidden: true });
  const findings = el('ul', { className: 'model-findings', attrs: { 'aria-live': 'polite' } });
  const repeat = liveExperiment({
    label: 'the sentence twice',
    explain: (text) => text,
    apply: () => onRepeat(),
  });
  const element = step({
    title: '3. Every head at once',
    intro: [intro],
    predict,
    figures: [grid.element],
    after: [cue, groups, findings, repeat.element],
  });
  let drawn = null; // the maps drawn last: a run's maps never change after it
  return {
    element,
    show(result, selected, shape) {
      grid.update(result.attentions, selected, 'attention', { redraw: result.attentions !== drawn });
      drawn = result.attentions;
      markGroups(grid, shape);
      check();
      const windows = Array.from({ length: shape.layers }, (_, l) => shape.window(l));
      const sliding = windows.flatMap((w, l) => (w ? [l + 1] : []));
      intro.textContent =
        'The model view: one small map per layer (rows) and head (columns); in each map the rows are the tokens that ask (queries), the columns the tokens they read (keys). ' +
        (shape.causal
          ? 'Only earlier tokens can be read (the model is causal: the upper right of each map is empty).'
          : 'BERT reads in both directions: every token may read every token, so the whole map is filled.') +
        (sliding.length
          ? ` Layers ${sliding.join(', ')} use a sliding window of ${shape.window(sliding[0] - 1)} tokens: a token reads only itself and the tokens just before it, the band along the diagonal.`
          : '') +
        ' Choose a map to open it large below.';
      groups.hidden = shape.kvHeads === shape.heads;
      groups.textContent = groups.hidden
        ? ''
        : `Grouped-query attention: ${shape.heads} query heads share ${shape.kvHeads} key/value heads (num_key_value_heads), so the heads of one group, drawn side by side between rules, read the same keys and values and differ only in their queries: ` +
          Array.from(
            { length: shape.kvHeads },
            (_, g) => `kv head ${g + 1} serves ${headList(groupHeads(shape, g))}`,
          ).join('; ') +
          '.';
    },
    /** The measured sentences ([] when none holds: nothing is claimed). */
    showFindings(list, onShow) {
      findings.replaceChildren(
        ...list.map((f) =>
          el(
            'li',
            {},
            `${headName(f)} favours ${f.pattern.text}: it puts ${percent(f.value)} of each token’s weight there on average (over the ${f.queries} tokens after the first), against ${percent(f.baseline)} for a head that spreads its weight evenly over the tokens it may read. `,
            el('button', { type: 'button', className: 'small', on: { click: () => onShow(f) } }, `show ${headName(f)}`),
          ),
        ),
      );
      if (list.length === 0)
        findings.append(
          el(
            'li',
            {},
            `On this sentence no head puts at least ${percent(HOLDS_AT)} of its weight, and ${FACTOR}× an even spread, on the previous token, the first token or its own token.`,
          ),
        );
    },
    /** What the repeat experiment measured on this run (a claim only when it holds). */
    showRepeat: (result, shape) => repeat.show(repeatText(result, shape)),
  };
}

/** The repeat experiment's sentence: the head that reads ahead in an earlier copy, with its baseline. */
function repeatText(result, shape) {
  const r = repeatReading(result, shape);
  if (!r)
    return 'writes the sentence twice; on a text that repeats itself this line names the head that puts most weight on the token that followed the same token’s earlier copy (an induction head).';
  const holds = r.value >= 2 * r.baseline;
  return `On this repeated text, ${headName(r)} puts ${percent(r.value)} of a repeated token’s weight on the token that followed its earlier copy (mean over ${r.queries} tokens), against ${percent(r.baseline)} for an even spread${holds ? ': it reads ahead in the earlier copy, as an induction head does.' : '; no head does that clearly here.'}`;
}

/** The "next head" experiment's sentence: where the chosen head's last row looks. */
function lastRow(weights, tokens, selected) {
  const T = weights.rows;
  let best = 0;
  for (let j = 1; j < T; j++) if (weights.get(T - 1, j) > weights.get(T - 1, best)) best = j;
  const open = Array.from({ length: T }, (_, j) => weights.get(T - 1, j)).filter((w) => w > 0).length;
  return `opens the head after this one. Now: ${headName(selected)}; its last row puts its largest weight, ${shown(weights.get(T - 1, best))}, on “${tokens[best]}” (an even spread over the ${open} tokens it reads: ${shown(1 / open)}).`;
}

const vectorMap = (what, palette = 'blue', explain) =>
  new Heatmap({
    palette,
    label: what,
    annotate: false,
    cellWidth: 14,
    cellHeight: 22,
    pixelAbove: BIG_VECTORS,
    ...(explain ? { explain } : {}),
  });

/** The chosen head large, with what it is computed from: q, k (rotated), v, and what it makes: the value mix. */
export function headStep({ story, figures, predict, onNextHead }) {
  const large = new Heatmap({
    palette: 'purple',
    label: 'the chosen head’s attention weights',
    weights: true,
    pixelAbove: BIG_MAP,
    cellWidth: 26,
    cellHeight: 22,
    colLabelsOnTop: true,
    rotateColLabels: true,
    format: (w) => (w >= 0.1 ? w.toFixed(1).replace(/^0/, '') : ''),
    explain: story(TENSORS.weights),
  });
  const largeFigure = captioned(large, ' ');
  largeFigure.classList.add('model-head-figure');
  // x and the head's weight columns: what q, k, v are computed from (drawn, not computed).
  const x = asInput(vectorMap('the head’s input x', 'bone'));
  const W = asInput(
    new Heatmap({
      palette: 'bone',
      label: 'the head’s weights W_q, W_k, W_v side by side',
      annotate: false,
      cellWidth: 12,
      cellHeight: 10,
      pixelAbove: BIG_VECTORS,
    }),
  );
  const projectionFigures = [x.element, W.element];
  // QK-norm families: x·W + b before the norm (explained), then q, k are its RMS norm.
  const qPre = vectorMap('queries before the QK-norm', 'blue', story(TENSORS.qPre));
  const kPre = vectorMap('keys before the QK-norm', 'blue', story(TENSORS.kPre));
  const preFigures = [
    captioned(qPre, 'x·W_q (+ b_q) before the QK-norm'),
    captioned(kPre, 'x·W_k (+ b_k) before the QK-norm'),
  ];
  const preBox = el('div', { className: 'figures model-vectors model-pre-norm', hidden: true });
  const projectionBox = el('div', { className: 'figures model-vectors model-projection', hidden: true });
  const inputsBox = el('div', { className: 'figures model-vectors' });
  // q, k, v explain their cells when the family gives x and W (GPT-2: q = x·W_q + b_q);
  // otherwise they are drawn as read from the model, inputs whose readouts outline their rows.
  let q, k, v;
  let projected = null;
  function vectorMaps(explained) {
    if (explained === projected) return;
    projected = explained;
    const map = (what, name) => {
      const m = vectorMap(what, 'blue', explained ? story(name) : undefined);
      return explained ? m : asInput(m);
    };
    q = map('queries q of the chosen head', TENSORS.q);
    k = map('keys k of the chosen head', TENSORS.k);
    v = map('values v of the chosen head', TENSORS.v);
    Object.assign(figures, { [TENSORS.q]: q, [TENSORS.k]: k, [TENSORS.v]: v });
    inputsBox.replaceChildren(
      captioned(q, 'Queries q (one row per token)'),
      captioned(k, 'Keys k'),
      captioned(v, 'Values v'),
    );
  }
  vectorMaps(false);
  const qRotated = vectorMap('queries after the rotation, q̃', 'green', story(TENSORS.qRotated));
  const kRotated = vectorMap('keys after the rotation, k̃', 'green', story(TENSORS.kRotated));
  const mix = vectorMap('the chosen head’s output: its value mix', 'orange', story(TENSORS.mix));
  Object.assign(figures, {
    [TENSORS.weights]: large,
    [TENSORS.x]: x,
    [TENSORS.W]: W,
    [TENSORS.qPre]: qPre,
    [TENSORS.kPre]: kPre,
    [TENSORS.qRotated]: qRotated,
    [TENSORS.kRotated]: kRotated,
    [TENSORS.mix]: mix,
  });
  const note = el('p', { className: 'model-head-note', attrs: { 'aria-live': 'polite' } });
  const about = el('p', { className: 'model-head-about' });
  // In the page only for a rotary family: no hidden figure waits to be explained.
  const rotatedFigures = [
    captioned(qRotated, 'q̃: each query turned by its position (RoPE)'),
    captioned(kRotated, 'k̃: each key turned the same way'),
  ];
  const rotatedBox = el('div', { className: 'figures model-vectors model-rotated', hidden: true });
  const mixBox = el(
    'div',
    { className: 'figures model-vectors' },
    captioned(mix, 'The value mix: each row is its token’s weights times the values'),
  );
  const next = liveExperiment({ label: 'the next head', explain: (text) => text, apply: () => onNextHead() });
  const element = step({
    title: '4. One head, down to its numbers',
    intro: [
      'Each weight is a softmax over the row of scores q·k/√d_k: the query of the row’s token against the key of every token it may read. Hover, focus or tap a weight to see that arithmetic with this model’s numbers; the queries, keys and values below are read from the model file when you choose a head.',
    ],
    formula: [
      '\\alpha_{ij} = \\operatorname{softmax}_{j \\le i}\\!\\left(\\frac{q_i \\cdot k_j}{\\sqrt{d_k}}\\right)',
      '\\text{mix}_i = \\sum_{j \\le i} \\alpha_{ij}\\, v_j',
    ],
    predict,
    figures: [largeFigure],
    after: [about, note, projectionBox, preBox, inputsBox, rotatedBox, mixBox, next.element],
  });
  return {
    element,
    figure: largeFigure,
    showNext: (weights, tokens, selected) => next.show(lastRow(weights, tokens, selected)),
    /**
     * The weights (always); q, k, v and the mix once explainHead answered (null: still
     * reading; `explains` false: this family has no explainHead, the weights are all there is).
     */
    show(weights, tokens, selected, inputs, mixed, { shape, explains = true }) {
      if (inputs) vectorMaps(Boolean(inputs.x));
      const see = maySee(shape, selected.layer);
      // The formulas sum over j ≤ i: a causal model's (BERT reads every j).
      for (const node of element.querySelectorAll(':scope > .formula')) node.hidden = !shape.causal;
      const w = shape.window(selected.layer);
      // The caption through the options: a lazy repaint writes it again from them.
      const caption =
        `${headName(selected)}. Rows: the tokens that ask (queries). Columns: the tokens they read (keys). ` +
        (!shape.causal
          ? 'Nothing is masked: BERT reads both ways.'
          : w
            ? `This layer has a sliding window of ${w} tokens (sliding_window): hatched cells are masked, exactly 0: the future, and keys ${w} or more tokens back.`
            : 'Hatched cells are the future, masked: exactly 0.');
      large.update(weights, {
        rowLabels: tokens,
        colLabels: tokens,
        label: `attention weights, ${headName(selected)}`,
        caption,
        isMasked: shape.causal ? (r, c) => !see(r, c) : undefined,
      });
      const group = kvHeadOf(shape, selected.head);
      const shared = shape.kvHeads < shape.heads;
      const scale =
        shape.scale.name === 'd_k'
          ? `the scores are divided by √d_k = √${shape.headDim}`
          : `the scores are divided by √query_pre_attn_scalar = √${shape.scale.value} (config.json), not by √head_dim = √${shape.headDim}`;
      about.textContent = [
        shared
          ? `This head reads the keys and values of kv head ${group + 1}, which it shares with ${headList(groupHeads(shape, group).filter((h) => h !== selected.head))}: k and v below are that group’s, the same for each of its heads.`
          : '',
        shape.qkNorm
          ? 'In this family each query and key is normalised first (QK-norm: an RMSNorm over the head’s numbers, with learned weights q_norm and k_norm), then rotated; q and k below are after the norm, before the rotation.'
          : '',
        inputs?.x
          ? `Each query, key and value is a row of x, ${projectionWords(shape.family).sentence}: hover a cell of ${inputs.qPre ? 'the maps before the QK-norm, or of v,' : 'q, k or v'} to see that sum${inputs.qPre ? `; a cell of q or k is that row divided by its root mean square, times the norm’s gain${inputs.normOffset ? ' (Gemma stores it as an offset: the gain is 1 + q_norm.weight)' : ''}` : ''}.`
          : '',
        shape.rotary
          ? `Positions enter by rotating q and k (RoPE), so the score is q̃·k̃; ${scale}.`
          : `${scale[0].toUpperCase()}${scale.slice(1)}.`,
      ]
        .filter(Boolean)
        .join(' ');
      captioned(k, shared ? `Keys k (kv head ${group + 1}, shared by its heads)` : 'Keys k');
      captioned(v, shared ? `Values v (kv head ${group + 1}, shared by its heads)` : 'Values v');
      note.textContent = !explains
        ? 'This family’s queries and keys are not read by the chapter: the weights come straight from the model’s run.'
        : inputs
          ? ''
          : 'reading this head’s weights from the model file…';
      inputsBox.hidden = !inputs; // never another head's numbers
      mixBox.hidden = !inputs;
      // In the page only when drawn: no hidden figure waits to be explained.
      projectionBox.hidden = !inputs?.x;
      if (projectionBox.hidden) projectionBox.replaceChildren();
      else if (!projectionBox.hasChildNodes()) projectionBox.append(...projectionFigures);
      preBox.hidden = !inputs?.qPre;
      if (preBox.hidden) preBox.replaceChildren();
      else if (!preBox.hasChildNodes()) preBox.append(...preFigures);
      rotatedBox.hidden = !inputs?.qRotated;
      if (rotatedBox.hidden) rotatedBox.replaceChildren();
      else if (!rotatedBox.hasChildNodes()) rotatedBox.append(...rotatedFigures);
      if (!inputs) return;
      if (inputs.x) {
        const words = projectionWords(shape.family);
        captioned(x, `x: one row per token (${words.x})`);
        captioned(W, `W: ${words.W}`);
        x.update(inputs.x, { rowLabels: tokens, label: `the head’s input x: ${words.x}` });
        W.update(headColumns(inputs), {
          colLabels: headColumnLabels(inputs.q.cols),
          label: `${words.name}: W_q, W_k, W_v side by side`,
        });
      }
      if (inputs.qPre) {
        qPre.update(inputs.qPre, { rowLabels: tokens });
        kPre.update(inputs.kPre, { rowLabels: tokens });
      }
      q.update(inputs.q, { rowLabels: tokens });
      k.update(inputs.k, { rowLabels: tokens });
      v.update(inputs.v, { rowLabels: tokens });
      if (inputs.qRotated) {
        qRotated.update(inputs.qRotated, { rowLabels: tokens });
        kRotated.update(inputs.kRotated, { rowLabels: tokens });
      }
      mix.update(mixed, { rowLabels: tokens });
    },
  };
}
