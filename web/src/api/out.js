// options.out: a result written into a Matrix the caller already owns instead
// of a new one. A page that recomputes the same shapes on every edit then
// allocates no result arrays: a fresh array costs more than its copy, because
// the first write to each new memory page faults (on the 2-core benchmark
// machine, 2-18 µs per 4 KiB page: a 128 x 128 float64 result, 32 pages, took
// ~150 µs to allocate and fill against ~4 µs to copy into a reused one).
// The result stays a JS-owned copy: the wasm heap is never exposed.
import { describe, readOptions } from './errors.js';
import { entryCount, exactView, typedArrayName } from './views.js';

/**
 * A checked options.out: the caller's Matrix, and a fixed view of its data taken once (a getter
 * on `data` runs here, not while the result is copied out of the wasm heap).
 * @typedef {{ matrix: object, data: Float64Array | Float32Array }} OutTarget
 */

/**
 * Checks `out` (options.out, or a part of it) for a (rows x cols) result of
 * `precision`, before any work is done. Returns an OutTarget, or null when absent.
 * @param {unknown} out
 * @param {number} rows
 * @param {number} cols
 * @param {'float64' | 'float32'} precision
 * @param {string} fn public function name, for messages
 * @param {string} arg e.g. "options.out" or "options.out.weights"
 */
export function readOut(out, rows, cols, precision, fn, arg) {
  if (out === undefined || out === null) return null;
  if (typeof out !== 'object') throw new TypeError(`${fn}: ${arg} must be a Matrix, got ${describe(out)}`);
  const type = precision === 'float32' ? 'Float32Array' : 'Float64Array';
  const data = /** @type {any} */ (out).data;
  if (typedArrayName(data) !== type) {
    throw new TypeError(`${fn}: ${arg}.data must be a ${type} (the result is ${precision}), got ${describe(data)}`);
  }
  const { rows: r, cols: c } = /** @type {any} */ (out);
  const length = entryCount(data);
  if (r !== rows || c !== cols || length !== rows * cols) {
    throw new RangeError(
      `${fn}: ${arg} is ${String(r)}x${String(c)} with ${length} entries, the result is ${rows}x${cols}`,
    );
  }
  return { matrix: out, data: exactView(data, length, fn, `${arg}.data`, false) };
}

/**
 * Checks `out` for a result made of named matrices ({ output, weights }): an
 * object (no other keys) whose given parts each pass readOut. A part shaped [count, rows, cols]
 * is an array of `count` matrices (multi-head attention's weights, one per head).
 * Any part, or entry of such an array, may be absent (a new Matrix is made for
 * it). Returns the parts, {} when absent.
 * @param {unknown} out
 * @param {Record<string, number[]>} shapes each part's [rows, cols] or [count, rows, cols]
 * @param {'float64' | 'float32'} precision
 * @param {string} fn
 */
export function readOutParts(out, shapes, precision, fn) {
  if (out === undefined || out === null) return {};
  // A plain object with only these keys: a Matrix given where { output, weights } goes is refused.
  const given = readOptions(out, Object.keys(shapes), fn, 'options.out');
  /** @type {Record<string, any>} */
  const parts = {};
  for (const [name, shape] of Object.entries(shapes)) {
    const part = given[name];
    const arg = `options.out.${name}`;
    if (shape.length === 2) parts[name] = readOut(part, shape[0], shape[1], precision, fn, arg);
    else if (part !== undefined && part !== null) {
      const [count, rows, cols] = shape;
      if (!Array.isArray(part))
        throw new TypeError(`${fn}: ${arg} must be an array of ${count} matrices, got ${describe(part)}`);
      if (part.length !== count)
        throw new RangeError(`${fn}: ${arg} holds ${part.length} matrices, the result has ${count}`);
      parts[name] = Array.from({ length: count }, (_, i) =>
        readOut(part[i], rows, cols, precision, fn, `${arg}[${i}]`),
      );
    }
  }
  return parts;
}
