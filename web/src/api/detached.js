// Whether bytes a caller passed were taken away (transferred to a worker,
// structuredClone's transfer): a view of them reads as empty, and constructing
// one throws V8's raw message, so callers check first and name their argument.

/** True when `buffer` (an ArrayBuffer) is detached. */
export function isDetached(buffer) {
  if (!(buffer instanceof ArrayBuffer)) return false;
  if (typeof buffer.detached === 'boolean') return buffer.detached;
  if (buffer.byteLength !== 0) return false;
  try {
    new Uint8Array(buffer);
    return false;
  } catch {
    return true;
  }
}

/** True when `value` is a detached ArrayBuffer or a view of one. */
export const isDetachedBytes = (value) => isDetached(value) || (ArrayBuffer.isView(value) && isDetached(value.buffer));
