// A dense row-major matrix of float64 values (a Float64Array), or of float32
// values (a Float32Array: what the float32 path returns, see precision.js).
// Every matrix the API returns is one of these; its `data` is a copy owned by
// JS, safe to keep.
import { describe } from './errors.js';
import { entryCount, typedArrayName } from './views.js';

/** Largest rows * cols a Matrix may hold (2 GiB of doubles, the wasm memory's maximum). */
export const MAX_MATRIX_ENTRIES = 2 ** 28;

/** True for a Float64Array of this or another realm (an iframe, a worker, a vm context), read from its internal slot. */
export const isFloat64Array = (value) => typedArrayName(value) === 'Float64Array';
/** True for a Float32Array of this or another realm. */
export const isFloat32Array = (value) => typedArrayName(value) === 'Float32Array';

function checkIndex(value, size, fn, name) {
  if (typeof value !== 'number') throw new TypeError(`${fn}: ${name} must be a number, got ${describe(value)}`);
  if (!Number.isInteger(value) || value < 0 || value >= size) {
    throw new RangeError(`${fn}: ${name} is ${value} but must be an integer in [0, ${size - 1}]`);
  }
}

function checkSize(value, fn, name) {
  if (typeof value !== 'number') throw new TypeError(`${fn}: ${name} must be a number, got ${describe(value)}`);
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${fn}: ${name} must be a non-negative integer, got ${value}`);
}

export class Matrix {
  /**
   * @param {number} rows
   * @param {number} cols
   * @param {Float64Array | Float32Array} [data] row-major, length rows * cols (float64 zeros if
   *   omitted); kept as given, not copied
   */
  constructor(rows, cols, data) {
    checkSize(rows, 'Matrix', 'rows');
    checkSize(cols, 'Matrix', 'cols');
    if (rows * cols > MAX_MATRIX_ENTRIES) {
      throw new RangeError(`Matrix: ${rows}x${cols} has more than ${MAX_MATRIX_ENTRIES} entries`);
    }
    if (data === undefined) data = new Float64Array(rows * cols);
    else if (!isFloat64Array(data) && !isFloat32Array(data)) {
      throw new TypeError(`Matrix: data must be a Float64Array or Float32Array, got ${describe(data)}`);
    }
    // The true length (a subclass's `length` getter may say anything).
    const length = entryCount(data);
    if (length !== rows * cols) {
      throw new RangeError(`Matrix: data has ${length} entries but ${rows}x${cols} needs ${rows * cols}`);
    }
    this.rows = rows;
    this.cols = cols;
    this.data = data;
  }

  /** Entry at row `r`, column `c`. */
  get(r, c) {
    checkIndex(r, this.rows, 'Matrix.get', 'r');
    checkIndex(c, this.cols, 'Matrix.get', 'c');
    return this.data[r * this.cols + c];
  }

  /** Row `r` as a new array of the data's type (Float64Array or Float32Array). */
  row(r) {
    checkIndex(r, this.rows, 'Matrix.row', 'r');
    return this.data.slice(r * this.cols, (r + 1) * this.cols);
  }

  /** Nested arrays, one per row. */
  toArray() {
    return Array.from({ length: this.rows }, (_, r) => Array.from(this.row(r)));
  }

  /** The transpose as a new Matrix with the same element type. */
  transpose() {
    const out = isFloat32Array(this.data) ? new Float32Array(this.data.length) : new Float64Array(this.data.length);
    for (let r = 0; r < this.rows; r++) {
      for (let c = 0; c < this.cols; c++) out[c * this.rows + r] = this.data[r * this.cols + c];
    }
    return new Matrix(this.cols, this.rows, out);
  }
}
