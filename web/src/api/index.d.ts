// Hand-written types for attention-lab (Emscripten 3.1.6 cannot emit them).
// Checked by `tsc --strict` in tests/types/.

/** A vector: plain numbers or a typed array. Always copied on input. */
export type VectorInput = readonly number[] | Float64Array | Float32Array;

/** A matrix: one row per time step / token, or row-major data with its shape. */
export type MatrixInput =
  | readonly (readonly number[] | Float64Array | Float32Array)[]
  | { readonly rows: number; readonly cols: number; readonly data: readonly number[] | Float64Array | Float32Array };

/**
 * A dense row-major matrix owned by JS (a copy, safe to keep): float64
 * (`Float64Array` data, the default) or float32 (`Float32Array` data, what the
 * float32 path returns).
 */
export declare class Matrix<D extends Float64Array | Float32Array = Float64Array> {
  constructor(rows: number, cols: number, data?: D);
  readonly rows: number;
  readonly cols: number;
  readonly data: D;
  /** Entry at row `r`, column `c`. */
  get(r: number, c: number): number;
  /** Row `r` as a new array of the data's type. */
  row(r: number): D;
  /** Nested arrays, one per row. */
  toArray(): number[][];
  transpose(): Matrix<D>;
}

// ---- precision (the float32 path) ----

/**
 * The arithmetic of matmul, attentionScores, scaledDotProductAttention and
 * multiHeadAttention. Rule: `options.precision` when given; otherwise
 * 'float32' when EVERY data input (not the mask) is Float32Array-backed, else
 * 'float64' (so plain arrays keep NumPy's float64 digits). In float32 the
 * inputs are rounded to float32 and results hold `Float32Array` data.
 */
export type Precision = 'float32' | 'float64';

/** A matrix input held in Float32Arrays: by default it selects the float32 path. */
export type Float32MatrixInput =
  readonly Float32Array[] | { readonly rows: number; readonly cols: number; readonly data: Float32Array };

/** A matrix input with no Float32Array in it: by default it selects float64. */
export type Float64MatrixInput =
  | readonly (readonly number[] | Float64Array)[]
  | { readonly rows: number; readonly cols: number; readonly data: readonly number[] | Float64Array };

/** true if some member of the union `I` is certainly a float64 input. */
type SomeFloat64<I> = true extends (I extends Float64MatrixInput ? true : false) ? true : false;

/**
 * The data type of the results for an explicit precision `P`, or (P
 * undefined) by the default rule from the union of the input types `I`:
 * Float32Array if every input is Float32Array-backed, Float64Array if one is
 * certainly not, `Float32Array | Float64Array` when the types cannot tell.
 */
export type ResultData<P extends Precision | undefined, I> = P extends 'float32'
  ? Float32Array
  : P extends 'float64'
    ? Float64Array
    : [I] extends [Float32MatrixInput]
      ? Float32Array
      : SomeFloat64<I> extends true
        ? Float64Array
        : Float32Array | Float64Array;

/** `{ precision }`: see `Precision`. */
export interface PrecisionOptions<P extends Precision | undefined = Precision | undefined> {
  /** 'float32' or 'float64'; omitted = by the inputs (see `Precision`). */
  precision?: P;
}

/** A result Matrix of either element type (for `out`: the type must match the result's, checked when called). */
export type AnyMatrix = Matrix<Float64Array | Float32Array>;

/**
 * `{ out }`: write the result into this Matrix, and return it, instead of
 * allocating a new one. Its shape must be the result's and its data a
 * Float64Array (float64) or Float32Array (float32): otherwise a RangeError or
 * TypeError before anything is computed. For pages that recompute the same
 * shapes on every edit (`C = a.matmul(A, B, { out: C })`): no new arrays.
 */
export interface OutOptions {
  out?: AnyMatrix | null;
}

/**
 * Every object that owns WebAssembly memory (RandomState, Embeddings,
 * Seq2SeqTrainer, TransformerTrainer). `delete()` frees it now; an object dropped without
 * `delete()` is freed when it is garbage-collected (FinalizationRegistry), and
 * `using x = ...` (explicit resource management, `Symbol.dispose`) frees it at
 * the end of the block. A deleted object throws TypeError when used.
 */
export interface OwnedObject {
  /** Frees the WebAssembly memory now. Calling it twice is harmless. */
  delete(): void;
  /** True once `delete()` was called. */
  readonly deleted: boolean;
}

/**
 * The API object. Every function validates its arguments and throws a
 * `TypeError` (wrong type) or `RangeError` (wrong shape, NaN, Infinity) whose
 * message names the function, the argument and the shapes. The module keeps
 * working after an error.
 */
export interface Attention {
  readonly Matrix: typeof Matrix;
  /**
   * Current size of the WebAssembly memories in bytes: the core's, plus the trainers' module once
   * loaded and the GPT-2 module's once `openModel` has loaded it (each grows on demand, up to
   * 2 GiB, and never shrinks).
   */
  memoryBytes(): number;
  /**
   * Loads the trainers (`Seq2SeqTrainer`, `TransformerTrainer`: a WebAssembly module of their
   * own) once and resolves to this object. `loadAttention()` calls it; after
   * `loadAttention({ trainers: false })`, call it before using a trainer.
   */
  loadTrainers(): Promise<Attention>;

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

  // ---- Bahdanau's concat score ----
  /**
   * Bahdanau alignment scores `w2ᵀ · tanh(W1ᵀ · [h_i; s])`, one per encoder step.
   * encoderStates: (n × h), decoderState: (h) or a 1×h matrix, W1: (2h × a),
   * w2: (a) or an a×1 / 1×a matrix → (n).
   */
  concatScores(
    encoderStates: MatrixInput,
    decoderState: VectorOrLineInput,
    W1: MatrixInput,
    w2: VectorOrLineInput,
  ): Float64Array;
  /**
   * The whole additive attention step, with every intermediate result (same
   * arguments as `concatScores`); see {@link AdditiveAttentionResult}.
   */
  concatAttention(
    encoderStates: MatrixInput,
    decoderState: VectorOrLineInput,
    W1: MatrixInput,
    w2: VectorOrLineInput,
  ): AdditiveAttentionResult;
  /**
   * The matrix product `a · b`. a: (m × k), b: (k × n) → (m × n). In float32
   * (`{ precision: 'float32' }`, or by default for Float32Array inputs: see
   * `Precision`) the result holds a Float32Array.
   */
  matmul<A extends MatrixInput, B extends MatrixInput, P extends Precision | undefined = undefined>(
    a: A,
    b: B,
    options?: PrecisionOptions<P> & OutOptions,
  ): Matrix<ResultData<P, A | B>>;

  // ---- Transformer attention ----
  /** Raw attention scores `Q Kᵀ` (divided by `√d_k` with `{ scaled: true }`). Q: (n_q × d_k), K: (n_k × d_k) → (n_q × n_k). */
  attentionScores<Q extends MatrixInput, K extends MatrixInput, P extends Precision | undefined = undefined>(
    Q: Q,
    K: K,
    options?: { scaled?: boolean } & PrecisionOptions<P> & OutOptions,
  ): Matrix<ResultData<P, Q | K>>;
  /**
   * Scaled dot-product attention, `softmax(Q Kᵀ / √d_k) V`, row by row.
   * Q: (n_q × d_k), K: (n_k × d_k), V: (n_k × d_v) → output (n_q × d_v), weights (n_q × n_k).
   * Masked keys get weight exactly 0; a query with no key left gets zero weights and a zero output.
   * Unknown option names throw a `TypeError`; shapes that disagree and masks with entries other
   * than 0/1 throw a `RangeError`.
   */
  scaledDotProductAttention<
    Q extends MatrixInput,
    K extends MatrixInput,
    V extends MatrixInput,
    P extends Precision | undefined = undefined,
  >(
    Q: Q,
    K: K,
    V: V,
    options?: ScaledDotProductAttentionOptions & PrecisionOptions<P>,
  ): AttentionResult<ResultData<P, Q | K | V>>;
  /**
   * Multi-head attention: `concat(head_1 … head_h) Wo + bo`, where head i is scaled dot-product
   * attention on columns `i·d_k … (i+1)·d_k − 1` of `Q Wq + bq`, `K Wk + bk`, `V Wv + bv`
   * (d_k = d_model / heads). Q: (n_q × d_model), K and V: (n_k × d_model), every W
   * (d_model × d_model), every b (d_model). Returns the output (n_q × d_model) and one
   * weights matrix (n_q × n_k) per head. `heads` must divide d_model. With `kvHeads`
   * (grouped-query attention) Wk and Wv are d_model × (kvHeads · d_k) and query head i
   * reads the columns of key/value head ⌊i · kvHeads / heads⌋.
   * Precision: see `Precision` (the weights and biases count as inputs too, so
   * for Float32Array Q, K, V without an explicit precision the result type is
   * `Float32Array | Float64Array`; give `precision` for an exact type).
   */
  multiHeadAttention<
    Q extends MatrixInput,
    K extends MatrixInput,
    V extends MatrixInput,
    P extends Precision | undefined = undefined,
  >(
    Q: Q,
    K: K,
    V: V,
    options: MultiHeadAttentionOptions & PrecisionOptions<P>,
  ): MultiHeadAttentionResult<MultiHeadData<P, Q | K | V>>;
  /**
   * Rotary position embedding (RoFormer, Su et al. 2021): each row of X (T × d, d even) turned,
   * pair by pair, by the angle position · θ_i, so that the dot product of two rotated rows
   * depends on their positions only through their difference. Returns a new Matrix (float64 only).
   */
  rotaryEmbedding(X: MatrixInput, options?: RotaryEmbeddingOptions): Matrix;
  /**
   * Scaled dot-product attention computed over key blocks with a running maximum and sum
   * (online softmax: Milakov & Gimelshein 2018; FlashAttention: Dao et al. 2022). The output
   * equals `scaledDotProductAttention`'s; `max` and `sum` show m and ℓ after each block.
   * Float64 only.
   */
  onlineSoftmaxAttention(
    Q: MatrixInput,
    K: MatrixInput,
    V: MatrixInput,
    options: OnlineSoftmaxAttentionOptions,
  ): OnlineSoftmaxAttentionResult;

  // ---- Embeddings ----
  /** Splits on white space exactly like Python's `str.split()` (the notebook's tokenizer). */
  tokenize(sentence: string): string[];
  /**
   * Streams GloVe text (any release: one word and its values per line) into a
   * table in the wasm memory, never holding the whole file. Accepts a BOM, CRLF,
   * trailing spaces, exponents and words containing spaces (the vector is the
   * last `dim` fields); the first occurrence of a duplicate wins. A malformed
   * line rejects with a `SyntaxError` naming its line number; an aborted
   * signal rejects with the signal's reason (an `AbortError`).
   */
  loadEmbeddings(source: EmbeddingsSource, options?: LoadEmbeddingsOptions): Promise<Embeddings>;
  /**
   * The shipped vocabulary: the 14,000 most frequent words of GloVe 6B 100d
   * (int12 with one scale per word; "a" and other one-letter words are absent).
   * Fetched from `embeddings/glove.6B.100d.14k.bin` next to the module (read from
   * disk in Node; from a base64 `<script>` twin when a page is opened from file://);
   * bundlers that follow `new URL(…, import.meta.url)` copy it. A relative `url` is
   * resolved against the page (in Node, the working directory). Rejects, naming the
   * URL, when it answers an error, an HTML page or bytes that are not this format.
   */
  loadDefaultEmbeddings(options?: {
    url?: string | URL;
    onProgress?: (progress: EmbeddingsProgress) => void;
    signal?: AbortSignal;
  }): Promise<Embeddings>;
  /** A table from attention-lab's binary form (`Embeddings.toBinary()`). */
  embeddingsFromBinary(bytes: ArrayBuffer | Uint8Array): Embeddings;
  /** Trainable dot-product attention with `nn.Linear`-initialised W_q, W_k, W_v (in → out). */
  createTrainableAttention(options?: TrainableAttentionOptions): TrainableAttention;
  /** Additive attention over every query-key pair: `w_sᵀ tanh(W_q q_i + W_k k_j)`. */
  createAdditiveAttention(options?: AdditiveAttentionOptions): AdditiveAttention;

  // ---- Seq2seq trainer ----
  /**
   * A character-level encoder–decoder with attention (bidirectional GRU encoder,
   * GRU decoder, Luong combination `tanh(Wc[c; h])`), trained in WebAssembly.
   * Owns WebAssembly memory: call `delete()` when done. Reading it before the trainers
   * are loaded (`loadAttention({ trainers: false })` without `loadTrainers()`) throws a TypeError.
   */
  readonly Seq2SeqTrainer: Seq2SeqTrainerConstructor;

  // ---- Transformer trainer ----
  /**
   * The encoder–decoder Transformer of "Attention is all you need" (pre-LN,
   * separate source/target embeddings), trained in WebAssembly on the seq2seq
   * tasks. Owns WebAssembly memory: call `delete()` when done. Reading it before the
   * trainers are loaded throws a TypeError, as for `Seq2SeqTrainer`.
   */
  readonly TransformerTrainer: TransformerTrainerConstructor;

  // ---- Open a real model (GPT-2, BERT, Llama, Qwen2, Qwen3, Gemma 3) ----
  /**
   * A checkpoint from the files of a Hugging Face model folder (`config.json`'s
   * `model_type`: `'gpt2'`, the default, `'bert'`, `'llama'`, `'qwen2'`, `'qwen3'`,
   * `'gemma3_text'`; narrow the result with `m.family`). Each file is an
   * `ArrayBuffer`, a typed array, a `Blob`/`File` or a URL string (fetched relative to
   * the page). `model.safetensors` (or the shards a `model.safetensors.index.json`
   * names) may hold F32, F16 or BF16 tensors (the linear layers' 16-bit ones, and the
   * rotary families' embedding and output tables, stay 16-bit in memory and are widened
   * exactly where read; the others are converted to float32), named with or without the
   * family's prefix, with `lm_head.weight` stored or tied (absent). A whole downloaded
   * folder may be given: files a model does not need are ignored. Everything is checked
   * before the weights are allocated; a model whose weights need more than 1.75 GiB as
   * stored is refused with a RangeError naming the MiB it needs.
   * The weights stream into WebAssembly memory: call `delete()` when done.
   */
  openModel(files: ModelFiles, options?: OpenModelOptions): Promise<OpenedModel>;
}

/** A file of a model folder: its bytes, or a URL string fetched relative to the page. */
export type ModelFile = ArrayBuffer | ArrayBufferView | Blob | string;

/**
 * The files of a Hugging Face folder. Each family adds the tokenizer files it reads
 * (its `types.d.ts` augments this interface): GPT-2 `tokenizer.json`, or `vocab.json`
 * with `merges.txt`; BERT `tokenizer.json` (WordPiece) or `vocab.txt`.
 */
export interface ModelFiles {
  readonly 'config.json': ModelFile;
  /** The checkpoint: this file, or a sharded one's index with its shards. */
  readonly 'model.safetensors'?: ModelFile;
  /** A sharded checkpoint's weight_map (tensor → shard); each shard it names must be given. */
  readonly 'model.safetensors.index.json'?: ModelFile;
  readonly [shard: `model-${number}-of-${number}.safetensors`]: ModelFile;
  /** Read where a family keeps it (its bos/eos token ids); the others below are accepted and ignored. */
  readonly 'generation_config.json'?: ModelFile;
  readonly 'tokenizer_config.json'?: ModelFile;
  readonly 'special_tokens_map.json'?: ModelFile;
  readonly 'README.md'?: ModelFile;
  readonly '.gitattributes'?: ModelFile;
  readonly LICENSE?: ModelFile;
}

/**
 * The model type of each family, by `m.family`: every `model/families/<family>/types.d.ts`
 * adds its own entry (module augmentation), so a new family edits nothing here.
 */
export interface ModelFamilies {}

/** Options of a decoder's `generate` / `generateIds` (GPT-2 and the rotary families). */
export interface GenerateOptions {
  /** New tokens at most (integer ≥ 1; default 32, or fewer when the positions leave less room); prompt + maxTokens ≤ the model's positions. */
  maxTokens?: number;
  /** Finite ≥ 0; 0 = greedy (the most likely token). Default: generation_config.json's when its do_sample is true, else 0. */
  temperature?: number;
  /** Sample among the topK most likely tokens only (integer in [1, vocab_size]; default: all). */
  topK?: number;
  /** Then among the smallest most-likely set whose probability reaches topP (in (0, 1]; default 1). */
  topP?: number;
  /** The sampler's seed (integer in [0, 2^32 − 1], default 0): the same seed repeats the same tokens. */
  seed?: number;
  /** Token ids that end generation (kept as the last token). Default: the EOS id(s) of generation_config.json, else config.json; `[]` = none. */
  stop?: readonly number[];
  /** Aborts between two tokens: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called after each new token. */
  onToken?: (step: GenerateStep) => void;
}

export interface GenerateStep {
  id: number;
  token: string;
  /** The token's probability in the distribution it was drawn from (temperature-scaled, truncated by topK / topP; 1 for greedy). */
  p: number;
  /** Its probability under the model's plain softmax. */
  pModel: number;
  /**
   * `attentions[layer][head]`: the attention row that predicted this token, i.e. the last position's
   * weights over every position before the token (prompt + earlier new tokens; length = that count).
   */
  attentions: Float32Array[][];
}

export interface GenerateResult {
  /** The new tokens only (not the prompt). */
  ids: number[];
  tokens: string[];
  /** The tokenizer's decode of `ids`. */
  text: string;
  steps: GenerateStep[];
  promptIds: number[];
  /** 'stop': a stop id ended it (it is the last of `ids`); 'maxTokens': it ran maxTokens steps. */
  stopReason: 'stop' | 'maxTokens';
}

/** What `openModel` returns: one of the families' models, narrowed by `m.family`. */
export type OpenedModel = ModelFamilies[keyof ModelFamilies];

export interface OpenModelOptions {
  /** Called as the weights load: bytes of `model.safetensors` read, of `total`. */
  onProgress?: (progress: { loaded: number; total: number }) => void;
  /** Aborts the load (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
  /**
   * The origins URL files may be answered from, after redirects (e.g. `[location.origin]`),
   * for `openModel` and every later read (`explainHead`); another is a TypeError naming the
   * file. Default: any the browser's CORS rules let through.
   */
  origins?: readonly string[];
}

// Each model family's types live with it (model/families/<family>/types.d.ts); the build
// writes model/families/index.d.ts, which re-exports every family's.
export * from './model/families/index.js';
import type { WordPieceTokenizer } from './model/families/index.js';

/** A tokenizer file: its text, its UTF-8 bytes, or (a .json file) its parsed JSON. */
export type TokenizerFile = string | ArrayBuffer | ArrayBufferView | object;

/**
 * A Hugging Face folder's tokenizer files: `tokenizer.json`, or GPT-2's `vocab.json` with
 * `merges.txt`. Other entries are ignored, so a whole folder's files can be passed.
 */
export interface TokenizerFiles {
  readonly 'tokenizer.json'?: TokenizerFile;
  readonly 'vocab.json'?: TokenizerFile;
  readonly 'merges.txt'?: string | ArrayBuffer | ArrayBufferView;
  readonly [file: string]: unknown;
}

export interface EncodeOptions {
  /** Add the special tokens the file's post-processor says (Llama's and Gemma's BOS); default true. */
  addSpecialTokens?: boolean;
}

/** A BPE tokenizer (GPT-2, Llama 2 and 3, Qwen, Mistral, Gemma, SmolLM …). Pure JS: nothing to delete. */
export interface BpeTokenizer {
  readonly kind: 'bpe';
  /** The ids Hugging Face's `tokenizer(text)` gives, each token's display text and its vocabulary piece. */
  encode(text: string, options?: EncodeOptions): { ids: number[]; tokens: string[]; pieces: string[] };
  /** The text of `ids`, as the file's decoder gives it. */
  decode(ids: readonly number[] | Int32Array | Uint32Array): string;
  /** One token's text as it reads inside a text (a partial UTF-8 character shows as U+FFFD). */
  tokenText(id: number): string;
  /** One more than the largest id. */
  readonly vocabSize: number;
}

/**
 * The tokenizer of a Hugging Face folder: BPE from `tokenizer.json` (or `vocab.json` +
 * `merges.txt`), WordPiece when the file's model is WordPiece; narrow by `kind`. A step the
 * file names that is not supported is a RangeError naming the field and its type.
 */
export declare function loadTokenizer(files: TokenizerFiles): BpeTokenizer | WordPieceTokenizer;

/**
 * The translation tasks: `'dates'` (human-written dates → ISO `yyyy-mm-dd`), `'reverse'` (3–12 digits reversed) or
 * `'sort'` (5–10 digits in ascending order).
 */
export type Seq2SeqTask = 'dates' | 'reverse' | 'sort';
/** Attention score functions: additive (with bias), Luong's dot, general (`q Wa kᵀ`) and concat (`v·tanh(Wa[q; k])`). */
export type Seq2SeqAttention = 'bahdanau' | 'luong-dot' | 'luong-general' | 'luong-concat';

// Generated from SEQ2SEQ_OPTIONS (web/src/api/trainer-options.js) by scripts/build-trainer-options.mjs.
/** The options of `new Seq2SeqTrainer()`; every one may be left out. */
export interface Seq2SeqOptions {
  /** The translation task: `'dates'`, `'reverse'`, `'sort'`. Default `'dates'`. */
  task?: Seq2SeqTask;
  /**
   * The score function: `'bahdanau'`, `'luong-dot'`, `'luong-general'`, `'luong-concat'`. Default `'luong-general'`.
   */
  attention?: Seq2SeqAttention;
  /** GRU state size H, integer in [1, 256]. Default 64. */
  hidden?: number;
  /** Character embedding size E, integer in [1, 256]. Default 32. */
  embedding?: number;
  /**
   * Examples per mini-batch B, integer in [1, 512]. Default 32. One step may do at most 2,048 default-size examples of
   * work (batch × (hidden·(hidden+embedding) + 256) / 6400): at hidden 256, embedding 256, batch ≤ 99; more throws a
   * RangeError when the trainer is made, naming the largest batch.
   */
  batch?: number;
  /** Adam's step size, in (0, 1]. Default 0.005. */
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
  /** (output length × input length): the attention scores; each row's softmax is that row of `attention`. */
  scores: Matrix;
  /**
   * (output length × (2 + outputAlphabet.length)): p(yₜ) of each step over the end symbol, the start symbol,
   * then `outputAlphabet`; the emitted character has its row's largest probability.
   */
  probabilities: Matrix;
}

/** What `train(steps)` returns, the same for both trainers. */
export interface TrainResult {
  /** The trainer's step count after this call (its `steps`). */
  step: number;
  /** The mean of `losses`. */
  loss: number;
  /** Each mini-batch's cross-entropy per target token, in order (`steps` numbers). */
  losses: number[];
}

/** The class `a.Seq2SeqTrainer` (only reachable from the loaded API object). */
export interface Seq2SeqTrainerConstructor {
  /** Throws TypeError/RangeError for unknown options, wrong types or out-of-range values. */
  new (options?: Seq2SeqOptions): Seq2SeqTrainer;
  /** Rebuilds a trainer from `save()`'s bytes; throws RangeError for corrupt or foreign data. Adam's moments restart. */
  load(bytes: Uint8Array | ArrayBuffer): Seq2SeqTrainer;
}

/** See {@link Attention.Seq2SeqTrainer}. */
export interface Seq2SeqTrainer extends OwnedObject {
  /** The options in use, defaults filled in. */
  readonly options: Readonly<Required<Seq2SeqOptions>>;
  /** Mini-batches trained so far. */
  readonly steps: number;
  /** Every character an input may contain. */
  readonly inputAlphabet: string;
  /** Every character an output may contain (columns 2… of `translate().probabilities`). */
  readonly outputAlphabet: string;
  /** Longest input `translate` accepts. */
  readonly maxInputLength: number;
  /** Size of the fixed held-out set. */
  readonly heldOutSize: number;
  readonly parameterCount: number;
  /**
   * Trains `steps` mini-batches (integer in [1, 100000]); returns the step count after them and their losses.
   * One call does at most 200,000 default-size examples of work (steps × batch × (hidden·(hidden+embedding) + 256) / 6400,
   * 6,250 steps at the defaults); larger requests throw a RangeError saying the most allowed. Loop for longer training.
   */
  train(steps: number): TrainResult;
  /** Exact-match accuracy on the first `n` held-out examples (default 500), in [0, 1]. */
  evaluate(n?: number): number;
  /** A held-out example chosen by the trainer's seeded sampler. */
  sample(): { input: string; target: string };
  /** Greedy translation; RangeError for empty, over-long input or unknown characters. */
  translate(input: string): Seq2SeqTranslation;
  /** A checkpoint: magic "A2S2", format version, options, step count, float32 weights, checksum. */
  save(): Uint8Array;
}

/** Learning-rate schedules of the Transformer trainer. */
export type TransformerSchedule = 'warmup' | 'constant';

// Generated from TRANSFORMER_OPTIONS (web/src/api/trainer-options.js) by scripts/build-trainer-options.mjs.
/** The options of `new TransformerTrainer()`; every one may be left out. */
export interface TransformerTrainerOptions {
  /** The translation task: `'dates'`, `'reverse'`, `'sort'`. Default `'dates'`. */
  task?: Seq2SeqTask;
  /** Encoder layers and decoder layers (each), integer in [1, 6]. Default 2. */
  layers?: number;
  /** Attention heads h, integer in [1, 16], dividing `dModel`. Default 4. */
  heads?: number;
  /** Model width d_model, integer in [2, 256], even (sine and cosine pairs). Default 32. */
  dModel?: number;
  /** Feed-forward width d_ff, integer in [1, 1024]. Default 64. */
  dFF?: number;
  /**
   * Examples per mini-batch B, integer in [1, 512]. Default 32. One step may do at most 2,048 default-size examples of
   * work and use an estimated 1 GiB: at the largest sizes (layers 6, heads 16, dModel 256, dFF 1024) batch ≤ 10. More
   * throws a RangeError when the trainer is made, naming the largest batch.
   */
  batch?: number;
  /**
   * The learning-rate schedule: `'warmup'`, `'constant'`. Default `'warmup'`. `'warmup'`: rate = learningRate ·
   * d_model^−0.5 · min(step^−0.5, step · warmup^−1.5) (the paper's schedule times a factor); `'constant'`: rate =
   * learningRate.
   */
  schedule?: TransformerSchedule;
  /** Factor of the warm-up schedule, or the constant rate, in (0, 10]. Default 1. */
  learningRate?: number;
  /** Warm-up steps, integer in [1, 100000]. Default 200. */
  warmup?: number;
  /** Label smoothing ε, in [0, 1). Default 0. The target is (1 − ε)·one-hot + ε/vocabulary. */
  labelSmoothing?: number;
  /** Seed of the trainer's generator (initial weights, training examples), integer in [0, 2³²−1]. Default 0. */
  seed?: number;
}

/** Attention maps: one array per layer, one `Matrix` per head; every row sums to 1. */
export type AttentionMaps = Matrix[][];

export interface TransformerTranslation {
  /** The greedy decoding (without the end token); m characters. */
  output: string;
  /** Encoder self-attention, (n × n) per layer and head, n = input length. */
  encoderSelf: AttentionMaps;
  /** Masked decoder self-attention, (m+1 × m+1): keys <start>, y₁..yₘ; zero above the diagonal. */
  decoderSelf: AttentionMaps;
  /** Encoder–decoder attention, (m+1 × n); row t produced output character t (row m the end token). */
  cross: AttentionMaps;
  /**
   * The projected queries x·Wq + bq each use's maps were computed from, one Matrix per layer
   * (rows as the maps' rows × dModel; head i is columns i·d_k … (i+1)·d_k − 1): a map's cell (t, j)
   * is the softmax over j of q_t·k_j/√d_k (masked above the diagonal in decoderSelf).
   */
  queries: { encoderSelf: Matrix[]; decoderSelf: Matrix[]; cross: Matrix[] };
  /** The projected keys x·Wk + bk, likewise (rows as the maps' columns × dModel). */
  keys: { encoderSelf: Matrix[]; decoderSelf: Matrix[]; cross: Matrix[] };
  /**
   * The rows x the queries were projected from (the layer's layer-normed input), per use and layer
   * (rows as queries × dModel): queries = queryInputs · queryWeights + queryBiases.
   */
  queryInputs: { encoderSelf: Matrix[]; decoderSelf: Matrix[]; cross: Matrix[] };
  /** The rows the keys were projected from (cross-attention: the encoder's output), rows as keys × dModel. */
  keyInputs: { encoderSelf: Matrix[]; decoderSelf: Matrix[]; cross: Matrix[] };
  /** W_q of each use and layer (dModel × dModel, input × output), as the model held it for this translation. */
  queryWeights: { encoderSelf: Matrix[]; decoderSelf: Matrix[]; cross: Matrix[] };
  /** W_k, likewise. */
  keyWeights: { encoderSelf: Matrix[]; decoderSelf: Matrix[]; cross: Matrix[] };
  /** b_q of each use and layer (1 × dModel). */
  queryBiases: { encoderSelf: Matrix[]; decoderSelf: Matrix[]; cross: Matrix[] };
  /** b_k, likewise. */
  keyBiases: { encoderSelf: Matrix[]; decoderSelf: Matrix[]; cross: Matrix[] };
}

/** The class `a.TransformerTrainer` (only reachable from the loaded API object). */
export interface TransformerTrainerConstructor {
  /** Throws TypeError/RangeError naming the option for unknown options, wrong types or out-of-range values. */
  new (options?: TransformerTrainerOptions): TransformerTrainer;
  /** Rebuilds a trainer from `save()`'s bytes; RangeError for a bad magic, version, size or checksum. Adam's moments restart. */
  load(bytes: Uint8Array | ArrayBuffer): TransformerTrainer;
}

/** See {@link Attention.TransformerTrainer}. */
export interface TransformerTrainer extends OwnedObject {
  /** The options in use, defaults filled in. */
  readonly options: Readonly<Required<TransformerTrainerOptions>>;
  /** Mini-batches trained so far. */
  readonly steps: number;
  /** Every character an input may contain. */
  readonly inputAlphabet: string;
  /** Longest input `translate` accepts. */
  readonly maxInputLength: number;
  /** Size of the fixed held-out set. */
  readonly heldOutSize: number;
  readonly parameterCount: number;
  /** Adam's rate at `step` (1-based) under the schedule. */
  learningRateAt(step: number): number;
  /**
   * Trains `steps` mini-batches (integer in [1, 100000]); returns the step count after them and their losses. One call does
   * at most 250,000 default-size examples of work (7,812 steps at the defaults; the work per example counts
   * layers, heads, dModel and dFF); larger requests throw a RangeError saying the most allowed.
   */
  train(steps: number): TrainResult;
  /**
   * Exact-match accuracy on the first `n` held-out examples (default 1000), in [0, 1]. One call decodes at most
   * 10,000 default-size examples' work (all 1000 at the defaults, 52 at the largest sizes): RangeError beyond.
   */
  evaluate(n?: number): number;
  /** A held-out example chosen by the trainer's seeded sampler. */
  sample(): { input: string; target: string };
  /** Greedy translation with every attention map; RangeError for empty, over-long input or unknown characters. */
  translate(input: string): TransformerTranslation;
  /**
   * The sinusoidal positional encoding added to the embeddings (longest sequence x dModel):
   * PE(t, 2i) = sin(t / 10000^(2i/dModel)), PE(t, 2i+1) = cos of the same angle.
   */
  positionalEncoding(): Matrix;
  /** A checkpoint: magic "A2TF", format version, options, step count, float32 weights, checksum. */
  save(): Uint8Array;
}

// ---- Embeddings ----
/** GloVe text: the whole text, its bytes, a file, or a stream / async iterable of chunks. */
export type EmbeddingsSource =
  | string
  | ArrayBuffer
  | ArrayBufferView
  | Blob
  | ReadableStream<Uint8Array | ArrayBuffer | string>
  | AsyncIterable<Uint8Array | ArrayBuffer | string>;

export interface EmbeddingsProgress {
  /** Bytes parsed so far. */
  readonly bytesRead: number;
  /** Size of the source when known (ArrayBuffer, Blob/File), else undefined. */
  readonly totalBytes: number | undefined;
  /** Lines read so far. */
  readonly lines: number;
  /** Words kept so far. */
  readonly words: number;
}

export interface LoadEmbeddingsOptions {
  /** Keep only these words (e.g. the tokens and their lower-case forms). */
  vocabulary?: Iterable<string>;
  /** Keep the words of the first `limit` lines (GloVe files are sorted by frequency), plus `vocabulary`. */
  limit?: number;
  /** Called after every chunk. */
  onProgress?: (progress: EmbeddingsProgress) => void;
  /** Aborts the load (the stream is cancelled, the memory freed). */
  signal?: AbortSignal;
  /** Bytes handed to the parser at a time (default 1 MiB). */
  chunkBytes?: number;
}

/** Word vectors in the wasm memory. Call `delete()` when done. */
/** How `Embeddings.toBinary()` stores the values: exact, or quantised with one scale per word. */
export type EmbeddingsEncoding = 'float32' | 'int16' | 'int12';

export interface Embeddings extends OwnedObject {
  /** Size of every vector. */
  readonly dim: number;
  /** Number of words. */
  readonly size: number;
  /** Where the vectors come from ('' for parsed files). */
  readonly info: string;
  /** True if the word or its lower-case form has a vector. */
  has(word: string): boolean;
  /** The word's vector, else its lower-case form's; undefined if neither exists. */
  vector(word: string): Float64Array | undefined;
  /** One row per token (tokens × dim); unknown tokens are zero rows, listed once in `missing`. */
  lookup(tokens: readonly string[]): { matrix: Matrix; missing: string[] };
  /**
   * attention-lab's binary form: 'float32' (exact, default), or one scale per word with
   * 'int16' (2 bytes a value, |error| ≤ max|v| / 65534) or 'int12' (1.5 bytes, ≤ max|v| / 4094).
   * `embeddingsFromBinary` reads all three.
   */
  toBinary(options?: { encoding?: EmbeddingsEncoding; info?: string }): Uint8Array;
}

/** An `nn.Linear` layer: weight (out × in), bias (out). */
export interface LinearParams {
  readonly weight: Matrix;
  readonly bias: Float64Array;
}
export type LinearInput = { readonly weight: MatrixInput; readonly bias: VectorInput };

export interface TrainableAttentionOptions {
  /** Embedding size (default 100). */
  inFeatures?: number;
  /** Projection size d (default 64). */
  outFeatures?: number;
  /** Seed of the parameter draw (default 0); ignored when `params` are given. */
  seed?: number;
  /** Explicit parameters instead of a random draw. */
  params?: { Wq: LinearInput; Wk: LinearInput; Wv: LinearInput };
}

export interface TrainableAttention {
  readonly inFeatures: number;
  readonly outFeatures: number;
  /** undefined when built from explicit params. */
  readonly seed: number | undefined;
  readonly params: { readonly Wq: LinearParams; readonly Wk: LinearParams; readonly Wv: LinearParams };
  /**
   * Draws new parameters, uniform in ±1/√inFeatures (PyTorch's nn.Linear default), from the NumPy-exact
   * RandomState: the same numbers as `np.random.RandomState(seed).uniform(-b, b, ...)`, weight then bias per layer.
   */
  reseed(seed: number): this;
  /** weights = softmax(Q Kᵀ / √out) with Q = W_q queries, K = W_k keys, V = W_v values (values default to keys). */
  forward(
    queries: MatrixInput,
    keys: MatrixInput,
    values?: MatrixInput,
  ): {
    weights: Matrix;
    output: Matrix;
    queries: Matrix;
    keys: Matrix;
    values: Matrix;
  };
}

export interface AdditiveAttentionOptions {
  /** Embedding size (default 100). */
  inFeatures?: number;
  /** Size of the tanh layer (default 64). */
  hiddenFeatures?: number;
  /** Seed of the parameter draw (default 0); ignored when `params` are given. */
  seed?: number;
  /** Explicit parameters; Ws maps hidden → 1. */
  params?: { Wq: LinearInput; Wk: LinearInput; Ws: LinearInput };
}

export interface AdditiveAttention {
  readonly inFeatures: number;
  readonly hiddenFeatures: number;
  readonly seed: number | undefined;
  readonly params: { readonly Wq: LinearParams; readonly Wk: LinearParams; readonly Ws: LinearParams };
  /** Draws new W_q, W_k, w_s like TrainableAttention.reseed (NumPy-exact RandomState). */
  reseed(seed: number): this;
  /**
   * scores(i, j) = w_s · tanh(W_q q_i + b_q + W_k k_j + b_k) + b_s for every query i and key j,
   * weights = row softmax, output = weights values (values default to keys).
   */
  forward(
    queries: MatrixInput,
    keys: MatrixInput,
    values?: MatrixInput,
  ): {
    scores: Matrix;
    weights: Matrix;
    output: Matrix;
    queries: Matrix;
    keys: Matrix;
  };
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
export interface RandomState extends OwnedObject {
  /**
   * Standard normal values: `np.random.randn(rows, cols)` (legacy polar Box–Muller, cached second value).
   * Bit-for-bit equal to NumPy on x86-64 Linux, last bits included: the logarithm is a port of glibc's
   * `log()` (the one NumPy calls), not WebAssembly's musl `log()`, which is 1 ulp off for a few inputs.
   */
  randn(rows: number, cols: number, options?: OutOptions): Matrix;
  /** Uniform values in [0, 1) with 53 random bits: `np.random.rand(rows, cols)`. */
  rand(rows: number, cols: number, options?: OutOptions): Matrix;
  /**
   * Integers in [low, high): `np.random.randint(low, high, size=(rows, cols))`.
   * low and high are integers with -2^53 <= low < high <= 2^53; values may
   * exceed 2^31, so they are returned as (exact) doubles in the Matrix.
   */
  randint(low: number, high: number, rows: number, cols: number, options?: OutOptions): Matrix;
}

// ---- Bahdanau's concat score ----

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
  /** (n): `activations · w2`, the alignment scores (same as `concatScores`). */
  readonly scores: Float64Array;
  /** (n): `softmax(scores)`. */
  readonly weights: Float64Array;
  /** (n × h): row i is `weights[i] · h_i`. */
  readonly weighted: Matrix;
  /** (h): the context vector, the sum of the rows of `weighted`. */
  readonly context: Float64Array;
}

// ---- Transformer attention types ----

/** Which keys each query may attend to. */
export interface AttentionMaskOptions {
  /** (n_q × n_k) of 0/1: 0 = query i may not attend to key j (e.g. padding). `null` = no mask. */
  mask?: MatrixInput | null;
  /** Query i may not attend to keys j > i (masked decoder self-attention). Default `false`. */
  causal?: boolean;
}

/** The options besides `precision` (which the functions take as `PrecisionOptions`). */
export interface ScaledDotProductAttentionOptions extends AttentionMaskOptions {
  /**
   * A sliding window of W keys (Beltagy et al. 2020): key j is hidden from query i when
   * j ≤ i − W, so with `causal` query i sees keys i − W < j ≤ i. An integer ≥ 1; omitted = none.
   */
  window?: number;
  /**
   * Matrices to write the output and/or the weights into (e.g. the previous result), returned
   * in the result: same shapes and element type as the result's (see `OutOptions`).
   */
  out?: { output?: AnyMatrix | null; weights?: AnyMatrix | null } | null;
}

/** The options besides `precision` (which the function takes as `PrecisionOptions`). */
export interface MultiHeadAttentionOptions extends AttentionMaskOptions {
  /** Number of (query) heads; must divide d_model. */
  heads: number;
  /**
   * Key/value heads, dividing `heads` (default `heads`): grouped-query attention (Ainslie et
   * al. 2023); 1 is multi-query attention (Shazeer 2019). Query head h reads key/value head
   * ⌊h · kvHeads / heads⌋.
   */
  kvHeads?: number;
  /** Query projection (d_model × d_model). */
  Wq: MatrixInput;
  /** Key projection (d_model × kvHeads · d_k; d_model × d_model without kvHeads). */
  Wk: MatrixInput;
  /** Value projection (d_model × kvHeads · d_k; d_model × d_model without kvHeads). */
  Wv: MatrixInput;
  /** Output projection (d_model × d_model), applied to the concatenated heads. */
  Wo: MatrixInput;
  /** Biases (as many entries as their W has columns); omitted or `null` = no bias. */
  bq?: VectorInput | null;
  bk?: VectorInput | null;
  bv?: VectorInput | null;
  bo?: VectorInput | null;
  /** Matrices to write into, as in `ScaledDotProductAttentionOptions.out`; `weights`: one per head. */
  out?: { output?: AnyMatrix | null; weights?: AnyMatrix[] | null } | null;
}

/** How `rotaryEmbedding` pairs a row's coordinates: i with i + d/2, or 2i with 2i + 1. */
export type RopePairing = 'half' | 'interleaved';

/** Frequency scaling for longer contexts, as in a Hugging Face config's `rope_scaling`. */
export type RopeScaling =
  | { rope_type: 'linear'; factor: number }
  | {
      rope_type: 'llama3';
      factor: number;
      low_freq_factor: number;
      high_freq_factor: number;
      original_max_position_embeddings: number;
    };

export interface RotaryEmbeddingOptions {
  /** θ_i = base^(−2i/d). Default 10000. */
  base?: number;
  /** One position (an integer ≥ 0) per row; default 0 … T − 1. */
  positions?: readonly number[] | Int32Array | Float64Array;
  /** Omitted or `null` = none. */
  scaling?: RopeScaling | null;
  /** Default 'half' (Llama, Qwen, Gemma); 'interleaved' is the RoFormer paper's. */
  pairing?: RopePairing;
}

export interface OnlineSoftmaxAttentionOptions {
  /** Keys per block, an integer ≥ 1. */
  blockSize: number;
  /** Query i may not attend to keys j > i. Default `false`. */
  causal?: boolean;
}

export interface OnlineSoftmaxAttentionResult<D extends Float64Array | Float32Array = Float64Array> {
  /** (n_q × d_v), equal to `scaledDotProductAttention`'s output. */
  output: Matrix<D>;
  /** (n_q × ⌈n_k / blockSize⌉): the running maximum m after each block (−Infinity before any visible key). */
  max: Matrix<D>;
  /** (n_q × ⌈n_k / blockSize⌉): the running sum ℓ of exp(score − m) after each block (0 before any visible key). */
  sum: Matrix<D>;
}

export interface AttentionResult<D extends Float64Array | Float32Array = Float64Array> {
  /** (n_q × d_v): each row is the weighted sum of the value rows. */
  output: Matrix<D>;
  /** (n_q × n_k): row i is query i's softmax distribution over the keys. */
  weights: Matrix<D>;
}

export interface MultiHeadAttentionResult<D extends Float64Array | Float32Array = Float64Array> {
  /** (n_q × d_model) */
  output: Matrix<D>;
  /** One (n_q × n_k) weights matrix per head, in head order. */
  weights: Matrix<D>[];
}

/**
 * Multi-head attention's result data: ResultData over Q, K and V, except that
 * Float32Array Q, K, V alone cannot tell (the weights count too).
 */
export type MultiHeadData<P extends Precision | undefined, I> =
  ResultData<P, I> extends Float32Array
    ? P extends 'float32'
      ? Float32Array
      : Float32Array | Float64Array
    : ResultData<P, I>;

/** Options of `loadAttention`. */
export interface LoadAttentionOptions {
  /**
   * Whether to load the trainers' WebAssembly module too (default true). `false` leaves it
   * for `a.loadTrainers()`: a page that trains nothing downloads less.
   */
  trainers?: boolean;
}

/**
 * Instantiates the WebAssembly core once (later calls share it) and returns the API, with
 * the trainers unless `options.trainers` is false. Invalid options reject with a TypeError.
 */
export declare function loadAttention(options?: LoadAttentionOptions): Promise<Attention>;
