// The chapter's entry in the contents bar, permalinks (#chapter=qkv) and oEmbed files:
// the one copy of its id, title and summary (scripts/chapters.mjs reads it).
export default {
  id: 'qkv',
  title: 'Q/K/V attention from scratch',
  summary:
    'Queries, keys and values for four toy words: project, score every pair, softmax with 1/√d_k, and mix the values.',
  order: 30,
};
