// The chapter's entry in the contents bar, permalinks (#chapter=qk-norm) and oEmbed files:
// the one copy of its id, title and summary (scripts/chapters.mjs reads it).
export default {
  id: 'qk-norm',
  title: 'QK-norm: keeping the logits bounded',
  summary:
    'Logits grow with the square of the size of q and k and softmax saturates; RMS-normalising q and k per head (Qwen3, Gemma 3) bounds them.',
  order: 100,
};
