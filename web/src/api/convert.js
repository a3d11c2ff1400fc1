// Turns what users pass (number[], typed arrays, number[][], {rows, cols, data})
// into Float64Array-backed values, throwing TypeError for wrong types and
// RangeError for wrong shapes. Numeric checks (NaN, Infinity) and shape
// agreement between arguments are the C++ core's job; see errors.js.

function describeType(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function copyNumbers(source, where, fn, arg) {
  const out = new Float64Array(source.length);
  for (let i = 0; i < source.length; i++) {
    const x = source[i];
    if (typeof x !== 'number') {
      throw new TypeError(`${fn}: ${arg}${where(i)} is ${describeType(x)}, expected a number`);
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
  if (value instanceof Float64Array || value instanceof Float32Array) {
    if (value.length === 0) throw new RangeError(`${fn}: ${arg} is empty`);
    return Float64Array.from(value);
  }
  if (!Array.isArray(value)) {
    throw new TypeError(`${fn}: ${arg} must be a number[], Float64Array or Float32Array, got ${describeType(value)}`);
  }
  if (value.length === 0) throw new RangeError(`${fn}: ${arg} is empty`);
  return copyNumbers(value, (i) => `[${i}]`, fn, arg);
}

/**
 * @param {unknown} value number[][] (one row per step) | {rows, cols, data} | Matrix
 * @returns {{rows: number, cols: number, data: Float64Array}} data is a fresh row-major copy
 */
export function toMatrix(value, fn, arg) {
  if (Array.isArray(value)) {
    if (value.length === 0) throw new RangeError(`${fn}: ${arg} is empty (0 rows)`);
    const rows = value.length;
    const first = value[0];
    if (!Array.isArray(first) && !ArrayBuffer.isView(first)) {
      throw new TypeError(`${fn}: ${arg} must be an array of rows (number[][]), but ${arg}[0] is ${describeType(first)}`);
    }
    const cols = first.length;
    if (cols === 0) throw new RangeError(`${fn}: ${arg} is empty (${rows}x0)`);
    const data = new Float64Array(rows * cols);
    for (let r = 0; r < rows; r++) {
      const row = value[r];
      if (!Array.isArray(row) && !ArrayBuffer.isView(row)) {
        throw new TypeError(`${fn}: ${arg}[${r}] is ${describeType(row)}, expected a row of numbers`);
      }
      if (row.length !== cols) {
        throw new RangeError(`${fn}: ${arg} is ragged: row 0 has ${cols} entries but row ${r} has ${row.length}`);
      }
      data.set(copyNumbers(row, (c) => `[${r}][${c}]`, fn, arg), r * cols);
    }
    return { rows, cols, data };
  }
  if (value !== null && typeof value === 'object' && 'rows' in value && 'cols' in value && 'data' in value) {
    const { rows, cols, data } = /** @type {{rows: unknown, cols: unknown, data: unknown}} */ (value);
    if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0) {
      throw new TypeError(`${fn}: ${arg}.rows and ${arg}.cols must be non-negative integers`);
    }
    if (rows === 0 || cols === 0) throw new RangeError(`${fn}: ${arg} is empty (${rows}x${cols})`);
    if (!Array.isArray(data) && !(data instanceof Float64Array) && !(data instanceof Float32Array)) {
      throw new TypeError(`${fn}: ${arg}.data must be a number[], Float64Array or Float32Array, got ${describeType(data)}`);
    }
    if (data.length !== rows * cols) {
      throw new RangeError(`${fn}: ${arg}.data has ${data.length} entries but ${arg} is ${rows}x${cols} (${rows * cols} entries)`);
    }
    const copy = Array.isArray(data) ? copyNumbers(data, (i) => `.data[${i}]`, fn, arg) : Float64Array.from(data);
    return { rows, cols, data: copy };
  }
  throw new TypeError(`${fn}: ${arg} must be a number[][] or {rows, cols, data}, got ${describeType(value)}`);
}
