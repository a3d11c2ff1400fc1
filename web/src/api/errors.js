// Maps the core's StatusCode (cpp/status.h) to JS Error classes.
const SHAPE_MISMATCH = 1;
const INVALID_VALUE = 2;

/**
 * Throws the Error for a non-zero status; the message names the function.
 * @param {number} code
 * @param {string} fn
 * @param {string} message from the core
 */
export function throwForStatus(code, fn, message) {
  if (code === 0) return;
  const text = `${fn}: ${message}`;
  if (code === SHAPE_MISMATCH || code === INVALID_VALUE) throw new RangeError(text);
  throw new TypeError(text);
}
