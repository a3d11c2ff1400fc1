// Rotary position embedding (RoFormer, Su et al. 2021): each row of X turned,
// pair of coordinates by pair, by its position times the pair's frequency
// (cpp/ops/rope.h). Options cross to the core by name: the pairing and the
// scaling type are strings the binding looks up in its own table. Float64 only:
// a float32 path would cost the core as many bytes again as the float64 one.
//
// Shapes: X (T x d), d even; positions (T).
import { borrowMatrix } from './convert.js';
import { describe, readOptions, requireInteger, requireNumber, requireOneOf, throwForStatus } from './errors.js';
import { withHeap } from './heap.js';

const FN = 'rotaryEmbedding';
const MAX_INT = 2 ** 31 - 1; // the core's int
export const ROPE_PAIRINGS = Object.freeze(['half', 'interleaved']);
/** Each scaling type and the keys of its Hugging Face `rope_scaling` object. */
const SCALING_KEYS = Object.freeze({
  linear: Object.freeze(['rope_type', 'factor']),
  llama3: Object.freeze([
    'rope_type',
    'factor',
    'low_freq_factor',
    'high_freq_factor',
    'original_max_position_embeddings',
  ]),
});

/** options.positions (or 0 … T − 1) -> Float64Array of T integers in [0, 2^31). */
function readPositions(positions, rows) {
  const name = 'options.positions';
  if (positions === undefined) return Float64Array.from({ length: rows }, (_, i) => i);
  if (!Array.isArray(positions) && !(ArrayBuffer.isView(positions) && !(positions instanceof DataView))) {
    throw new TypeError(`${FN}: ${name} must be an array of integers, got ${describe(positions)}`);
  }
  if (positions.length !== rows) {
    throw new RangeError(`${FN}: ${name} has ${positions.length} entries but X has ${rows} rows (one position a row)`);
  }
  const out = new Float64Array(rows);
  for (let i = 0; i < rows; ++i) out[i] = requireInteger(positions[i], FN, `${name}[${i}]`, 0, MAX_INT);
  return out;
}

/** options.scaling -> the binding's scaling fields. */
function readScaling(scaling) {
  const none = { scaling: 'none', factor: 1, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositions: 8192 };
  if (scaling === undefined || scaling === null) return none;
  const type = readOptions(scaling, [...SCALING_KEYS.llama3], FN, 'options.scaling').rope_type;
  if (type === undefined) throw new TypeError(`${FN}: options.scaling.rope_type is required ('linear' or 'llama3')`);
  requireOneOf(type, Object.keys(SCALING_KEYS), FN, 'options.scaling.rope_type');
  const s = readOptions(scaling, SCALING_KEYS[type], FN, 'options.scaling');
  const number = (key) => requireNumber(s[key], FN, `options.scaling.${key}`);
  const factor = number('factor');
  if (!(Number.isFinite(factor) && factor >= 1)) {
    throw new RangeError(`${FN}: options.scaling.factor must be a finite number >= 1, got ${factor}`);
  }
  if (type === 'linear') return { ...none, scaling: type, factor };
  const [low, high] = [number('low_freq_factor'), number('high_freq_factor')];
  if (!(low > 0 && high > low && Number.isFinite(high))) {
    throw new RangeError(
      `${FN}: options.scaling needs 0 < low_freq_factor < high_freq_factor (finite), got ${low} and ${high}`,
    );
  }
  return {
    scaling: type,
    factor,
    lowFreqFactor: low,
    highFreqFactor: high,
    originalMaxPositions: requireInteger(
      s.original_max_position_embeddings,
      FN,
      'options.scaling.original_max_position_embeddings',
      1,
      MAX_INT,
    ),
  };
}

/** @param {any} core the instantiated Emscripten module */
export function rotaryApi(core) {
  return {
    /**
     * X: (T x d), d even -> X with row t rotated by positions[t] · θ_i on each pair of
     * coordinates, θ_i = base^(−2i/d) (optionally scaled). options { base = 10000,
     * positions = 0 … T − 1, scaling, pairing = 'half' | 'interleaved' }.
     */
    rotaryEmbedding(X, options) {
      const opts = readOptions(options, ['base', 'positions', 'scaling', 'pairing'], FN);
      const { base = 10000, pairing = 'half' } = opts;
      requireNumber(base, FN, 'options.base');
      if (!(Number.isFinite(base) && base > 1)) {
        throw new RangeError(`${FN}: options.base must be a finite number > 1, got ${base}`);
      }
      requireOneOf(pairing, ROPE_PAIRINGS, FN, 'options.pairing');
      const scaling = readScaling(opts.scaling);
      const x = borrowMatrix(X, FN, 'X');
      if (x.cols % 2 !== 0) {
        throw new RangeError(`${FN}: X is ${x.rows}x${x.cols} but its width must be even (coordinates turn in pairs)`);
      }
      const positions = readPositions(opts.positions, x.rows);
      return withHeap(core, FN, (heap) => {
        const out = heap.output(x.rows, x.cols, 'result');
        const args = { x: heap.matrix(x, 'X'), positions: heap.vector(positions, 'positions'), base, pairing };
        throwForStatus(core, core._rotaryEmbedding({ ...args, ...scaling, out }), FN);
        return heap.readMatrix(out);
      });
    },
  };
}
