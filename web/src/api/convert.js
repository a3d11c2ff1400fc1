// Turns what users pass (number[], typed arrays, number[][], {rows, cols, data},
// Matrix) into Float64Array-backed values, throwing TypeError for wrong types
// and RangeError for wrong shapes. Numeric checks (NaN, Infinity) and shape
// agreement between arguments are the C++ core's job (see errors.js).
//
// Typed arrays are measured through their internal slots (views.js), never
// their `length` property: a subclass may report any length it likes. What
// leaves this file is a fixed-length Float64Array/Float32Array of exactly
// rows x cols entries, so the heap copy (heap.js) cannot read past it.
import { describe } from './errors.js';
import { MAX_MATRIX_ENTRIES } from './matrix.js';
import { entryCount, exactView, isFloatTypedArray as isFloatArray, typedArrayName } from './views.js';

/** A typed array of any element type and realm (a row of number[][] may be one); a DataView is not. */
const isTypedArray = (value) => typedArrayName(value) !== undefined;

/** A fresh Float64Array of a Float64Array's or Float32Array's true entries. */
function copyTyped(value, fn, arg) {
  const count = entryCount(value);
  requireFits(count, fn, arg);
  return new Float64Array(exactView(value, count, fn, arg));
}

/** Refuses, before allocating anything, an argument with more entries than one matrix may hold. */
function requireFits(length, fn, arg) {
  if (length > MAX_MATRIX_ENTRIES)
    throw new RangeError(
      `${fn}: ${arg} has ${length} entries, more than the ${MAX_MATRIX_ENTRIES} one argument may have`,
    );
}

function copyNumbers(source, where, fn, arg, length = source.length) {
  requireFits(length, fn, arg);
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    const x = source[i];
    if (typeof x !== 'number') {
      throw new TypeError(`${fn}: ${arg}${where(i)} is ${i in source ? describe(x) : 'a hole'}, expected a number`);
    }
    out[i] = x;
  }
  return out;
}

/**
 * @param {unknown} value number[] | Float64Array | Float32Array
 * @param {string} fn public function name, for messages
 * @param {string} arg argument name, for messages
 * @returns {Float64Array} a fresh copy
 */
export function toVector(value, fn, arg) {
  if (isFloatArray(value)) {
    if (entryCount(value) === 0) throw new RangeError(`${fn}: ${arg} is empty`);
    return copyTyped(value, fn, arg);
  }
  if (!Array.isArray(value)) {
    throw new TypeError(`${fn}: ${arg} must be a number[], Float64Array or Float32Array, got ${describe(value)}`);
  }
  if (value.length === 0) throw new RangeError(`${fn}: ${arg} is empty`);
  return copyNumbers(value, (i) => `[${i}]`, fn, arg);
}

/**
 * @param {unknown} value number[][] (one row per step) | {rows, cols, data} | Matrix
 * @returns {{rows: number, cols: number, data: Float64Array}} data is a fresh row-major copy
 */
export const toMatrix = (value, fn, arg) => readMatrix(value, fn, arg, true);

/**
 * Like toMatrix, but a Float64Array or Float32Array `data` is borrowed, not
 * copied: for arguments copied straight into the wasm heap (HeapScope.matrix),
 * where a second copy would only cost an allocation per call (at n = 128 the
 * Transformer chapter passes about 250,000 numbers per edit).
 * @returns {{rows: number, cols: number, data: Float64Array | Float32Array}} read it, never keep or write it
 */
export const borrowMatrix = (value, fn, arg) => readMatrix(value, fn, arg, false);

/** A row's entry count: an array's length, or a typed array's true length (a DataView has none). */
const lengthOfRow = (row) => (isTypedArray(row) ? entryCount(row) : row.length);

function readMatrix(value, fn, arg, copy) {
  if (Array.isArray(value)) {
    if (value.length === 0) throw new RangeError(`${fn}: ${arg} is empty (0 rows)`);
    const rows = value.length;
    const first = value[0];
    if (!Array.isArray(first) && !ArrayBuffer.isView(first)) {
      throw new TypeError(`${fn}: ${arg} must be an array of rows (number[][]), but ${arg}[0] is ${describe(first)}`);
    }
    const cols = lengthOfRow(first);
    if (cols === 0) throw new RangeError(`${fn}: ${arg} is empty (${rows}x0)`);
    if (rows * cols > MAX_MATRIX_ENTRIES)
      throw new RangeError(`${fn}: ${arg} is ${rows}x${cols}, more than ${MAX_MATRIX_ENTRIES} entries`);
    const data = new Float64Array(rows * cols);
    for (let r = 0; r < rows; r++) {
      const row = value[r];
      if (!Array.isArray(row) && !ArrayBuffer.isView(row)) {
        throw new TypeError(`${fn}: ${arg}[${r}] is ${describe(row)}, expected a row of numbers`);
      }
      const length = lengthOfRow(row);
      if (length !== cols) {
        throw new RangeError(`${fn}: ${arg} is ragged: row 0 has ${cols} entries but row ${r} has ${length}`);
      }
      data.set(
        isFloatArray(row) ? copyTyped(row, fn, arg) : copyNumbers(row, (c) => `[${r}][${c}]`, fn, arg, length),
        r * cols,
      );
    }
    return { rows, cols, data };
  }
  if (value !== null && typeof value === 'object' && 'rows' in value && 'cols' in value && 'data' in value) {
    const { rows, cols, data } = /** @type {{rows: unknown, cols: unknown, data: unknown}} */ (value);
    if (typeof rows !== 'number' || typeof cols !== 'number') {
      throw new TypeError(
        `${fn}: ${arg}.rows and ${arg}.cols must be numbers, got ${describe(rows)} and ${describe(cols)}`,
      );
    }
    if (!Number.isSafeInteger(rows) || !Number.isSafeInteger(cols) || rows < 0 || cols < 0) {
      throw new RangeError(`${fn}: ${arg}.rows and ${arg}.cols must be non-negative integers, got ${rows} and ${cols}`);
    }
    if (rows === 0 || cols === 0) throw new RangeError(`${fn}: ${arg} is empty (${rows}x${cols})`);
    requireFits(rows * cols, fn, arg);
    if (!Array.isArray(data) && !isFloatArray(data)) {
      throw new TypeError(`${fn}: ${arg}.data must be a number[], Float64Array or Float32Array, got ${describe(data)}`);
    }
    const length = Array.isArray(data) ? data.length : entryCount(data);
    if (length !== rows * cols) {
      throw new RangeError(
        `${fn}: ${arg}.data has ${length} entries but ${arg} is ${rows}x${cols} (${rows * cols} entries)`,
      );
    }
    if (Array.isArray(data)) return { rows, cols, data: copyNumbers(data, (i) => `.data[${i}]`, fn, arg) };
    const view = exactView(data, rows * cols, fn, `${arg}.data`);
    return { rows, cols, data: copy ? new Float64Array(view) : view };
  }
  throw new TypeError(`${fn}: ${arg} must be a number[][] or {rows, cols, data}, got ${describe(value)}`);
}

const isMatrixLike = (value) =>
  (Array.isArray(value) && value.length > 0 && (Array.isArray(value[0]) || ArrayBuffer.isView(value[0]))) ||
  (value !== null &&
    typeof value === 'object' &&
    !ArrayBuffer.isView(value) &&
    !Array.isArray(value) &&
    'rows' in value);

/**
 * A vector, or a matrix with one row or one column (what randn(1, h) and
 * randn(a, 1) return), as a Float64Array.
 */
export function toVectorOrLine(value, fn, arg) {
  if (!isMatrixLike(value)) return toVector(value, fn, arg);
  const m = toMatrix(value, fn, arg);
  if (m.rows !== 1 && m.cols !== 1) {
    throw new RangeError(`${fn}: ${arg} is ${m.rows}x${m.cols} but must be a vector (one row or one column)`);
  }
  return m.data;
}
