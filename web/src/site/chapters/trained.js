// Chapter "A Transformer trained in your browser": the encoder–decoder
// Transformer of "Attention is all you need", trained on the NMT chapter's
// date task by the C++ core (a TransformerTrainer in the training worker). It
// opens with a shipped checkpoint, so every map already means something: the
// three uses of attention as boxes, a model view (every layer × head), one head
// large, a head view (lines between tokens, one colour per head), the
// positional encoding, sentences about what the heads do (measured on the
// reader's input), live training from scratch, and the RNN side by side.
import { asInput, credit, errorLine, step } from '../chapter-kit.js';
import { storyForFigures, Trace } from '../explain/trace.js';
import { el } from '../dom.js';
import { Heatmap, captioned } from '../figures/heatmap.js';
import { HeadGrid } from '../figures/head-grid.js';
import { LineChart } from '../figures/line-chart.js';
import { TokenLines } from '../figures/token-lines.js';
import { UsesDiagram } from '../figures/uses-diagram.js';
import { addPrerendered, tex } from '../math.js';
import { loadDataScript } from '../data-script.js';
import { urlStore } from '../url-state.js';
import { startShippedModel } from './engine-connection.js';
import { runControls } from './run-controls.js';
import { headTensor, projectionTensor, tracePositions, traceRnn, traceTranslation } from './trained-trace.js';
import { chars, decodeBase64, trainingStatus } from './nmt-model.js';
import {
  DEFAULT_INPUT,
  headName,
  labelsFor,
  MAX_INPUT,
  percent,
  SCHEMA,
  START,
  strongestHeads,
  TASKS,
  unreadable,
  USES,
} from './trained-model.js';
import speed from './training-speed.js';
import formulas from '../formulas/trained.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

// The site's copies, then the package's (the site hosted from node_modules/attention-lab/dist/site/).
const TRANSFORMER_CHECKPOINTS = ['transformer-checkpoint.js', '../elements/transformer-checkpoint.js'];
const RNN_CHECKPOINTS = ['nmt-checkpoint.js', '../elements/nmt-checkpoint.js'];
const useById = Object.fromEntries(USES.map((u) => [u.id, u]));

export default {
  id: 'trained',
  title: 'A Transformer trained in your browser',
  summary:
    'An encoder–decoder Transformer trained live on the date task: every layer and head of its three uses of attention, what the trained heads do, and the RNN side by side.',

  /**
   * @param {HTMLElement} root
   * @param {{api: import('attention-lab').Attention}} context
   */
  render(root, { api, store = urlStore, signal, assets = {} }) {
    const read = store.readState(SCHEMA);
    let task = 'dates';
    let input = read.input ?? DEFAULT_INPUT.dates;
    let use = read.use;
    let selected = { layer: read.layer, head: read.head };
    let pauseAt = read.pauseAt;
    const save = () =>
      store.writeState(SCHEMA, {
        input: input === DEFAULT_INPUT[task] ? null : input,
        use,
        layer: selected.layer,
        head: selected.head,
        pauseAt,
      });

    let model = null; // the 'ready' message: options, steps, alphabet, positional encoding
    let translation = null; // the last 'translation' message for `input`
    let checkpoint = null;
    let rnn = null; // the NMT chapter's shipped RNN, on the main thread (translating is cheap)
    // The model's numbers as a trace of named tensors: every map explains its cells from it.
    const trace = new Trace();
    const figures = {}; // tensor name -> the figure drawing it (the readouts outline sources there)
    const story = storyForFigures(trace, figures);
    const training = { running: false, steps: 0, loss: NaN, accuracy: NaN, stepsPerSecond: NaN, seconds: 0 };
    let reached = null; // { steps, seconds }: the first evaluation at >= 99 % since "from scratch"
    let source = 'shipped checkpoint';

    // ---- widgets
    const errors = errorLine();
    const inputBox = el('input', {
      type: 'text',
      value: input,
      className: 'nmt-input',
      attrs: { 'aria-label': 'input to translate', maxlength: MAX_INPUT, spellcheck: 'false' },
    });
    const outputText = el('output', { className: 'nmt-output', attrs: { 'aria-live': 'polite' } }, '…');
    const inputError = el('p', { className: 'error trained-input-error', attrs: { role: 'alert' }, hidden: true });
    const modelLine = el('p', { className: 'trained-model-line' }, 'loading the model…');
    const status = el('p', { className: 'nmt-status', attrs: { 'aria-live': 'polite' } }, '');
    const { startButton, pauseButton, pauseAtField, setRunning } = runControls({
      send: (message) => connection?.send(message),
      onChange: (running) => {
        training.running = running;
        showStatus();
      },
      pauseAt,
      onPauseAt: (step) => {
        pauseAt = step;
        save();
      },
    });
    const scratchButton = el('button', { type: 'button', disabled: true }, 'Reset (train from scratch)');
    const shippedButton = el('button', { type: 'button', disabled: true }, 'Load the shipped checkpoint');
    const taskSelect = el(
      'select',
      { attrs: { 'aria-label': 'task' } },
      ...TASKS.map(([id, label]) => el('option', { value: id, selected: id === task }, label)),
    );

    const diagram = new UsesDiagram({
      onSelect: (id) => chooseUse(id),
      caption:
        'The three places attention appears. Choose a purple box to show its maps below: queries always come from the block the box sits in; in encoder–decoder attention the keys and values are the encoder’s outputs.',
    });
    const grid = new HeadGrid({
      label: 'model view: every layer and head of the chosen use',
      onSelect: (layer, head) => {
        selected = { layer, head };
        save();
        drawViews();
      },
    });
    const large = new Heatmap({
      palette: 'purple',
      label: 'the chosen head’s attention weights',
      weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
      cellWidth: 26,
      cellHeight: 22,
      colLabelsOnTop: true,
      format: (w) => (w >= 0.1 ? w.toFixed(1).replace(/^0/, '') : ''),
      explain: (r, c) => story(headTensor(use, selected.layer, selected.head))(r, c),
    });
    const largeFigure = captioned(large, ' ');
    // The chosen use and layer's queries and keys as the model sent them: a weight's readout
    // outlines the rows and the head's columns its q·k came from.
    const projection = (what) =>
      asInput(new Heatmap({ palette: 'blue', label: what, annotate: false, cellWidth: 10, cellHeight: 16 }));
    const queriesMap = projection('queries Q = x W_q + b_q of the chosen use and layer');
    const keysMap = projection('keys K = x W_k + b_k of the chosen use and layer');
    const lines = new TokenLines({
      label: 'head view: lines from each query token to the key tokens, one colour per head',
      queryLabel: 'queries',
      keyLabel: 'keys',
    });
    const positions = new Heatmap({
      palette: 'purple',
      label: 'positional encoding: one row per position, one column per dimension',
      annotate: false,
      cellWidth: 12,
      cellHeight: 10,
      explain: story('pe'),
    });
    positions.element.dataset.sources = 'none'; // computed from the position alone: nothing to outline
    const positionsFigure = captioned(positions, ' ');
    const findings = el('ul', { className: 'trained-findings', attrs: { 'aria-live': 'polite' } });
    const curve = new LineChart({
      label: 'training loss per step',
      className: 'loss-curve',
      logY: true,
      xName: 'step',
      empty: 'press Reset, then Start, to train from scratch',
      caption: 'Training loss (cross-entropy per output character, log scale) against steps',
    });
    const rnnMap = new Heatmap({
      palette: 'purple',
      label: 'the RNN’s attention: output characters (rows) over input characters (columns)',
      weights: true, // 0 to 1, with 'Stretch contrast' in the figure's menu
      cellWidth: 22,
      cellHeight: 20,
      colLabelsOnTop: true,
      annotate: false,
      explain: story('rnn.weights'),
    });
    const rnnFigure = captioned(rnnMap, 'RNN with attention (the NMT chapter’s shipped model): its one attention map.');
    const rnnOutput = el('p', { className: 'trained-rnn-output' });
    const crossHeads = el('div', { className: 'figures heads trained-cross-heads' });
    const crossMaps = [];
    curve.draw();

    // ---- what the views show
    function chooseUse(id) {
      use = id;
      save();
      drawViews();
    }

    function drawViews() {
      if (!model) return;
      const { layers, heads } = model.options;
      selected = { layer: Math.min(selected.layer, layers - 1), head: Math.min(selected.head, heads - 1) };
      diagram.update({
        layers,
        heads,
        selected: use,
        source: `input: “${input}”`,
        target: `written so far: ${START}${translation?.output ?? ''}`,
      });
      root.dataset.trainedUse = use;
      if (!translation) return;
      const u = useById[use];
      const maps = translation[use];
      grid.update(maps, selected, u.name);
      const { rowLabels, colLabels } = labelsFor(use, input, translation.output);
      showProjections(rowLabels, colLabels);
      large.update(maps[selected.layer][selected.head], {
        rowLabels,
        colLabels,
        label: `${u.name}, ${headName(selected)}`,
        isMasked: use === 'decoderSelf' ? (r, c) => c > r : undefined,
      });
      large.caption.textContent = `${u.name}, ${headName(selected)}. Rows: ${u.rows}. Columns: ${u.cols}.${
        use === 'decoderSelf' ? ' Hatched cells are masked (the future): their weight is exactly 0.' : ''
      }`;
      lines.options.label = `head view of ${u.name}, layer ${selected.layer + 1}`;
      lines.update({
        queries: rowLabels,
        keys: colLabels,
        heads: maps[selected.layer].map((weights, h) => ({ name: `head ${h + 1}`, weights })),
      });
      lines.caption.textContent = `Head view of ${u.name}, layer ${selected.layer + 1}: every head at once, one colour each; a line is as opaque as its weight. Hover or focus a token to isolate its lines; the buttons show or hide heads.`;
      drawCross();
      root.dataset.trainedDrawn = String(Number(root.dataset.trainedDrawn ?? 0) + 1);
    }

    /** The chosen use and layer's queries and keys, named in `figures` for the readouts. */
    function showProjections(rowLabels, colLabels) {
      for (const key of Object.keys(figures)) if (/\.[QK]$/.test(key)) delete figures[key];
      figures[projectionTensor(use, selected.layer, 'Q')] = queriesMap;
      figures[projectionTensor(use, selected.layer, 'K')] = keysMap;
      const layer = `${useById[use].name}, layer ${selected.layer + 1}`;
      queriesMap.update(translation.queries[use][selected.layer], { rowLabels, label: `queries Q of ${layer}` });
      keysMap.update(translation.keys[use][selected.layer], { rowLabels: colLabels, label: `keys K of ${layer}` });
    }

    // The sentences about the heads, measured on this input with this model.
    function drawFindings() {
      findings.replaceChildren();
      if (!translation) return;
      const s = strongestHeads(translation, input, task);
      const show = (useId, where) =>
        el(
          'button',
          {
            type: 'button',
            className: 'small',
            on: {
              click: () => {
                use = useId;
                selected = { layer: where.layer, head: where.head };
                save();
                drawViews();
              },
            },
          },
          `show ${headName(where)}`,
        );
      const item = (...parts) => findings.append(el('li', {}, ...parts));
      if (s.cross && task === 'dates') {
        item(
          `Encoder–decoder attention reads each field where the input wrote it: while writing the year, month and day digits, ${headName(s.cross)} puts ${percent(s.cross.value)} of its weight on that field in the input (averaged over the 8 digits), whatever the format. `,
          show('cross', s.cross),
        );
      } else if (s.cross) {
        item(
          `Encoder–decoder attention finds the character to copy: while writing a digit, ${headName(s.cross)} puts ${percent(s.cross.value)} of its weight on the input positions holding that digit. `,
          show('cross', s.cross),
        );
      } else if (task === 'dates') {
        item(
          'This input does not show the year, month and day once each (or the translation is wrong), so the field alignment of encoder–decoder attention is not measured for it; try “21 November 2026”.',
        );
      }
      if (s.separator) {
        item(
          `Masked decoder self-attention keeps count of the fields: ${headName(s.separator)} puts ${percent(s.separator.value)} of each step’s weight on the last “-” written, which tells the step whether it is in the month or the day. `,
          show('decoderSelf', s.separator),
        );
      }
      if (s.start) {
        item(
          `Some decoder heads rest on the start token when they have nothing to look up: ${headName(s.start)} gives it ${percent(s.start.value)} of each step’s weight on average. `,
          show('decoderSelf', s.start),
        );
      }
      if (s.ownRun) {
        item(
          `Encoder self-attention mostly stays inside words and numbers: ${headName(s.ownRun)} keeps ${percent(s.ownRun.value)} of each character’s weight within its own word or number, so a digit learns whether it belongs to a year or a day. `,
          show('encoderSelf', s.ownRun),
        );
      }
    }

    // The side-by-side depends only on the translation and the chosen layer (not on the
    // chosen use or head): redrawn, with the RNN's translation, only when those change.
    let crossDrawn = { translation: null, layer: -1 };
    function drawCross() {
      if (!translation || !model) return;
      const layer = selected.layer;
      if (crossDrawn.translation === translation && crossDrawn.layer === layer) return;
      crossDrawn = { translation, layer };
      const maps = translation.cross[layer];
      const { rowLabels, colLabels } = labelsFor('cross', input, translation.output);
      while (crossMaps.length < maps.length) {
        const h = crossMaps.length;
        const map = new Heatmap({
          palette: 'purple',
          label: `Transformer encoder–decoder attention, head ${h + 1}`,
          weights: true,
          cellWidth: 14,
          cellHeight: 14,
          colLabelsOnTop: true,
          annotate: false,
          colorbar: false,
          explain: (r, c) => story(headTensor('cross', crossDrawn.layer, h))(r, c),
        });
        crossMaps.push(map);
      }
      // On the page first, then drawn: a heatmap reads its theme's ink from the page.
      crossHeads.replaceChildren(
        ...maps.map((_, h) => captioned(crossMaps[h], `Transformer, layer ${layer + 1}, head ${h + 1}`)),
      );
      maps.forEach((m, h) => crossMaps[h].update(m, { rowLabels, colLabels }));
      drawRnn();
    }

    function drawRnn() {
      if (!rnn) return;
      try {
        const r = rnn.translate(input);
        rnnOutput.textContent = `RNN: “${input}” → “${r.output}”; Transformer: “${translation?.output ?? '…'}”.`;
        traceRnn(trace, r, chars(r.output), chars(input));
        if (r.attention.rows > 0) rnnMap.update(r.attention, { rowLabels: chars(r.output), colLabels: chars(input) });
      } catch (error) {
        rnnOutput.textContent = `RNN: ${error.message}`;
      }
    }

    function showModel() {
      if (!model) return;
      const o = model.options;
      modelLine.textContent =
        `${source}: ${o.layers} encoder and ${o.layers} decoder layers, ${o.heads} heads, d_model ${o.dModel}, d_ff ${o.dFF}, ` +
        `${model.parameterCount.toLocaleString('en')} parameters, trained ${training.steps.toLocaleString('en')} steps of ${o.batch} examples.`;
    }

    function showStatus() {
      status.textContent = trainingStatus(training, {
        examples: task === 'dates' ? 'dates' : 'examples',
        onMainThread: connection?.onMainThread,
        after: [
          reached ? `99% reached at step ${reached.steps} after ${reached.seconds.toFixed(1)} s of training` : null,
        ],
      });
      root.dataset.trainedSteps = String(training.steps);
      showModel();
    }

    // ---- the engine
    let connection = null;
    function onMessage(data) {
      if (!root.isConnected) {
        connection?.stop(); // the reader moved to another chapter
        return;
      }
      if (data.type === 'ready') {
        model = data;
        Object.assign(training, { steps: data.steps, accuracy: data.accuracy, loss: NaN, seconds: 0 });
        curve.reset();
        for (const b of [startButton, scratchButton, shippedButton]) b.disabled = false;
        const pe = data.positionalEncoding;
        tracePositions(trace, pe);
        positions.update(pe, {
          rowLabels: Array.from({ length: pe.rows }, (_, i) => (i % 5 === 0 ? String(i) : '')),
          colLabels: Array.from({ length: pe.cols }, (_, i) => (i % 4 === 0 ? String(i) : '')),
        });
        positions.caption.textContent = `The positional encoding this model adds: ${pe.rows} positions (rows) × d_model = ${pe.cols} dimensions (columns), each between −1 and 1 (diverging colours: white is 0). Left columns turn fast, right ones slowly; every row is different.`;
        setRunning(false);
        drawViews();
        root.dataset.trainedReady = 'true';
      } else if (data.type === 'progress') {
        training.steps = data.steps;
        if (data.loss !== undefined) {
          training.loss = data.loss;
          training.stepsPerSecond = data.stepsPerSecond;
          curve.add(data.steps, data.loss);
        }
        if (data.paused) setRunning(false); // it reached "pause at step"
        if (data.accuracy !== undefined) {
          training.accuracy = data.accuracy;
          if (source === 'from scratch' && !reached && data.accuracy >= 0.99) {
            reached = { steps: data.steps, seconds: data.trainingSeconds };
          }
        }
        showStatus();
      } else if (data.type === 'translation') {
        if (data.input !== input) return; // a newer input is on its way
        translation = data;
        traceTranslation(api, trace, data, input);
        inputError.hidden = true;
        outputText.textContent = data.output === '' ? '(nothing yet: the model has not learned to write)' : data.output;
        root.dataset.trainedOutput = data.output;
        drawViews();
        drawFindings();
      } else if (data.type === 'translation-error') {
        if (data.input !== input) return;
        inputError.hidden = false;
        const bad = model ? unreadable(input, model.alphabet) : null;
        inputError.textContent = bad
          ? `The model cannot read “${bad}”: it knows letters, digits, spaces and , . / - only.`
          : input.length === 0
            ? 'Type something to translate.'
            : input.length > (model?.maxInputLength ?? MAX_INPUT)
              ? `The model reads at most ${model.maxInputLength} characters.`
              : data.message;
        outputText.textContent = '—';
      } else if (data.type === 'error') {
        errors.hidden = false;
        errors.textContent = data.message;
        setRunning(false);
      }
    }

    // ---- controls
    const fromScratch = () => {
      source = 'from scratch';
      reached = null;
      translation = null;
      connection?.send({ type: 'reset', model: 'transformer', options: { task, seed: 0 }, input });
      setRunning(false);
    };
    scratchButton.addEventListener('click', fromScratch);
    shippedButton.addEventListener('click', () => {
      source = 'shipped checkpoint';
      reached = null;
      if (task !== 'dates') {
        task = 'dates';
        taskSelect.value = task;
        setInput(DEFAULT_INPUT.dates);
      }
      connection?.send({ type: 'reset', model: 'transformer', checkpoint, input });
    });
    taskSelect.addEventListener('change', () => {
      const previousDefault = input === DEFAULT_INPUT[task];
      task = taskSelect.value;
      if (previousDefault || task !== 'dates') setInput(DEFAULT_INPUT[task]);
      fromScratch();
    });
    const setInput = (text) => {
      input = text;
      inputBox.value = text;
      save();
    };
    inputBox.addEventListener('input', () => {
      setInput(inputBox.value);
      connection?.send({ type: 'translate', input });
    });

    // The speeds npm run bench measured (training-speed.js), both models on each task, one run.
    const speedTable = () => {
      const name = (r) => (r.model.startsWith('transformer') ? 'Transformer' : 'RNN with attention');
      const rows = speed.results.map((r) =>
        el(
          'tr',
          {},
          el('td', {}, r.task ?? 'dates'),
          el('td', {}, name(r)),
          el('td', {}, r.stepsPerSecondCpu.toFixed(1)),
          el('td', {}, r.reached ? r.stepsToTarget.toLocaleString('en') : 'not reached'),
          el('td', {}, r.reached ? `${r.secondsToTargetCpu.toFixed(1)} s` : '—'),
        ),
      );
      const table = el(
        'table',
        { className: 'trained-speed' },
        el(
          'caption',
          {},
          `Measured by npm run bench on ${speed.date} (${speed.cpu}, Node ${speed.node}, one thread; CPU time, evaluation not counted): default options, seed 0, exact match on all ${speed.heldOut} held-out examples of the task.`,
        ),
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            el('th', {}, 'task'),
            el('th', {}, 'model'),
            el('th', {}, 'steps per second'),
            el('th', {}, 'steps to 99%'),
            el('th', {}, 'time to 99%'),
          ),
        ),
        el('tbody', {}, ...rows),
      );
      return el('div', { className: 'table-scroll' }, table); // scrolls sideways on a phone
    };

    root.append(
      el('h1', { className: 'chapter-title' }, 'A Transformer trained in your browser'),
      credit({
        text: 'The model of Vaswani et al.,',
        title: 'Attention is all you need (2017)',
        url: 'https://arxiv.org/abs/1706.03762',
        note: 'whose three uses of multi-head attention the seed notebook 003 describes; trained here on the NMT chapter’s date task. The model, its gradients, Adam and the training loop are our own C++ compiled to WebAssembly',
      }),
      el(
        'p',
        { className: 'lede' },
        'The Transformer chapter showed the three uses of attention with random weights, so every map was noise. Here the same mechanism is trained: a small encoder–decoder Transformer learned to turn dates as people write them into ISO dates, and its heads found jobs. It opens with a checkpoint trained by this code (npm run train-transformer-checkpoint); you can also train it from scratch below, in a Web Worker.',
      ),
      step({
        title: '1. The model, and where attention sits in it',
        intro: [
          el(
            'p',
            {},
            'Characters become vectors (the encoder and decoder have separate embedding tables, since they read different alphabets), scaled by ',
            tex('\\sqrt{d_{model}}'),
            ' and added to a positional encoding. Each layer applies attention, then a position-wise feed-forward network, each wrapped in a residual connection. We normalise before each sublayer (pre-LN) rather than after it as the paper does: with pre-LN this small model trains with a short warm-up and no tuning, and the residual path stays an identity.',
          ),
        ],
        formula: [
          'x \\leftarrow x + \\operatorname{MultiHead}(\\operatorname{LN}(x))',
          'x \\leftarrow x + \\operatorname{FFN}(\\operatorname{LN}(x))',
          '\\operatorname{FFN}(x) = \\max(0, xW_1 + b_1)W_2 + b_2',
        ],
        output: modelLine,
        figures: [diagram.element],
      }),
      step({
        title: '2. Positions',
        intro: [
          'Attention itself ignores order: permute the keys and the weights permute with them. So each position gets its own pattern of sines and cosines, added to the character’s vector; a fixed offset between two positions is a fixed rotation of these pairs, which attention can learn to look for.',
        ],
        formula: [
          'PE_{(t,\\,2i)} = \\sin\\!\\left(t / 10000^{2i/d_{model}}\\right)',
          'PE_{(t,\\,2i+1)} = \\cos\\!\\left(t / 10000^{2i/d_{model}}\\right)',
        ],
        figures: [positionsFigure],
      }),
      step({
        title: '3. Translate, and look at every head',
        intro: [
          'Type a date. The model view shows every layer (rows) and head (columns) of the use chosen in the diagram above; pick one to open it large. The head view draws the chosen layer’s heads together as lines between tokens.',
        ],
        controls: [el('label', { className: 'control-label' }, 'Input ', inputBox), el('span', {}, ' → '), outputText],
        output: inputError,
        figures: [grid.element, largeFigure, queriesMap.element, keysMap.element, lines.element],
      }),
      step({
        title: '4. What the trained heads do',
        intro: [
          'Measured on your input with the model as it is now (the shipped checkpoint, or your own training run). With the shipped checkpoint we saw encoder–decoder heads align each output field with the input field it comes from, decoder heads watching the last separator, and heads parking their weight on the start token; each sentence below is computed from the maps, so it changes with the input and with training.',
        ],
        figures: [findings],
      }),
      step({
        title: '5. Train it from scratch',
        intro: [
          'Reset starts from random weights (seed 0, the defaults above) and Start trains in a Web Worker with Adam and the paper’s warm-up schedule. Every few seconds the worker measures exact match on 200 held-out examples and sends new maps: watch the heads go from uniform to sharp. Other tasks grow other patterns: on reversal, the last layer’s encoder–decoder heads shift their weight onto the digit being copied (an anti-diagonal); on sorting, they look a digit up by its value wherever it stands — attention by content, not by position. Step 4 measures the share.',
        ],
        controls: [
          el('label', { className: 'control-label' }, 'Task ', taskSelect),
          startButton,
          pauseButton,
          pauseAtField,
          scratchButton,
          shippedButton,
        ],
        formula: 'lrate = d_{model}^{-0.5} \\cdot \\min(step^{-0.5},\\; step \\cdot warmup^{-1.5})',
        output: status,
        figures: [curve.element],
        after: [errors],
      }),
      step({
        title: '6. Side by side with the RNN',
        intro: [
          'The NMT chapter’s RNN with attention has one attention map: one query per output character (the decoder state). The Transformer has layers × heads of them. Below, the same input through both models: the RNN’s map, then the Transformer’s encoder–decoder heads of the chosen layer.',
        ],
        output: rnnOutput,
        figures: [rnnFigure],
        after: [crossHeads, speedTable()],
      }),
    );

    signal?.addEventListener('abort', () => {
      connection?.stop();
      connection = null;
      rnn?.delete();
      rnn = null;
    });

    // The checkpoints and the worker's source are data scripts loaded now, not part of the page's first load.
    const showError = (message) => {
      errors.hidden = false;
      errors.textContent = message;
    };
    startShippedModel({
      api,
      assets,
      signal,
      model: 'transformer',
      checkpoint: {
        key: 'transformer-dates',
        urls: assets.transformerCheckpoint ? [assets.transformerCheckpoint] : TRANSFORMER_CHECKPOINTS,
      },
      input,
      onMessage,
      onError: showError,
    }).then(
      (started) => started && ({ checkpoint, connection } = started),
      (error) => showError(`The model could not be loaded (${error.message}). Reload the page to try again.`),
    );
    loadDataScript('seq2seq-dates', assets.nmtCheckpoint ? [assets.nmtCheckpoint] : RNN_CHECKPOINTS).then(
      (base64) => {
        if (signal?.aborted) return;
        rnn = api.Seq2SeqTrainer.load(decodeBase64(base64));
        root.dataset.trainedRnn = 'true';
        drawRnn();
      },
      () => {
        rnnOutput.textContent = 'The RNN’s checkpoint could not be loaded.';
      },
    );
  },
};
