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
  /**
   * A character-level encoder–decoder with attention (bidirectional GRU encoder,
   * GRU decoder, Luong combination `tanh(Wc[c; h])`), trained in WebAssembly.
   * Owns WebAssembly memory: call `delete()` when done.
   */
  readonly Seq2SeqTrainer: typeof Seq2SeqTrainer;
}

/** The translation tasks: `'dates'` (human-written dates → ISO `yyyy-mm-dd`) or `'reverse'` (digit strings reversed). */
export type Seq2SeqTask = 'dates' | 'reverse';
/** Attention score functions: additive (with bias), Luong's dot, general (`q Wa kᵀ`) and concat (`v·tanh(Wa[q; k])`). */
export type Seq2SeqAttention = 'bahdanau' | 'luong-dot' | 'luong-general' | 'luong-concat';

export interface Seq2SeqOptions {
  /** Default `'dates'`. */
  task?: Seq2SeqTask;
  /** Default `'luong-general'`. */
  attention?: Seq2SeqAttention;
  /** GRU state size, integer in [1, 256]. Default 64. */
  hidden?: number;
  /** Character embedding size, integer in [1, 256]. Default 32. */
  embedding?: number;
  /** Examples per mini-batch, integer in [1, 512]. Default 32. */
  batch?: number;
  /** Adam step size in (0, 1]. Default 0.005. */
  learningRate?: number;
  /** Seed of the trainer's generator (initial weights, training examples), integer in [0, 2³²−1]. Default 0. */
  seed?: number;
}

export interface Seq2SeqTranslation {
  /** The greedy decoding (without the end token). */
  output: string;
  /** (output length × input length): the attention weights of each output character; rows sum to 1. */
  attention: Matrix;
  /** (input length × hidden): the encoder outputs sⱼ that attention reads. */
  encoderOutputs: Matrix;
  /** (output length × hidden): the decoder states hₜ used as queries. */
  decoderStates: Matrix;
}

/** See {@link Attention.Seq2SeqTrainer}. Obtain the class from the loaded API object. */
export declare class Seq2SeqTrainer {
  /** Throws TypeError/RangeError for unknown options, wrong types or out-of-range values. */
  constructor(options?: Seq2SeqOptions);
  /** Rebuilds a trainer from `save()`'s bytes; throws RangeError for corrupt or foreign data. Adam's moments restart. */
  static load(bytes: Uint8Array | ArrayBuffer): Seq2SeqTrainer;
  /** The options in use, defaults filled in. */
  readonly options: Readonly<Required<Seq2SeqOptions>>;
  /** Mini-batches trained so far. */
  readonly steps: number;
  /** Every character an input may contain. */
  readonly inputAlphabet: string;
  /** Longest input `translate` accepts. */
  readonly maxInputLength: number;
  /** Size of the fixed held-out set. */
  readonly heldOutSize: number;
  readonly parameterCount: number;
  /** Trains `steps` mini-batches (integer in [1, 100000]); returns their mean cross-entropy per output token. */
  train(steps: number): number;
  /** Exact-match accuracy on the first `n` held-out examples (default 500), in [0, 1]. */
  evaluate(n?: number): number;
  /** A held-out example chosen by the trainer's seeded sampler. */
  sample(): { input: string; target: string };
  /** Greedy translation; RangeError for empty, over-long input or unknown characters. */
  translate(input: string): Seq2SeqTranslation;
  /** A checkpoint: magic "A2S2", format version, options, step count, float32 weights, checksum. */
  save(): Uint8Array;
  /** Frees the trainer's WebAssembly memory; any later call throws. */
  delete(): void;
}

/** Instantiates the WebAssembly core once (later calls share it) and returns the API. */
export declare function loadAttention(): Promise<Attention>;
