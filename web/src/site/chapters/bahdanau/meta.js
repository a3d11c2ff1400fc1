// The chapter's entry in the contents bar, permalinks (#chapter=bahdanau) and oEmbed files:
// the one copy of its id, title and summary (scripts/chapters.mjs reads it).
export default {
  id: 'bahdanau',
  title: 'Bahdanau additive attention',
  summary:
    'Score encoder states with a small tanh network (Bahdanau et al., 2014), softmax the scores and build the context vector, all from NumPy-exact random inputs.',
  order: 20,
};
