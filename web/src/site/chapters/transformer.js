// Chapter "Attention is all you need, hands on": scaled dot-product attention,
// the 1/sqrt(d_k) scaling, padding and causal masks, multi-head attention and
// the three places a Transformer uses it. The view: it builds one piece per
// step, reads and writes the permalink state (transformer-model.js SCHEMA) and
// draws; every number comes from transformer-model.js, whose inputs are
// NumPy-exact RandomState draws (each step shows the NumPy lines).
import { code, el } from '../dom.js';
import { afterNextPaint, asInput, credit, errorLine, experiment, guarded, outputBlock, step } from '../chapter-kit.js';
import { Heatmap } from '../figures/heatmap.js';
import { storyForFigures, Trace } from '../explain/trace.js';
import { TokenLines } from '../figures/token-lines.js';
import { UsesDiagram } from '../figures/uses-diagram.js';
import { addPrerendered, symbol, tex } from '../math.js';
import { linkFormulas } from '../formula-links.js';
import { NumberInput } from '../number-input.js';
import { formatNumpy } from '../numpy-format.js';
import { urlStore } from '../url-state.js';
import { workspace } from '../workspace.js';
import * as M from './transformer-model.js';
import { traceDemo, traceHeads, traceMasked, traceProjections, traceUses } from './transformer-trace.js';
import formulas from '../formulas/transformer.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

const SAVE_PAUSE_MS = 150; // the permalink follows the edits after this pause
const BIG = 24 * 24; // above this many cells, heatmaps switch to pixel mode
const SHOWN = 12 * 12; // largest matrix printed as NumPy

// Every figure shows its label as a visible caption (X, Q, K, V, raw and scaled scores, … told apart),
// and is lazy: an edit repaints the canvases near the viewport, the others when they scroll in.
const figure = (options) => new Heatmap({ pixelAbove: BIG, caption: options.label, lazy: true, ...options });

const tokenFigure = (options) => figure({ ...options, rotateColLabels: true, colLabelsOnTop: true });
const numpyOrSize = (m, what) =>
  m.rows * m.cols <= SHOWN
    ? formatNumpy(m.data, [m.rows, m.cols])
    : `(${m.rows} × ${m.cols} ${what}; shown as NumPy up to 12 × 12)`;
const numpyLinesBlock = (label) => el('pre', { className: 'numpy-lines', attrs: { 'aria-label': label } });

// ---- controls ---------------------------------------------------------------------

function select(label, values, current, format, onChange) {
  const node = el(
    'select',
    { attrs: { 'aria-label': label }, on: { change: () => onChange(Number(node.value)) } },
    ...values.map((v) => el('option', { value: String(v), selected: v === current }, format(v))),
  );
  return el('label', { className: 'control' }, `${label} `, node);
}

const seedField = (label, value, onChange) =>
  new NumberInput({ caption: label, label, value, integer: true, min: 0, max: 4294967295, width: '7.5em', onChange })
    .element;

function textField(label, value, onChange) {
  const node = el('input', {
    type: 'text',
    value,
    spellcheck: false,
    className: 'tokens',
    size: 36,
    maxLength: 200,
    attrs: { 'aria-label': label },
    on: {
      input: () => {
        const ok = M.words(node.value).length > 0;
        node.setAttribute('aria-invalid', String(!ok));
        if (ok) onChange(node.value);
      },
    },
  });
  return el('label', { className: 'control' }, `${label} `, node);
}

function checkbox(label, checked, onChange) {
  const node = el('input', {
    type: 'checkbox',
    checked,
    attrs: { 'aria-label': label },
    on: { change: () => onChange(node.checked) },
  });
  return el('label', { className: 'control' }, node, ` ${label}`);
}

/** Sets the control labelled `label` inside `scope` as a reader would, firing its change event. */
function setControl(scope, label, value) {
  const node = scope.querySelector(`[aria-label="${label}"]`);
  if (!node) return;
  if (node.type === 'checkbox') node.checked = value;
  else node.value = String(value);
  node.dispatchEvent(new Event('change', { bubbles: true }));
}

// Formula symbols linked to their figures (formula-links.js).
const sym = { X: symbol('X', 'X'), Q: symbol('Q', 'Q'), K: symbol('K', 'K'), V: symbol('V', 'V') };

// ---- one piece per step: { element, show(...) } -------------------------------------

function inputsStep({ state, edit, figures, explain }) {
  const xFig = asInput(figure({ palette: 'blue', label: 'embeddings X, one row per token' }));
  const qFig = figure({ palette: 'purple', label: 'queries Q = X Wq', explain: explain('Q') });
  const kFig = figure({ palette: 'orange', label: 'keys K = X Wk', explain: explain('K') });
  const vFig = figure({ palette: 'green', label: 'values V = X Wv', explain: explain('V') });
  Object.assign(figures, { X: xFig, Q: qFig, K: kFig, V: vFig });
  const lines = numpyLinesBlock('the NumPy lines that draw X and the weights');
  const headsSlot = el('span');
  const renderHeads = () =>
    headsSlot.replaceChildren(
      select(
        'heads',
        M.headChoices(state.dModel),
        state.heads,
        String,
        edit((h) => (state.heads = h)),
      ),
    );
  const sizeControls = [
    textField(
      'tokens',
      state.tokens,
      edit((t) => {
        state.tokens = t;
        state.flips.clear();
      }),
    ),
    select(
      'length',
      M.LENGTHS,
      state.length,
      (n) => (n === 0 ? 'one per token' : `${n} positions`),
      edit((n) => {
        state.length = n;
        state.flips.clear();
      }),
    ),
    select(
      'd_model',
      M.D_MODELS,
      state.dModel,
      String,
      edit((d) => {
        state.dModel = d;
        if (d % state.heads !== 0) state.heads = 1;
        renderHeads();
      }),
    ),
    seedField(
      'seed',
      state.seed,
      edit((s) => (state.seed = s)),
    ),
  ];
  renderHeads();
  return {
    headsSlot,
    element: step({
      title: '1. Queries, keys and values',
      intro: [
        el(
          'p',
          {},
          'Each token starts as an embedding, a row of ',
          tex('X'),
          ' with ',
          tex('d_{\\text{model}}'),
          ' numbers. Three learned matrices turn it into three roles: a query ',
          tex('q'),
          ' (what this token is looking for), a key ',
          tex('k'),
          ' (what it offers to be found by) and a value ',
          tex('v'),
          ' (what it hands over when found).',
        ),
      ],
      formula: `${sym.Q} = ${sym.X} W^Q, \\qquad ${sym.K} = ${sym.X} W^K, \\qquad ${sym.V} = ${sym.X} W^V`,
      controls: sizeControls,
      output: lines,
      figures: [xFig, qFig, kFig, vFig].map((f) => f.element),
    }),
    show(inputs, proj, view) {
      xFig.update(inputs.X, view.rowsOnly);
      qFig.update(proj.Q, view.rowsOnly);
      kFig.update(proj.K, view.rowsOnly);
      vFig.update(proj.V, view.rowsOnly);
      lines.textContent = M.numpyLines(inputs, state.seed);
    },
  };
}

function scoresStep(ctx) {
  const scoresFig = tokenFigure({
    palette: 'orange',
    label: 'raw scores Q Kᵀ (rows: queries, columns: keys)',
    explain: ctx.explain('raw'),
  });
  const scaledFig = tokenFigure({
    palette: 'orange',
    label: 'scaled scores Q Kᵀ / √d_k',
    explain: ctx.explain('scaled'),
  });
  Object.assign(ctx.figures, { raw: scoresFig, scaled: scaledFig });
  const scoresOut = outputBlock('raw scores as NumPy prints them');
  return {
    element: step({
      title: '2. Raw scores',
      intro: [
        el(
          'p',
          {},
          'Every query is compared with every key by a dot product. One matrix product does all of them: row ',
          tex('i'),
          ' of ',
          tex('QK^\\top'),
          ' holds query ',
          tex('i'),
          '’s scores against every key.',
        ),
      ],
      formula: `${symbol('raw', '\\operatorname{scores}')} = ${sym.Q} ${sym.K}^\\top \\in \\mathbb{R}^{n_q \\times n_k}`,
      output: scoresOut,
      figures: [scoresFig.element, scaledFig.element],
    }),
    show(proj, view) {
      scoresFig.update(proj.raw, view.labels);
      scaledFig.update(proj.scaled, view.labels);
      scoresOut.textContent = numpyOrSize(proj.raw, 'scores');
    },
  };
}

function scalingStep({ state, edit, figures, explain }) {
  const table = el('table', { className: 'dk-table' });
  const dkWeightsFig = new Heatmap({
    palette: 'orange',
    label: 'softmax over 8 keys, without and with scaling',
    weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
    rowLabels: ['Q Kᵀ', 'Q Kᵀ / √d_k'],
    explain: explain('demo.weights'),
  });
  figures['demo.weights'] = dkWeightsFig;
  const dkOut = outputBlock('softmax weights without and with scaling');
  const lines = numpyLinesBlock('the NumPy lines that draw the demo vectors');
  const headers = ['d_k', 'var(q · k)', 'var(q · k / √d_k)', 'largest softmax weight of 8, unscaled', '… scaled'];
  return {
    element: step({
      title: '3. Why divide by √d_k',
      intro: [
        el(
          'p',
          {},
          'If the entries of ',
          tex('q'),
          ' and ',
          tex('k'),
          ' are independent with mean 0 and variance 1, then ',
          tex('q \\cdot k = \\sum_{i=1}^{d_k} q_i k_i'),
          ' is a sum of ',
          tex('d_k'),
          ' terms of variance 1: its variance is ',
          tex('d_k'),
          '. Long vectors give huge scores, softmax of huge scores is almost one-hot, and a one-hot softmax has almost no gradient to learn from. ',
          'Dividing by ',
          tex('\\sqrt{d_k}'),
          ' brings the variance back to 1, whatever ',
          tex('d_k'),
          '.',
        ),
      ],
      formula:
        '\\operatorname{Var}(q \\cdot k) = d_k, \\qquad \\operatorname{Var}\\!\\Big(\\frac{q \\cdot k}{\\sqrt{d_k}}\\Big) = 1',
      controls: [
        select(
          'd_k',
          M.DK_DEMO,
          state.dk,
          String,
          edit((v) => (state.dk = v)),
        ),
        seedField(
          'demo seed',
          state.demoSeed,
          edit((v) => (state.demoSeed = v)),
        ),
      ],
      output: dkOut,
      figures: [table, dkWeightsFig.element],
      after: [
        'The table measures it: the unscaled variance grows like d_k and the largest of 8 softmax weights heads for 1; scaled, both stay put. Change the demo seed to draw new vectors.',
        lines,
      ],
    }),
    show(rows) {
      table.replaceChildren(
        el(
          'caption',
          {},
          `Variance of q · k over ${M.SAMPLES} × ${M.SAMPLES} random pairs (entries of q, k drawn from N(0, 1))`,
        ),
        el('tr', {}, ...headers.map((h) => el('th', { scope: 'col' }, h))),
        ...rows.map((r) =>
          el(
            'tr',
            { className: r.dk === state.dk ? 'current' : '' },
            el('th', { scope: 'row' }, String(r.dk)),
            el('td', {}, r.varRaw.toFixed(2)),
            el('td', {}, r.varScaled.toFixed(3)),
            el('td', {}, r.maxRaw.toFixed(4)),
            el('td', {}, r.maxScaled.toFixed(4)),
          ),
        ),
      );
      const current = rows.find((r) => r.dk === state.dk);
      const both = new Float64Array(16);
      both.set(current.wRaw, 0);
      both.set(current.wScaled, 8);
      const weights = { rows: 2, cols: 8, data: both };
      dkWeightsFig.update(weights, { colLabels: Array.from({ length: 8 }, (_, j) => `k${j + 1}`) });
      dkOut.textContent = `d_k = ${current.dk}\nunscaled: ${formatNumpy(current.wRaw, [8])}\nscaled:   ${formatNumpy(current.wScaled, [8])}`;
      lines.textContent = M.demoNumpyLines(state.demoSeed);
      return [current, weights]; // what the trace records
    },
  };
}

function attentionStep(ctx) {
  const weightsFig = tokenFigure({
    palette: 'orange',
    label: 'attention weights softmax(Q Kᵀ / √d_k)',
    weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
    explain: ctx.explain('weights'),
  });
  const outFig = figure({
    palette: 'green',
    label: 'output = weights · V',
    explain: ctx.explain('output'),
  });
  Object.assign(ctx.figures, { weights: weightsFig, output: outFig });
  const weightsOut = outputBlock('attention weights as NumPy prints them');
  return {
    element: step({
      title: '4. Softmax, then a weighted sum of values',
      intro: [
        'Each row of scaled scores goes through a softmax, giving weights that are positive and sum to 1. The output for a query is the weighted average of the value rows.',
      ],
      formula: `${symbol('output', '\\operatorname{Attention}(Q, K, V)')} = ${symbol('weights', '\\operatorname{softmax}\\!\\Big(\\frac{Q K^\\top}{\\sqrt{d_k}}\\Big)')} ${sym.V}`,
      output: weightsOut,
      figures: [weightsFig.element, outFig.element],
    }),
    show(proj, view) {
      weightsFig.update(proj.attention.weights, view.labels);
      outFig.update(proj.attention.output, view.rowsOnly);
      weightsOut.textContent = numpyOrSize(proj.attention.weights, 'weights');
    },
  };
}

function maskStep(ctx) {
  const { state, edit, update } = ctx;
  const maskFig = asInput(
    tokenFigure({
      palette: 'bone',
      label: 'mask (1 = may attend, 0 = masked; click a cell, or focus it and press Enter, to flip it)',
      vmin: 0,
      vmax: 1,
    }),
  );
  const maskedFig = tokenFigure({
    palette: 'orange',
    label: 'masked attention weights',
    weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
    explain: ctx.explain('masked'),
  });
  const maskedOutFig = figure({ palette: 'green', label: 'masked output', explain: ctx.explain('maskedOut') });
  Object.assign(ctx.figures, { mask: maskFig, masked: maskedFig, maskedOut: maskedOutFig });
  const maskedOut = outputBlock('masked attention weights as NumPy prints them');
  const maskNote = el('p', { className: 'worked' });
  maskFig.onCellClick((r, c) => {
    const key = `${r}.${c}`;
    if (!state.flips.delete(key)) state.flips.add(key);
    update();
  });
  return {
    element: step({
      title: '5. Masks: padding and no peeking',
      intro: [
        el(
          'p',
          {},
          'Batches pad short sentences to a common length; nobody should attend to the padding. A decoder generating text must not look at tokens it has not produced yet: ',
          'query ',
          tex('i'),
          ' may only see keys ',
          tex('j \\le i'),
          ' (causal mask). Masked scores are set to ',
          tex('-\\infty'),
          ' before the softmax, so their weight is exactly 0. Click any cell of the mask to flip it.',
        ),
      ],
      formula:
        '\\operatorname{softmax}\\!\\Big(\\frac{Q K^\\top}{\\sqrt{d_k}} + M\\Big), \\qquad M_{ij} = \\begin{cases} 0 & \\text{may attend} \\\\ -\\infty & \\text{masked} \\end{cases}',
      controls: [
        new NumberInput({
          caption: 'padding tokens at the end',
          label: 'padding tokens at the end',
          value: state.padding,
          integer: true,
          min: 0,
          max: M.MAX_TOKENS - 1,
          onChange: edit((p) => (state.padding = p)),
        }).element,
        checkbox(
          'causal (no looking ahead)',
          state.causal,
          edit((c) => (state.causal = c)),
        ),
        el(
          'button',
          { type: 'button', className: 'small clear-flips', on: { click: edit(() => state.flips.clear()) } },
          'clear flipped cells',
        ),
      ],
      output: maskedOut,
      figures: [maskFig.element, maskedFig.element, maskedOutFig.element],
      after: [
        maskNote,
        experiment({
          label: 'turn on causal',
          explain:
            'Why is the first row of the masked weights one-hot? The first query may see only itself: one score, so its softmax is 1. The second row shares its weight between two keys, and so on down the triangle.',
          apply: () => {
            const root = maskFig.element.closest('section');
            root.querySelector('button.clear-flips')?.click();
            setControl(root, 'causal (no looking ahead)', true);
          },
        }),
      ],
    }),
    show(mask, masked, view) {
      const isMasked = (r, c) => mask.data[r * mask.cols + c] === 0;
      // A new seed keeps the mask (the same object, see update()): no repaint.
      paintOnce(maskFig, mask, view.labels);
      maskedFig.update(masked.weights, { ...view.labels, isMasked });
      maskedOutFig.update(masked.output, view.rowsOnly);
      maskedOut.textContent = numpyOrSize(masked.weights, 'weights');
      const empty = M.emptyRows(mask);
      maskNote.textContent = empty
        ? `${empty} ${empty === 1 ? 'query has' : 'queries have'} no key left to attend to: ${empty === 1 ? 'its' : 'their'} weights and output are all zeros (not NaN).`
        : 'Every query still has at least one key to attend to; each row of weights sums to 1.';
    },
  };
}

const call = (r) => code(`multiHeadAttention(X, X, X, { heads: ${r.perHead.length}, Wq, Wk, Wv, Wo, mask })`);

function headsStep({ headsSlot, figures, explain }) {
  const headsRow = el('div', { className: 'figures heads' });
  const concatFig = figure({ palette: 'green', label: 'concatenated head outputs', explain: explain('concat') });
  const mhaFig = figure({ palette: 'blue', label: 'multi-head output = concat · Wo', explain: explain('mha') });
  Object.assign(figures, { concat: concatFig, mha: mhaFig });
  const mhaCheck = el('p', { className: 'worked' });
  let headFigs = [];
  // A square-ish grid (4 heads as 2 + 2, 8 as 3 + 3 + 2, never 2 + 1 + 1), with no more
  // columns than the step's figure box holds: measured after layout, when the box or a head
  // figure (more tokens, wider) changes size, so the edit itself forces no layout.
  const fitColumns = typeof ResizeObserver === 'function' ? new ResizeObserver(() => setColumns()) : null;
  const setColumns = () => {
    const square = Math.ceil(Math.sqrt(headFigs.length));
    const first = headsRow.firstElementChild;
    const gap = parseFloat(getComputedStyle(headsRow).columnGap) || 0;
    const room = headsRow.parentElement?.clientWidth ?? 0; // the step's figure box, not the grid's own width
    const fit = first?.offsetWidth && room ? Math.floor((room + gap) / (first.offsetWidth + gap)) : square;
    headsRow.style.setProperty('--columns', String(Math.max(1, Math.min(square, fit))));
  };
  return {
    element: step({
      title: '6. Multi-head attention',
      intro: [
        el(
          'p',
          {},
          'Instead of one attention over all ',
          tex('d_{\\text{model}}'),
          ' columns, split the projected ',
          tex('Q, K, V'),
          ' into ',
          tex('h'),
          ' blocks of ',
          tex('d_k = d_{\\text{model}}/h'),
          ' columns. Each head attends on its own block, so different heads can pick out different relations. ',
          'The heads’ outputs are put side by side again and mixed by ',
          tex('W^O'),
          '. The mask from step 5 applies to every head.',
        ),
      ],
      formula: [
        '\\operatorname{MultiHead}(X) = \\operatorname{Concat}(\\text{head}_1, \\dots, \\text{head}_h) W^O',
        '\\text{head}_i = \\operatorname{Attention}(Q_i, K_i, V_i)',
        'Q_i = X W^Q_i',
      ],
      controls: [headsSlot],
      figures: [headsRow, concatFig.element, mhaFig.element],
      after: [
        mhaCheck,
        experiment({
          label: 'heads = 8 with d_model = 8',
          explain:
            'Then d_k = 1: each head compares one number per token, so its score is a plain product q·k and its weights only rank tokens by that product; split across more heads, each one sees less.',
          apply: () => {
            const root = headsRow.closest('article') ?? document;
            setControl(root, 'd_model', 8);
            setControl(root, 'heads', 8);
          },
        }),
      ],
    }),
    show(r, mask, view) {
      const isMasked = (row, c) => mask.data[row * mask.cols + c] === 0;
      const label = (i) => `head ${i + 1} weights (d_k = ${r.dk})`;
      if (headFigs.length !== r.perHead.length) {
        headFigs.forEach((_, i) => delete figures[`head${i}.weights`]);
        headFigs = r.perHead.map((_, i) =>
          tokenFigure({ palette: 'orange', label: label(i), weights: true, explain: explain(`head${i}.weights`) }),
        );
        headFigs.forEach((f, i) => (figures[`head${i}.weights`] = f));
        headsRow.replaceChildren(...headFigs.map((f) => f.element));
        headsRow.style.setProperty('--columns', String(Math.ceil(Math.sqrt(headFigs.length))));
        fitColumns?.disconnect();
        if (headsRow.parentElement) fitColumns?.observe(headsRow.parentElement);
        fitColumns?.observe(headFigs[0].element);
      }
      r.perHead.forEach((h, i) => headFigs[i].update(h.weights, { ...view.labels, isMasked, label: label(i) }));
      concatFig.update(r.concat, view.rowsOnly);
      mhaFig.update(r.byHand, view.rowsOnly);
      mhaCheck.replaceChildren(call(r), ' is being compared with the step-by-step computation above …');
    },
    /** The one-call check (oneCallCheck), shown after the by-hand figures: see update(). */
    showCheck(r, { diff }) {
      const [n, d] = [r.byHand.rows, r.byHand.cols];
      mhaCheck.replaceChildren(
        call(r),
        ` gives the same ${n} × ${d} output as the step-by-step computation above: largest difference ${diff.toExponential(1)}.`,
      );
    },
    showCheckError(r, error) {
      mhaCheck.replaceChildren(call(r), ` failed: ${error instanceof Error ? error.message : String(error)}`);
    },
  };
}

function usesStep({ state, edit, figures, explain }) {
  const lines = numpyLinesBlock('the NumPy lines that draw the three uses');
  const ids = ['encoderSelf', 'decoderSelf', 'cross'];
  // The embeddings the three uses start from: the readouts outline the rows a weight came from.
  const sFig = asInput(new Heatmap({ palette: 'blue', label: 'source embeddings S (encoder input)', caption: 'S' }));
  const tFig = asInput(new Heatmap({ palette: 'blue', label: 'target embeddings T (decoder input)', caption: 'T' }));
  Object.assign(figures, { 'uses.S': sFig, 'uses.T': tFig });
  const uses = M.USES.map((name, u) => ({
    name,
    figs: [0, 1].map((h) => {
      const map = new Heatmap({
        palette: 'orange',
        label: `${name}, head ${h + 1}`,
        weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
        rotateColLabels: true,
        colLabelsOnTop: true,
        explain: explain(`uses${u}.head${h}.weights`),
      });
      figures[`uses${u}.head${h}.weights`] = map;
      return map;
    }),
    // The same weights as lines between tokens, a colour per head.
    lines: new TokenLines({ label: `${name}: lines from each query token to the key tokens, one colour per head` }),
  }));
  const blocks = uses.map((u, i) =>
    el(
      'div',
      { className: 'use', dataset: { use: ids[i] } },
      el('h3', { className: 'sub-title' }, u.name),
      el('div', { className: 'figures' }, ...u.figs.map((f) => f.element), u.lines.element),
    ),
  );
  // Choosing a box in the diagram brings that use's maps into view.
  const diagram = new UsesDiagram({
    caption: 'Where the three uses sit (one layer of each stack, two heads). Choose a purple box to go to its maps.',
    onSelect: (id) => {
      const block = blocks[ids.indexOf(id)];
      for (const b of blocks) b.classList.toggle('is-chosen', b === block);
      block.scrollIntoView({ block: 'nearest' });
      diagram.update({ ...diagramState, selected: id });
    },
  });
  let diagramState = null;
  return {
    element: step({
      title: '7. Three uses in a Transformer',
      intro: [
        el(
          'p',
          {},
          'The same multi-head attention appears three times. In the encoder, every source token attends to every source token (self-attention; padding masked). ',
          'In the decoder, every target token attends to the target tokens up to itself (masked self-attention). Between them, every target token queries the encoder’s output: ',
          'queries from the decoder, keys and values from the encoder (encoder–decoder attention). Two heads each, random weights; edit the sentences.',
        ),
      ],
      controls: [
        textField(
          'source sentence (encoder)',
          state.source,
          edit((t) => (state.source = t)),
        ),
        textField(
          'target sentence (decoder)',
          state.target,
          edit((t) => (state.target = t)),
        ),
        seedField(
          'weights seed',
          state.usesSeed,
          edit((v) => (state.usesSeed = v)),
        ),
      ],
      output: lines,
      figures: [diagram.element, el('div', { className: 'figures' }, sFig.element, tFig.element), ...blocks],
    }),
    show({ S, T, runs }) {
      sFig.update(S, { rowLabels: runs[0].rowLabels });
      tFig.update(T, { rowLabels: runs[1].rowLabels });
      runs.forEach((run, u) => {
        run.weights.forEach((w, h) =>
          uses[u].figs[h].update(w, { rowLabels: run.rowLabels, colLabels: run.colLabels, isMasked: run.isMasked }),
        );
        uses[u].lines.update({
          queries: run.rowLabels,
          keys: run.colLabels,
          heads: run.weights.map((weights, h) => ({ name: `head ${h + 1}`, weights })),
        });
      });
      diagramState = { layers: 1, heads: 2, selected: null, source: state.source, target: state.target };
      diagram.update(diagramState);
      lines.textContent = M.usesNumpyLines(state.usesSeed);
    },
  };
}

function introduction() {
  return [
    el('h1', { className: 'chapter-title' }, 'Attention is all you need, hands on'),
    credit({
      text: 'Follows section 3.2 of',
      title: 'Vaswani et al., “Attention Is All You Need” (2017)',
      url: 'https://arxiv.org/abs/1706.03762',
      note: 'The explanations here are our own; every number is computed live by the WebAssembly core',
    }),
    credit({
      text: 'The PyTorch sketches of attention and multi-head attention quoted in the',
      title: 'neqkir/attention-mechanism notes',
      url: 'https://github.com/neqkir/attention-mechanism',
      note: 'come from The Annotated Transformer (Harvard NLP, nlp.seas.harvard.edu/annotated-transformer); the masks, the head split and the three uses follow them',
    }),
    el(
      'p',
      { className: 'lede' },
      'A Transformer has no recurrence: every token looks at every other token directly, through attention. ',
      'Here is that mechanism, one piece at a time, on inputs you can change. The embeddings and weight matrices are random (seeded), as in an untrained model: ',
      'the point is the arithmetic, not what a trained model would attend to. ',
      'For that, the last chapter, ',
      el('a', { href: '#chapter=trained' }, 'A Transformer trained in your browser'),
      ', trains one and shows what its heads learned.',
    ),
  ];
}

/**
 * Draws `matrix` on `figure` unless the figure already shows this very matrix
 * with these very options (compared by identity: the chapter keeps a matrix
 * object as long as its inputs are unchanged, so same object = same numbers).
 */
const shown = new WeakMap();
function paintOnce(figure, matrix, options) {
  const last = shown.get(figure);
  if (last && last.matrix === matrix && sameEntries(last.options, options)) return false;
  shown.set(figure, { matrix, options });
  figure.update(matrix, options);
  return true;
}
const sameEntries = (a, b) =>
  Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((key) => a[key] === b[key]);

/** Runs `compute` only when `key` changed since the last call with this slot. */
function memoize() {
  const keys = new Map();
  return (slot, key, compute) => {
    if (keys.get(slot) === key) return false;
    keys.set(slot, key);
    compute();
    return true;
  };
}

export default {
  id: 'transformer',
  title: 'Attention is all you need, hands on',
  summary:
    'Scaled dot-product attention with queries, keys and values, why scores are divided by √d_k, padding and causal masks, and multi-head attention in a Transformer.',

  /**
   * @param {HTMLElement} root
   * @param {{api: import('attention-lab').Attention}} context
   */
  render(root, { api, store = urlStore }) {
    const read = M.consistent(store.readState(M.SCHEMA));
    const state = { ...read, flips: M.parseFlips(read.flips) };
    const save = () => store.writeState(M.SCHEMA, { ...state, flips: [...state.flips].join(',') });
    // The permalink is written once edits pause (SAVE_PAUSE_MS after the last):
    // history.replaceState costs 2 to 9 ms at n = 128 (bench/frame-profile.mjs),
    // a third of a seed edit inside update() and as much again before the next
    // frame in a task of its own, on every one of a burst of edits.
    let pendingSave = 0;
    const saveSoon = () => {
      clearTimeout(pendingSave);
      pendingSave = setTimeout(save, SAVE_PAUSE_MS);
    };
    // figures: by tensor name, for the readouts (the sources they outline) and the formula links.
    // trace: the forward pass as named tensors, from which every figure explains its cells.
    const trace = new Trace();
    const ctx = { state, update: () => update(), figures: {} };
    ctx.explain = storyForFigures(trace, ctx.figures);
    ctx.edit = (change) => (value) => {
      change(value);
      update();
    };
    const s1 = inputsStep(ctx);
    ctx.headsSlot = s1.headsSlot;
    const steps = [
      s1,
      scoresStep(ctx),
      scalingStep(ctx),
      attentionStep(ctx),
      maskStep(ctx),
      headsStep(ctx),
      usesStep(ctx),
    ];
    const [, s2, s3, s4, s5, s6, s7] = steps;
    const error = errorLine();
    const changed = memoize();
    const data = {};
    // Steps 1, 2, 4, 5 and 6 write into the same matrices on every edit (workspace.js).
    const slot = workspace(api);
    let cancelCheck = () => {};

    // Each part is recomputed only when its inputs changed (an edit of the
    // mask does not redo the projections, a new seed redoes everything).
    function update() {
      const t0 = performance.now();
      guarded(error, () => {
        const tokens = M.tokensOf(state);
        const n = tokens.length;
        // The labels (and the mask below) stay the same objects while their inputs do,
        // so a figure whose matrix and labels are unchanged is not repainted (paintOnce).
        changed('view', JSON.stringify(tokens), () => {
          data.view =
            n <= 24
              ? { labels: { rowLabels: tokens, colLabels: tokens }, rowsOnly: { rowLabels: tokens } }
              : { labels: { rowLabels: undefined, colLabels: undefined }, rowsOnly: { rowLabels: undefined } };
        });
        const view = data.view;
        const keyA = JSON.stringify([tokens, state.dModel, state.seed]);
        changed('A', keyA, () => {
          data.inputs = M.drawInputs(api, tokens, state.dModel, state.seed, slot);
          data.proj = M.projections(api, data.inputs, slot);
          data.labels = n <= 24 ? tokens : null;
          traceProjections(trace, data.inputs, data.proj, data.labels);
          s1.show(data.inputs, data.proj, view);
          s2.show(data.proj, view);
          s4.show(data.proj, view);
        });
        changed('demo', `${state.demoSeed}/${state.dk}`, () =>
          traceDemo(trace, ...s3.show(M.scalingDemo(api, state.demoSeed))),
        );
        const keyMask = `${n}|${state.padding}|${state.causal}|${[...state.flips].join(',')}`;
        changed('mask', keyMask, () => (data.mask = M.buildMask(n, state)));
        const keyB = `${keyA}|${keyMask}`;
        changed('B', keyB, () => {
          const masked = M.maskedAttention(api, data.proj, data.mask, slot);
          traceMasked(trace, data.mask, masked, data.labels);
          s5.show(data.mask, masked, view);
        });
        changed('C', `${keyB}|${state.heads}`, () => {
          cancelCheck();
          const [inputs, mask] = [data.inputs, data.mask];
          const byHand = M.multiHeadByHand(api, inputs, data.proj, state.heads, mask, slot);
          traceHeads(api, trace, byHand, data.labels);
          s6.show(byHand, mask, view);
          // The one-call check draws nothing and repeats the whole of step 6
          // (projections, every head, Wo): it runs after this edit's frame is
          // painted (bench/frame.mjs times it apart, as data-check-ms).
          cancelCheck = afterNextPaint(() => {
            const t1 = performance.now();
            try {
              s6.showCheck(byHand, M.oneCallCheck(api, inputs, byHand, mask, slot));
            } catch (e) {
              s6.showCheckError(byHand, e);
            }
            root.dataset.checkMs = (performance.now() - t1).toFixed(2); // read by bench/frame.mjs
          });
        });
        changed('D', JSON.stringify([state.usesSeed, state.source, state.target]), () => {
          const uses = M.threeUses(api, state);
          traceUses(api, trace, uses);
          s7.show(uses);
        });
        saveSoon();
      });
      const ms = performance.now() - t0;
      root.dataset.updateMs = ms.toFixed(2); // read by bench/frame.mjs; not shown to readers
    }

    root.append(...introduction(), ...steps.map((s) => s.element), error);
    linkFormulas(root, ctx.figures);
    update();
  },
};
