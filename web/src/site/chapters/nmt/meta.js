// The chapter's entry in the contents bar, permalinks (#chapter=nmt) and oEmbed files:
// the one copy of its id, title and summary (scripts/chapters.mjs reads it).
export default {
  id: 'nmt',
  title: 'Neural machine translation with attention',
  summary:
    'Train an encoder–decoder with attention to normalise dates, live in a Web Worker, and watch which input characters each output character attends to.',
  order: 60,
};
