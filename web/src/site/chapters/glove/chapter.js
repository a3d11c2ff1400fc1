// Chapter "Attention between two sentences": real GloVe word vectors, dot-product
// attention between the tokens of two editable sentences, trainable attention
// with learned projections, and additive attention over every query–key pair.
// Every number comes from the attention-lab API (wasm). One module per step in
// glove/ (see README.md); this file reads the state, loads the vectors, builds
// the steps and recomputes.
import { el } from '../../dom.js';
import { credit, errorLine, guarded, inputEditor, showSteps } from '../../chapter-kit.js';
import { tracedFigures } from '../../explain/trace.js';
import { addPrerendered } from '../../math.js';
import { linkFormulas } from '../../formula-links.js';
import { staged } from '../../stages.js';
import { urlStore } from '../../url-state.js';
import { SCHEMA, additiveAttention, sentencesAttention, trainableAttention } from './model.js';
import { gloveQuestions } from './predict.js';
import { additiveStep } from './steps/additive-step.js';
import { dotStep } from './steps/dot-step.js';
import { embeddingsStep } from './steps/embeddings-step.js';
import { loadedOwnTable } from './steps/own-file.js';
import { sentencesStep } from './steps/sentences-step.js';
import { bytesText } from './steps/shared.js';
import { trainableStep } from './steps/trainable-step.js';
import { vectorsStep } from './steps/vectors-step.js';
import formulas from './formulas.js';
import meta from './meta.js';

addPrerendered(formulas); // this chapter's formulas, typeset at build time

// The shipped table outlives a render of the chapter: one per API instance and URL.
/** @type {WeakMap<object, Map<string, Promise<any>>>} */
const shippedTables = new WeakMap();

/** A layer kept while its sizes and seed stay the same (a plain JS object: nothing to free). */
function cachedLayer(create) {
  let key = null;
  let layer = null;
  return (nextKey, options) => {
    if (key !== nextKey) {
      layer = create(options);
      key = nextKey;
    }
    return layer;
  };
}

/** The shipped vectors of `assets.vectors` (or the API's default URL), loaded once per API instance. */
function shippedVectors(api, assets, onProgress) {
  const tables = shippedTables.get(api) ?? new Map();
  shippedTables.set(api, tables);
  const vectorsKey = assets.vectors === undefined ? '' : String(assets.vectors);
  if (!tables.has(vectorsKey)) {
    const load = (url) => api.loadDefaultEmbeddings({ ...(url === undefined ? {} : { url }), onProgress });
    // vectorsFallback: the package's copy, for the site hosted from node_modules (see app.js).
    const loading = load(assets.vectors).catch((error) =>
      assets.vectorsFallback ? load(assets.vectorsFallback) : Promise.reject(error),
    );
    tables.set(vectorsKey, loading);
    loading.catch(() => tables.delete(vectorsKey));
  }
  return tables.get(vectorsKey);
}

export default {
  ...meta, // id, title, summary

  /**
   * @param {HTMLElement} root
   * @param {{api: import('attention-lab').Attention}} context
   */
  render(root, { api, store = urlStore, signal, assets = {} }) {
    const state = {
      ...store.readState(SCHEMA),
      shipped: null, // the shipped Embeddings once loaded
      useOwn: loadedOwnTable() !== null,
    };
    const table = () => (state.useOwn && loadedOwnTable() ? loadedOwnTable().E : state.shipped);
    const trainable = cachedLayer((o) => api.createTrainableAttention(o));
    const additive = cachedLayer((o) => api.createAdditiveAttention(o));
    const { trace, figures, story } = tracedFigures(); // every figure explains its cells from the trace
    let attention = null; // the latest sentencesAttention(), whose mask the maps hatch
    const edit = inputEditor(
      state,
      () => steps,
      () => update(),
    );
    const ctx = {
      api,
      assets,
      signal,
      state,
      edit,
      table,
      figures,
      story,
      questions: gloveQuestions(), // predict, then reveal: one per computing step
      attention: () => attention,
      vocabulary: () => {
        const words = [...api.tokenize(state.query), ...api.tokenize(state.key)];
        return [...new Set([...words, ...words.map((w) => w.toLowerCase())])];
      },
    };
    const vectors = vectorsStep(ctx);
    const steps = [
      sentencesStep(ctx),
      vectors,
      embeddingsStep(ctx),
      dotStep(ctx),
      trainableStep(ctx),
      additiveStep(ctx),
    ];
    const error = errorLine();

    /** Tokens always; with a table, the three attentions, each stage stopping only what needs it. */
    function compute(E) {
      const run = staged({ qTokens: api.tokenize(state.query), kTokens: api.tokenize(state.key) });
      const { r, stage } = run;
      if (!E) return run;
      stage('attention', () => {
        if (!r.qTokens.length || !r.kTokens.length) throw new Error('Type at least one word in each sentence.');
        const a = sentencesAttention(api, E, state.query, state.key, { cosine: state.cosine, trace });
        return { attention: a, dot: a.dot }; // the dot step needs `dot`: greyed, not failed, when this fails
      });
      if (!r.attention) return run;
      stage('trained', () => {
        const options = { inFeatures: E.dim, outFeatures: state.dim, seed: state.trainableSeed };
        const layer = trainable(`${E.dim} ${state.dim} ${state.trainableSeed}`, options);
        const trained = trainableAttention(api, layer, r.attention, trace);
        return { trained };
      });
      stage('added', () => {
        const options = { inFeatures: E.dim, hiddenFeatures: state.dim, seed: state.additiveSeed };
        const layer = additive(`${E.dim} ${state.dim} ${state.additiveSeed}`, options);
        const added = additiveAttention(api, layer, r.attention, trace);
        return { added };
      });
      return run;
    }

    function update() {
      store.writeState(SCHEMA, state);
      guarded(error, () => {
        const E = table();
        const run = compute(E);
        if (run.r.attention) attention = run.r.attention;
        // Before the vectors are in, only the sentences and the loading step have anything to show.
        showSteps(E ? steps : steps.slice(0, 2), run.r, run.failures);
      });
    }

    root.append(
      el('h1', { className: 'chapter-title' }, meta.title),
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
      ...steps.map((s) => s.element),
      error,
    );
    linkFormulas(root, figures);

    update();
    const { loadStatus } = vectors;
    shippedVectors(api, assets, (p) => {
      if (p.totalBytes)
        loadStatus.textContent = `Loading the shipped GloVe vectors… ${bytesText(p.bytesRead)} of ${bytesText(p.totalBytes)}`;
    }).then(
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
