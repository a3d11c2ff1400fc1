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
  /**
   * NumPy's legacy `RandomState`, bit for bit: `new a.RandomState(42)` is
   * `np.random.seed(42)`, and its draws equal NumPy's exactly (same MT19937
   * stream, same normals, same integers), including interleaved calls.
   * The generator lives in WebAssembly memory: call `delete()` when done.
   */
  readonly RandomState: RandomStateConstructor;

  // ---- Additive (Bahdanau) attention ----
  /**
   * Bahdanau alignment scores `w2ᵀ · tanh(W1ᵀ · [h_i; s])`, one per encoder step.
   * encoderStates: (n × h), decoderState: (h) or a 1×h matrix, W1: (2h × a),
   * w2: (a) or an a×1 / 1×a matrix → (n).
   */
  additiveScores(encoderStates: MatrixInput, decoderState: VectorOrLineInput, W1: MatrixInput, w2: VectorOrLineInput): Float64Array;
  /**
   * The whole additive attention step, with every intermediate result (same
   * arguments as `additiveScores`); see {@link AdditiveAttentionResult}.
   */
  additiveAttention(encoderStates: MatrixInput, decoderState: VectorOrLineInput, W1: MatrixInput, w2: VectorOrLineInput): AdditiveAttentionResult;
  /** The matrix product `a · b`. a: (m × k), b: (k × n) → (m × n). */
  matmul(a: MatrixInput, b: MatrixInput): Matrix;

  // ---- Transformer attention ----

  // ---- Embeddings ----

  // ---- Seq2seq trainer ----
}

// ---- RandomState (NumPy-exact) ----

/** Creates a generator seeded like `np.random.seed(seed)`; `a.RandomState` is one of these. */
export interface RandomStateConstructor {
  /**
   * @param seed an integer in [0, 2^32 - 1]; anything else throws (TypeError
   * for a non-number, RangeError for a fraction or a value out of range).
   */
  new (seed: number): RandomState;
}

/**
 * NumPy's legacy RandomState. Every method returns a new `Matrix` filled in
 * row-major order, exactly like NumPy's `size=(rows, cols)`; rows and cols are
 * integers >= 0 (at most 2^26 entries). A call that throws draws nothing.
 *
 * Memory: the generator lives in WebAssembly memory. Call `delete()` when you
 * are done; after that every method throws a TypeError. (A generator that is
 * garbage-collected without `delete()` is freed eventually, but do not rely on it.)
 */
export interface RandomState {
  /**
   * Standard normal values: `np.random.randn(rows, cols)` (legacy polar Box–Muller, cached second value).
   * The last bit of a few normals in 100,000 can differ from NumPy on Linux, whose `log()` is glibc's
   * while WebAssembly's is musl's (1 ulp at most); the stream position is always exact.
   */
  randn(rows: number, cols: number): Matrix;
  /** Uniform values in [0, 1) with 53 random bits: `np.random.rand(rows, cols)`. */
  rand(rows: number, cols: number): Matrix;
  /**
   * Integers in [low, high): `np.random.randint(low, high, size=(rows, cols))`.
   * low and high are integers with -2^53 <= low < high <= 2^53; values may
   * exceed 2^31, so they are returned as (exact) doubles in the Matrix.
   */
  randint(low: number, high: number, rows: number, cols: number): Matrix;
  /** Frees the generator's WebAssembly memory. Calling it twice is harmless. */
  delete(): void;
  /** True once `delete()` was called. */
  readonly deleted: boolean;
}

// ---- Additive (Bahdanau) attention ----

/** A vector, or a matrix with a single row or column (e.g. `rs.randn(1, h)`, `rs.randn(a, 1)`). */
export type VectorOrLineInput = VectorInput | MatrixInput;

/**
 * Every step of additive attention, n = encoder steps, h = hidden size,
 * a = attention size. All fields are copies owned by JS.
 */
export interface AdditiveAttentionResult {
  /** (n × 2h): row i is `[h_i; s]`, the encoder state followed by the (repeated) decoder state. */
  readonly inputs: Matrix;
  /** (n × a): `tanh(inputs · W1)`. */
  readonly activations: Matrix;
  /** (n): `activations · w2`, the alignment scores (same as `additiveScores`). */
  readonly scores: Float64Array;
  /** (n): `softmax(scores)`. */
  readonly weights: Float64Array;
  /** (n × h): row i is `weights[i] · h_i`. */
  readonly weighted: Matrix;
  /** (h): the context vector, the sum of the rows of `weighted`. */
  readonly context: Float64Array;
}

/** Instantiates the WebAssembly core once (later calls share it) and returns the API. */
export declare function loadAttention(): Promise<Attention>;
