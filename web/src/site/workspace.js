// Result storage a chapter keeps across edits. A chapter that recomputes the
// same shapes on every edit passes `slot` to its model, which hands each
// Matrix to the API as options.out: an edit then writes into memory that is
// already mapped instead of allocating fresh arrays, whose first-touch page
// faults cost more than the copies (web/src/api/out.js; bench/frame.mjs).
//
// A Matrix from the workspace is overwritten by the next edit: a chapter
// re-reads its results after every update (figures, hover text) and keeps no
// older ones. A figure that compares matrices by identity (paintOnce) must be
// given storage that is not reused.

/**
 * @param {{ Matrix: new (rows: number, cols: number) => any }} api
 * @returns {(name: string, rows: number, cols: number) => any} the Matrix kept for `name`,
 *   a new one when there is none yet or its shape changed
 */
export function workspace(api) {
  const kept = new Map();
  return (name, rows, cols) => {
    let m = kept.get(name);
    if (!m || m.rows !== rows || m.cols !== cols) kept.set(name, (m = new api.Matrix(rows, cols)));
    return m;
  };
}
