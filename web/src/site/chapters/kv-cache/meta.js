// The chapter's entry in the contents bar, permalinks (#chapter=kv-cache) and oEmbed files.
export default {
  id: 'kv-cache',
  title: 'The KV cache and grouped-query attention',
  summary:
    'Prefill, then decode one token at a time from a growing cache of keys and values: the same numbers as recomputing everything, for a fraction of the work; query heads sharing K/V heads.',
  order: 110,
};
