// The chapter's entry in the contents bar, permalinks (#chapter=glove) and oEmbed files:
// the one copy of its id, title and summary (scripts/chapters.mjs reads it).
export default {
  id: 'glove',
  title: 'Attention between two sentences',
  summary:
    'Real GloVe word vectors for two editable sentences: dot-product, trainable and additive attention, plotted token by token.',
  order: 50,
};
