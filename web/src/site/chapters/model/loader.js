// Opening models for the model chapter, one at a time (a newer request aborts the
// one still loading): the reader's files, the demo through its data script, or a
// course site's model-src folder; the open step shows progress, Cancel and errors.
// The model opens and runs in a worker (lesson-kit/model-proxy.js): the chapter
// gets a proxy whose methods return promises.
import { loadDataScript } from '../../data-script.js';
import { openModelOffThread } from '../../lesson-kit/model-proxy.js';
import { demoFiles, folderUrls } from './model.js';

// The demos: the site's copy, then the package's (the site hosted from
// node_modules/attention-lab/dist/site/). The package carries the GPT-2 demo only
// (its size), so a lesson offers the Llama demo when its host gives one (assets.llamaDemo).
const DEMOS = {
  demo: {
    script: 'gpt2-demo',
    label: 'the demo model',
    files: ['gpt2-demo.js', '../elements/gpt2-demo.js'],
    asset: 'demoModel',
  },
  llama: { script: 'llama-demo', label: 'the Llama demo model', files: ['llama-demo.js'], asset: 'llamaDemo' },
};
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
    openModelOffThread(api, assets, files, origins ? { ...options, origins } : options).then(
      (m) => {
        if (loading !== controller || signal?.aborted) return m.delete();
        loading = null;
        const c = m.config;
        const gpt2 = 'n_layer' in c;
        const [layers, heads, width] = gpt2
          ? [c.n_layer, c.n_head, `n_embd ${c.n_embd}`]
          : [c.num_hidden_layers, c.num_attention_heads, `hidden_size ${c.hidden_size}`];
        const kv =
          c.num_key_value_heads && c.num_key_value_heads < heads
            ? ` sharing ${c.num_key_value_heads} key/value heads`
            : '';
        const most = gpt2 ? c.n_positions : c.max_position_embeddings;
        const family = gpt2 ? '' : `; ${m.family}`;
        const threads = m.threads > 1 ? `; running on ${m.threads} threads` : '';
        open.done(
          `open: ${label} (${layers} layers × ${heads} heads${kv}, ${width}, ${c.vocab_size} tokens, at most ${most} per text${family}${threads})`,
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

  /** Whether demo `which` can be had here: the site has both; a lesson the ones its host gives. */
  const hasDemo = (which) => !assets.demoModel || Boolean(assets[DEMOS[which].asset]);

  function loadDemo(which = 'demo') {
    const demo = DEMOS[which];
    open.loading(demo.label);
    const from = assets.demoModel ? [assets[demo.asset]] : demo.files;
    loadDataScript(demo.script, from).then(
      (value) => openFiles(demoFiles(value), demo.label, which),
      (error) => {
        open.showError(`${demo.label} could not be loaded (${message(error)})`);
        open.done(hasModel() ? 'the model before stays open' : 'no model open');
      },
    );
  }

  /** The first model: the lesson's model-src folder, else the demo (the link's). */
  function start(linkSource) {
    const linkWasOwn = linkSource === 'own';
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
    loadDemo(linkSource === 'llama' && hasDemo('llama') ? 'llama' : 'demo');
  }

  return { openFiles, loadDemo, hasDemo, start, cancel: () => loading?.abort() };
}
