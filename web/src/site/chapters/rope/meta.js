// The chapter's entry in the contents bar, permalinks (#chapter=rope) and oEmbed files:
// the one copy of its id, title and summary (scripts/chapters.mjs reads it).
export default {
  id: 'rope',
  title: 'Rotary position embeddings (RoPE)',
  summary:
    'Each pair of a query’s coordinates turns with its position, at its own frequency, so that q·k depends only on how far apart the two tokens are.',
  order: 90,
};
