// Loads a chapter of the list (index.js) and checks it is the one its entry names.
// A module of its own so that node tests can import it (the list is generated at build time).

/** The chapter module of `entry` (cached by the module system), checked against its entry. */
export async function loadChapter(entry) {
  const { default: chapter } = await entry.load();
  if (chapter?.id !== entry.id || typeof chapter.render !== 'function')
    throw new Error(`chapters/index.js: the module of "${entry.id}" exports chapter "${chapter?.id}"`);
  return chapter;
}
