/**
 * A dense row-major matrix of float64 values. Every matrix the API returns is
 * one of these; its `data` is a copy owned by JS, safe to keep.
 */
export class Matrix {
  /**
   * @param {number} rows
   * @param {number} cols
   * @param {Float64Array} [data] row-major, length rows * cols (zeros if omitted)
   */
  constructor(rows, cols, data = new Float64Array(rows * cols)) {
    if (data.length !== rows * cols) {
      throw new RangeError(`Matrix: data has ${data.length} entries but ${rows}x${cols} needs ${rows * cols}`);
    }
    this.rows = rows;
    this.cols = cols;
    this.data = data;
  }

  /** Entry at row `r`, column `c`. */
  get(r, c) {
    return this.data[r * this.cols + c];
  }

  /** Row `r` as a new Float64Array. */
  row(r) {
    return this.data.slice(r * this.cols, (r + 1) * this.cols);
  }

  /** Nested arrays, one per row. */
  toArray() {
    return Array.from({ length: this.rows }, (_, r) => Array.from(this.row(r)));
  }

  /** The transpose as a new Matrix. */
  transpose() {
    const out = new Float64Array(this.data.length);
    for (let r = 0; r < this.rows; r++) {
      for (let c = 0; c < this.cols; c++) out[c * this.rows + r] = this.data[r * this.cols + c];
    }
    return new Matrix(this.cols, this.rows, out);
  }
}
