// The chapters, in reading order: one line each (see README.md here). The id,
// title and summary serve the contents bar, permalinks and the oEmbed files
// without loading the chapter; load() imports the chapter module, whose default
// export is { id, title, summary, render(root, { api, store, signal, assets }) },
// only when a reader opens it (a chunk of its own: dynamic import() in module
// builds, an injected classic script on the site, see scripts/build-site-chapters.mjs).
// prettier-ignore
export const CHAPTERS = [
  { id: 'basics', title: 'Attention Basics', summary: 'Score encoder states against a decoder state, turn scores into weights with softmax, and build the context vector.', load: () => import('./basics.js') },
  // ---- chapter entries: one per line ----
  { id: 'bahdanau', title: 'Bahdanau additive attention', summary: 'Score encoder states with a small tanh network (Bahdanau et al., 2014), softmax the scores and build the context vector, all from NumPy-exact random inputs.', load: () => import('./bahdanau.js') },
  { id: 'qkv', title: 'Q/K/V attention from scratch', summary: 'Queries, keys and values for four toy words: project, score every pair, softmax with 1/√d_k, and mix the values.', load: () => import('./qkv.js') },
  { id: 'transformer', title: 'Attention is all you need, hands on', summary: 'Scaled dot-product attention with queries, keys and values, why scores are divided by √d_k, padding and causal masks, and multi-head attention in a Transformer.', load: () => import('./transformer.js') },
  { id: 'glove', title: 'Attention between two sentences', summary: 'Real GloVe word vectors for two editable sentences: dot-product, trainable and additive attention, plotted token by token.', load: () => import('./glove.js') },
  { id: 'nmt', title: 'Neural machine translation with attention', summary: 'Train an encoder–decoder with attention to normalise dates, live in a Web Worker, and watch which input characters each output character attends to.', load: () => import('./nmt.js') },
  { id: 'trained', title: 'A Transformer trained in your browser', summary: 'An encoder–decoder Transformer trained live on the date task: every layer and head of its three uses of attention, what the trained heads do, and the RNN side by side.', load: () => import('./trained.js') },
  { id: 'model', title: 'Open a real model', summary: 'Open a GPT-2 from its Hugging Face files (or the built-in demo model) and see every layer and head on your sentence, each weight explained down to q·k/√d_k.', load: () => import('./model.js') },
];

/** The chapter module of `entry` (cached by the module system), checked against its entry here. */
export async function loadChapter(entry) {
  const { default: chapter } = await entry.load();
  if (chapter?.id !== entry.id || typeof chapter.render !== 'function')
    throw new Error(`chapters/index.js: the module of "${entry.id}" exports chapter "${chapter?.id}"`);
  return chapter;
}
