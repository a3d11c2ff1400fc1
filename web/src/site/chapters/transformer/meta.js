// The chapter's entry in the contents bar, permalinks (#chapter=transformer) and oEmbed files:
// the one copy of its id, title and summary (scripts/chapters.mjs reads it).
export default {
  id: 'transformer',
  title: 'Attention is all you need, hands on',
  summary:
    'Scaled dot-product attention with queries, keys and values, why scores are divided by √d_k, padding and causal masks, and multi-head attention in a Transformer.',
  order: 40,
};
