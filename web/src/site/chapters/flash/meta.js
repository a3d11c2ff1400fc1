// The chapter's entry in the contents bar, permalinks (#chapter=flash) and oEmbed files.
export default {
  id: 'flash',
  title: 'Online softmax and FlashAttention',
  summary:
    'Attention over key blocks with a running maximum and sum: the same output as the full softmax, without ever holding a whole row of scores.',
  order: 120,
};
