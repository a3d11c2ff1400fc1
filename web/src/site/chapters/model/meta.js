// The chapter's entry in the contents bar, permalinks (#chapter=model) and oEmbed files:
// the one copy of its id, title and summary (scripts/chapters.mjs reads it).
export default {
  id: 'model',
  title: 'Open a real model',
  summary:
    'Open a GPT-2 from its Hugging Face files (or the built-in demo model) and see every layer and head on your sentence, each weight explained down to q·k/√d_k.',
  order: 80,
};
