// Opening models for the model chapter, one at a time (a newer request aborts the
// one still loading): the reader's files, the demo through its data script, or a
// course site's model-src folder; the open step shows progress, Cancel and errors.
import { loadDataScript } from '../../data-script.js';
import { demoFiles, folderUrls } from './model.js';

// The site's copy, then the package's (the site hosted from node_modules/attention-lab/dist/site/).
const DEMO_SCRIPTS = ['gpt2-demo.js', '../elements/gpt2-demo.js'];
export const message = (error) => (error instanceof Error ? error.message : String(error));

/**
 * @param {{ api: any, open: ReturnType<import('./steps/open-step.js').openStep>, signal?: AbortSignal,
 *           assets: object, hasModel: () => boolean, onModel: (model: any, from: string) => void,
 *           onFailed: () => void }} context
 */
export function modelLoader({ api, open, signal, assets, hasModel, onModel, onFailed }) {
  let loading = null; // the AbortController of the model being opened

  /** `origins`: where URL files may be answered from, after redirects (model-src: the page's own). */
  function openFiles(files, label, from, origins) {
    loading?.abort();
    const controller = new AbortController();
    loading = controller;
    open.loading(label);
    const options = { onProgress: (p) => open.progress(p), signal: controller.signal };
    api.openModel(files, origins ? { ...options, origins } : options).then(
      (m) => {
        if (loading !== controller || signal?.aborted) return m.delete();
        loading = null;
        if (m.family !== 'gpt2') {
          // openModel reads BERT folders too; this chapter's views are GPT-2's (causal maps, next token).
          m.delete();
          open.showError(
            `this folder holds a ${m.family.toUpperCase()} model; this chapter opens GPT-2 models (a BERT opens with the API: openModel)`,
          );
          open.done(hasModel() ? 'the model before stays open' : 'no model open');
          return onFailed();
        }
        const c = m.config;
        open.done(
          `open: ${label} (${c.n_layer} layers × ${c.n_head} heads, n_embd ${c.n_embd}, ${c.vocab_size} tokens, at most ${c.n_positions} per text)`,
        );
        onModel(m, from);
      },
      (error) => {
        if (loading === controller) loading = null;
        if (error?.name === 'AbortError')
          open.done(hasModel() ? 'loading cancelled: the model before stays open' : 'loading cancelled');
        else {
          open.showError(message(error));
          open.done(hasModel() ? 'the model before stays open' : 'no model open');
        }
        onFailed();
      },
    );
  }

  function loadDemo() {
    open.loading('the demo model');
    loadDataScript('gpt2-demo', assets.demoModel ? [assets.demoModel] : DEMO_SCRIPTS).then(
      (value) => openFiles(demoFiles(value), 'the demo model', 'demo'),
      (error) => open.showError(`the demo model could not be loaded (${message(error)})`),
    );
  }

  /** The first model: the lesson's model-src folder, else the demo. */
  function start(linkWasOwn) {
    if (assets.modelSrc) {
      try {
        const files = folderUrls(assets.modelSrc, document.baseURI, location.origin);
        return openFiles(files, assets.modelSrc, 'own', [location.origin]);
      } catch (error) {
        open.showError(message(error));
      }
    } else if (linkWasOwn) {
      open.showError(
        'This link was made with a model of your own: open its folder again (a link cannot carry files). Meanwhile, the demo model.',
      );
    }
    loadDemo();
  }

  return { openFiles, loadDemo, start, cancel: () => loading?.abort() };
}
