// All state lives in the URL hash (#chapter=basics&step=3&h=5,1,20), so a link
// restores the view. Values are strings; helpers below encode numbers.

export function readHash(hash = globalThis.location?.hash ?? '') {
  return new URLSearchParams(hash.replace(/^#/, ''));
}

/** Replaces the hash without adding a history entry for every keystroke. */
export function writeHash(params) {
  const text = params.toString().replace(/%2C/g, ',').replace(/%3B/g, ';');
  const url = `${location.pathname}${location.search}#${text}`;
  history.replaceState(history.state, '', url);
}

/** Updates one key (null deletes it) and writes the hash. */
export function setHashValue(key, value) {
  const params = readHash();
  if (value === null || value === undefined) params.delete(key);
  else params.set(key, value);
  writeHash(params);
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
