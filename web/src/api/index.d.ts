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
  /** Matrix product `A B`. A: (m × p), B: (p × n) → (m × n). */
  matmul(A: MatrixInput, B: MatrixInput): Matrix;
  /** Raw attention scores `Q Kᵀ` (divided by `√d_k` with `{ scaled: true }`). Q: (n_q × d_k), K: (n_k × d_k) → (n_q × n_k). */
  attentionScores(Q: MatrixInput, K: MatrixInput, options?: { scaled?: boolean }): Matrix;
  /**
   * Scaled dot-product attention, `softmax(Q Kᵀ / √d_k) V`, row by row.
   * Q: (n_q × d_k), K: (n_k × d_k), V: (n_k × d_v) → output (n_q × d_v), weights (n_q × n_k).
   * Masked keys get weight exactly 0; a query with no key left gets zero weights and a zero output.
   * Unknown option names throw a `TypeError`; shapes that disagree and masks with entries other
   * than 0/1 throw a `RangeError`.
   */
  scaledDotProductAttention(
    Q: MatrixInput,
    K: MatrixInput,
    V: MatrixInput,
    options?: ScaledDotProductAttentionOptions,
  ): AttentionResult;
  /**
   * Multi-head attention: `concat(head_1 … head_h) Wo + bo`, where head i is scaled dot-product
   * attention on columns `i·d_k … (i+1)·d_k − 1` of `Q Wq + bq`, `K Wk + bk`, `V Wv + bv`
   * (d_k = d_model / heads). Q: (n_q × d_model), K and V: (n_k × d_model), every W
   * (d_model × d_model), every b (d_model). Returns the output (n_q × d_model) and one
   * weights matrix (n_q × n_k) per head. `heads` must divide d_model.
   */
  multiHeadAttention(Q: MatrixInput, K: MatrixInput, V: MatrixInput, options: MultiHeadAttentionOptions): MultiHeadAttentionResult;

  // ---- Embeddings ----

  // ---- Seq2seq trainer ----
}

// ---- Transformer attention types ----

/** Which keys each query may attend to. */
export interface AttentionMaskOptions {
  /** (n_q × n_k) of 0/1: 0 = query i may not attend to key j (e.g. padding). `null` = no mask. */
  mask?: MatrixInput | null;
  /** Query i may not attend to keys j > i (masked decoder self-attention). Default `false`. */
  causal?: boolean;
}

export interface ScaledDotProductAttentionOptions extends AttentionMaskOptions {}

export interface MultiHeadAttentionOptions extends AttentionMaskOptions {
  /** Number of heads; must divide d_model. */
  heads: number;
  /** Query projection (d_model × d_model). */
  Wq: MatrixInput;
  /** Key projection (d_model × d_model). */
  Wk: MatrixInput;
  /** Value projection (d_model × d_model). */
  Wv: MatrixInput;
  /** Output projection (d_model × d_model), applied to the concatenated heads. */
  Wo: MatrixInput;
  /** Biases (d_model each); omitted or `null` = no bias. */
  bq?: VectorInput | null;
  bk?: VectorInput | null;
  bv?: VectorInput | null;
  bo?: VectorInput | null;
}

export interface AttentionResult {
  /** (n_q × d_v): each row is the weighted sum of the value rows. */
  output: Matrix;
  /** (n_q × n_k): row i is query i's softmax distribution over the keys. */
  weights: Matrix;
}

export interface MultiHeadAttentionResult {
  /** (n_q × d_model) */
  output: Matrix;
  /** One (n_q × n_k) weights matrix per head, in head order. */
  weights: Matrix[];
}

/** Instantiates the WebAssembly core once (later calls share it) and returns the API. */
export declare function loadAttention(): Promise<Attention>;
