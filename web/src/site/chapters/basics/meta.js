// The chapter's entry in the contents bar, permalinks (#chapter=basics) and oEmbed files:
// the one copy of its id, title and summary (scripts/chapters.mjs reads it).
export default {
  id: 'basics',
  title: 'Attention Basics',
  summary:
    'Score encoder states against a decoder state, turn scores into weights with softmax, and build the context vector.',
  order: 10,
};
