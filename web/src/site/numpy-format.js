// Prints float64 arrays the way NumPy's repr() does (NumPy >= 1.14 defaults:
// precision 8, floatmode 'maxprec', linewidth 75), so each step's output reads
// like the notebook cell it reproduces. Pure functions, no DOM.
// Checked against NumPy itself in tests/js/numpy-format.test.mjs.

const PRECISION = 8;
const LINE_WIDTH = 75;

/** Shortest repr of |x| rounded to at most PRECISION fractional digits, trailing zeros trimmed. */
function positional(x) {
  const s = Math.abs(x).toFixed(PRECISION).replace(/0+$/, '');
  return (x < 0 || Object.is(x, -0) ? '-' : '') + s; // keeps the '.' like NumPy: "927."
}

/** Mantissa digits and exponent of x in scientific notation, mantissa trimmed. */
function scientific(x) {
  const [mantissa, exponent] = Math.abs(x).toExponential(PRECISION).split('e');
  const trimmed = mantissa.includes('.') ? mantissa.replace(/0+$/, '') : `${mantissa}.`;
  return { sign: x < 0 || Object.is(x, -0) ? '-' : '', mantissa: trimmed, exponent: Number(exponent) };
}

/**
 * Builds the element formatter NumPy would pick for these values.
 * @param {ArrayLike<number>} values
 * @returns {(x: number) => string}
 */
export function floatFormatter(values) {
  const finite = Array.from(values).filter(Number.isFinite);
  const nonZero = finite.map(Math.abs).filter((v) => v !== 0);
  let useExp = false;
  if (nonZero.length > 0) {
    const max = Math.max(...nonZero);
    const min = Math.min(...nonZero);
    useExp = max >= 1e8 || min < 1e-4 || max / min > 1e3;
  }
  const special = (x) => (Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf');

  if (finite.length === 0) return (x) => special(x);

  // Like NumPy, widen the integer part so nan / inf / -inf fit the column.
  const all = Array.from(values);
  const widenFor = (padLeft, padRight) => {
    if (all.every(Number.isFinite)) return padLeft;
    const infLength = all.some((x) => x === -Infinity) ? 4 : 3;
    return Math.max(padLeft, 3 - (padRight + 1), infLength - (padRight + 1));
  };

  if (!useExp) {
    const parts = finite.map((x) => positional(x).split('.'));
    const padRight = Math.max(...parts.map(([, f]) => f.length));
    const padLeft = widenFor(Math.max(...parts.map(([i]) => i.length)), padRight);
    const width = padLeft + padRight + 1;
    return (x) => {
      if (!Number.isFinite(x)) return special(x).padStart(width);
      const [i, f] = positional(x).split('.');
      return `${i.padStart(padLeft)}.${f.padEnd(padRight)}`;
    };
  }

  const parts = finite.map(scientific);
  const digits = Math.max(...parts.map((p) => p.mantissa.split('.')[1].length));
  const expSize = Math.max(2, ...parts.map((p) => String(Math.abs(p.exponent)).length));
  const padLeft = widenFor(
    Math.max(...parts.map((p) => p.sign.length + p.mantissa.split('.')[0].length)),
    digits + 2 + expSize,
  );
  const width = padLeft + 1 + digits + 2 + expSize;
  return (x) => {
    if (!Number.isFinite(x)) return special(x).padStart(width);
    const [mantissa, exponent] = Math.abs(x).toExponential(digits).split('e');
    const e = Number(exponent);
    const m = digits === 0 ? `${mantissa}.` : mantissa;
    const sign = x < 0 || Object.is(x, -0) ? '-' : '';
    return `${(sign + m.split('.')[0]).padStart(padLeft)}.${m.split('.')[1]}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(expSize, '0')}`;
  };
}

/**
 * repr() of a float64 ndarray of 0, 1 or 2 dimensions.
 * @param {ArrayLike<number>} data row-major values
 * @param {number[]} shape [] | [n] | [rows, cols]
 * @param {{prefix?: string}} [options] prefix defaults to 'array('
 */
export function formatNumpy(data, shape, { prefix = 'array(' } = {}) {
  const format = floatFormatter(data);
  if (shape.length === 0) return format(data[0]).trim();
  const suffix = ')';
  const lineWidth = LINE_WIDTH - suffix.length;
  const separator = ', ';
  const nextLinePrefix = ' '.repeat(prefix.length + 1);

  const extendLine = (state, word, width, hangingIndent) => {
    let needsWrap = state.line.length + word.length > width;
    if (state.line.length <= hangingIndent.length) needsWrap = false;
    if (needsWrap) {
      state.s += `${state.line.trimEnd()}\n`;
      state.line = hangingIndent;
    }
    state.line += word;
  };

  const recurse = (offset, axis, hangingIndent, currWidth) => {
    const length = shape[axis];
    const nextIndent = `${hangingIndent} `;
    const nextWidth = currWidth - 1;
    let s = '';
    if (axis === shape.length - 1) {
      const state = { s: '', line: hangingIndent };
      const elemWidth = currWidth - separator.trimEnd().length;
      for (let i = 0; i < length; i++) {
        extendLine(state, format(data[offset + i]), elemWidth, hangingIndent);
        if (i < length - 1) state.line += separator;
      }
      s = state.s + state.line;
    } else {
      const stride = shape.slice(axis + 1).reduce((p, q) => p * q, 1);
      const lineSep = `${separator.trimEnd()}${'\n'.repeat(shape.length - axis - 1)}`;
      for (let i = 0; i < length; i++) {
        s += hangingIndent + recurse(offset + i * stride, axis + 1, nextIndent, nextWidth);
        if (i < length - 1) s += lineSep;
      }
    }
    return `[${s.slice(hangingIndent.length)}]`;
  };

  return `${prefix}${recurse(0, 0, nextLinePrefix, lineWidth)}${suffix}`;
}

/** A compact label for a heatmap cell: integers as-is, else 4 significant digits. */
export function formatCell(x) {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return '0';
  const abs = Math.abs(x);
  if (abs >= 1e5 || abs < 1e-3) return x.toExponential(2).replace('e+', 'e');
  if (Number.isInteger(x)) return String(x);
  return String(Number(x.toPrecision(4)));
}

/**
 * A number far below the smallest double, given by its natural log: 5.766e-340
 * from log = -781.1269. Used to show weights that underflow to 0.
 */
export function formatFromLog(logValue, digits = 4) {
  if (logValue === -Infinity) return '0';
  const log10 = logValue / Math.LN10;
  let exponent = Math.floor(log10);
  let mantissa = (10 ** (log10 - exponent)).toFixed(digits - 1);
  if (Number(mantissa) >= 10) {
    exponent += 1;
    mantissa = (Number(mantissa) / 10).toFixed(digits - 1);
  }
  return `${mantissa}e${exponent}`;
}

/**
 * A NumPy scalar as the notebook shows it: an int64 (the product of integer
 * inputs, as np.dot([5,1,20],[3,12,45]) gives 927) prints bare, a float64 as
 * Python's repr (927.0, 0.5, 1e+16).
 */
export function formatScalar(x, { integer = false } = {}) {
  if (integer && Number.isSafeInteger(x)) return String(x);
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const abs = Math.abs(x);
  if (abs !== 0 && (abs >= 1e16 || abs < 1e-4)) {
    // Python switches to exponent form at 1e16 and below 1e-4; exponents have two digits at least.
    const [mantissa, exponent] = x.toExponential().split('e');
    const sign = exponent.startsWith('-') ? '-' : '+';
    return `${mantissa}e${sign}${exponent.replace(/^[-+]/, '').padStart(2, '0')}`;
  }
  const text = String(x);
  return Number.isInteger(x) ? `${text}.0` : text;
}
