// All state lives in the URL hash (#chapter=basics&step=3&h=5,1,20), so a link
// restores the view. Values are strings; helpers below encode numbers.
// Lessons embedded as custom elements keep the same state in memory instead,
// so they never touch the host page's URL (see useMemoryState).

let backend = {
  read: () => globalThis.location?.hash ?? '',
  // Replaces the hash without adding a history entry for every keystroke.
  write: (text) => history.replaceState(history.state, '', `${location.pathname}${location.search}#${text}`),
};

/** Keeps state in memory from now on (for custom elements on someone else's page). */
export function useMemoryState(initial = '') {
  let text = initial;
  backend = { read: () => text, write: (next) => (text = next) };
}

export function readHash(hash = backend.read()) {
  return new URLSearchParams(hash.replace(/^#/, ''));
}

/** Writes the hash; no history write when it is unchanged. */
export function writeHash(params) {
  const text = params.toString().replace(/%2C/g, ',').replace(/%3B/g, ';');
  if (text !== backend.read().replace(/^#/, '')) backend.write(text);
}

/**
 * Updates several keys at once (null or undefined deletes one; other values are
 * stringified) with a single write, so one edit is one history.replaceState.
 * @param {Record<string, unknown>} entries
 */
export function setHashValues(entries) {
  const params = readHash();
  for (const [key, value] of Object.entries(entries)) {
    if (value === null || value === undefined) params.delete(key);
    else params.set(key, String(value));
  }
  writeHash(params);
}

/** Updates one key (null deletes it) and writes the hash. */
export function setHashValue(key, value) {
  setHashValues({ [key]: value });
}

export const encodeVector = (v) => v.map((x) => String(x)).join(',');
export const encodeRows = (rows) => rows.map(encodeVector).join(';');

/** Parses "1,2,3" into numbers; returns null unless every entry is a finite number. */
export function decodeVector(text, length) {
  if (!text) return null;
  const v = text.split(',').map(Number);
  if (v.some((x) => !Number.isFinite(x)) || (length !== undefined && v.length !== length)) return null;
  return v;
}

/** Parses "1,2;3,4" into rows of equal length; null if malformed. */
export function decodeRows(text, cols) {
  if (!text) return null;
  const rows = text.split(';').map((r) => decodeVector(r, cols));
  if (rows.some((r) => r === null) || rows.length === 0) return null;
  const width = rows[0].length;
  return rows.every((r) => r.length === width) ? rows : null;
}
