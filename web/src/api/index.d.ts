// Hand-written types for attention-lab (Emscripten 3.1.6 cannot emit them).
// Checked by `tsc --strict` in tests/types/.

/** A vector: plain numbers or a typed array. Always copied on input. */
export type VectorInput = readonly number[] | Float64Array | Float32Array;

/** A matrix: one row per time step / token, or row-major data with its shape. */
export type MatrixInput =
  | readonly (readonly number[] | Float64Array | Float32Array)[]
  | { readonly rows: number; readonly cols: number; readonly data: readonly number[] | Float64Array | Float32Array };

/** A dense row-major float64 matrix owned by JS (a copy, safe to keep). */
export declare class Matrix {
  constructor(rows: number, cols: number, data?: Float64Array);
  readonly rows: number;
  readonly cols: number;
  readonly data: Float64Array;
  /** Entry at row `r`, column `c`. */
  get(r: number, c: number): number;
  /** Row `r` as a new Float64Array. */
  row(r: number): Float64Array;
  /** Nested arrays, one per row. */
  toArray(): number[][];
  transpose(): Matrix;
}

/**
 * The API object. Every function validates its arguments and throws a
 * `TypeError` (wrong type) or `RangeError` (wrong shape, NaN, Infinity) whose
 * message names the function, the argument and the shapes. The module keeps
 * working after an error.
 */
export interface Attention {
  readonly Matrix: typeof Matrix;
  /** Current size of the WebAssembly memory in bytes (it grows on demand, up to 2 GiB, and never shrinks). */
  memoryBytes(): number;

  // ---- Attention Basics ----
  /** Dot product `a · b` of two vectors of equal length. */
  dot(a: VectorInput, b: VectorInput): number;
  /** One score per key row: `keys · query`. query: (d), keys: (n × d) → (n). */
  dotScores(query: VectorInput, keys: MatrixInput): Float64Array;
  /** Softmax that cannot overflow. `-Infinity` entries are masked (weight 0); all masked → all zeros. */
  softmax(x: VectorInput): Float64Array;
  /** `log(softmax(x))` computed in log space: keeps weights below the smallest double. */
  logSoftmax(x: VectorInput): Float64Array;
  /** `exp(x) / sum(exp(x))` as written: overflows to NaN for large scores (a teaching variant). */
  naiveSoftmax(x: VectorInput): Float64Array;
  /** Each value row scaled by its weight. weights: (n), values: (n × d) → (n × d). */
  scaleRows(weights: VectorInput, values: MatrixInput): Matrix;
  /** The context vector `sum_i weights[i] * values[i]`. weights: (n), values: (n × d) → (d). */
  weightedSum(weights: VectorInput, values: MatrixInput): Float64Array;

  // ---- RandomState (NumPy-exact) ----

  // ---- Additive (Bahdanau) attention ----

  // ---- Transformer attention ----

  // ---- Embeddings ----

  // ---- Seq2seq trainer ----
}

/** Instantiates the WebAssembly core once (later calls share it) and returns the API. */
export declare function loadAttention(): Promise<Attention>;
