// The chapter's entry in the contents bar, permalinks (#chapter=trained) and oEmbed files:
// the one copy of its id, title and summary (scripts/chapters.mjs reads it).
export default {
  id: 'trained',
  title: 'A Transformer trained in your browser',
  summary:
    'An encoder–decoder Transformer trained live on the date task: every layer and head of its three uses of attention, what the trained heads do, and the RNN side by side.',
  order: 70,
};
