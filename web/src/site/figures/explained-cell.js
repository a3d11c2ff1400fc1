// One explained cell per lesson. Each heatmap can explain one of its cells
// (hover, keyboard focus, tap); without an owner two figures could stay
// explained at once and their source outlines would mix. The latest figure to
// explain a cell wins: the one explaining before it is told to stop.
//
// A lesson is the chapter's <article data-chapter>, so two <attention-lesson>
// elements on one page never clear each other; a figure outside any chapter
// (an <attention-heatmap> element) is its own lesson (its shadow root).

/** lesson root -> the figure explaining a cell there */
const owners = new WeakMap();
/** figure -> the lesson it claimed in (kept: the figure may have left the page since) */
const claimedIn = new WeakMap();

function lessonOf(figure) {
  return figure.element.closest('article[data-chapter]') ?? figure.element.getRootNode();
}

/** `figure` starts explaining a cell: whichever figure of its lesson was explaining stops. */
export function claimExplainedCell(figure) {
  const lesson = lessonOf(figure);
  const previous = owners.get(lesson);
  owners.set(lesson, figure);
  claimedIn.set(figure, lesson);
  if (previous && previous !== figure) previous.showCell(null);
}

/** `figure` stopped explaining (pointer left, focus lost, numbers reshaped). */
export function releaseExplainedCell(figure) {
  const lesson = claimedIn.get(figure);
  if (lesson && owners.get(lesson) === figure) owners.delete(lesson);
  claimedIn.delete(figure);
}
