// The chapter's entry in the contents bar, permalinks (#chapter=sliding-window) and oEmbed files.
export default {
  id: 'sliding-window',
  title: 'Sliding-window attention',
  summary:
    'Each query sees only the last W keys; stacked layers pass information further back, W − 1 tokens per layer.',
  order: 130,
};
