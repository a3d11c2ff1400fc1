// The GPT-2 family's types (web/src/api/model/families/gpt2/): what openModel
// returns for a GPT-2 folder. Re-exported by index.d.ts.
import type { GenerateOptions, GenerateResult, Matrix, OwnedObject, ModelFile } from '../../../index.js';

/** The `config.json` fields a GPT-2 runs with (checked; GPT2Config's defaults filled in). */
export interface Gpt2Config {
  readonly model_type: 'gpt2';
  readonly n_layer: number;
  readonly n_head: number;
  readonly n_embd: number;
  readonly n_positions: number;
  readonly vocab_size: number;
  readonly n_inner: number;
  readonly layer_norm_epsilon: number;
  readonly activation_function: 'gelu_new' | 'gelu_pytorch_tanh' | 'gelu_fast' | 'gelu';
  /** generate's default stop id(s) (GPT2Config's default 50256). */
  readonly eos_token_id: number | readonly number[] | null;
}

export interface Gpt2Tokenizer {
  encode(text: string): { ids: number[]; tokens: string[]; pieces: string[] };
  decode(ids: readonly number[]): string;
  tokenText(id: number): string;
  readonly vocabSize: number;
}

export interface Gpt2RunOptions {
  /** How many next tokens to list (default 10). */
  k?: number;
  /** Also return the last position's logits. */
  logits?: boolean;
}

export interface Gpt2Result {
  /** Each token's text. */
  tokens: string[];
  ids: number[];
  /** `attentions[layer][head]`: (T × T) float32 weights, row = query, zero above the diagonal (causal). */
  attentions: Matrix[][];
  /** The most likely next tokens, most likely first. */
  next: { id: number; token: string; p: number }[];
  /** The last position's logits (vocab_size), with `{ logits: true }`. */
  logits?: Float32Array;
}

export interface Gpt2Model extends OwnedObject {
  readonly family: 'gpt2';
  readonly config: Gpt2Config;
  readonly tokenizer: Gpt2Tokenizer;
  /** Tokenizes `text` and runs the model; more tokens than `n_positions` is a RangeError. */
  run(text: string, options?: Gpt2RunOptions): Gpt2Result;
  /** Runs the model on 1 to `n_positions` token ids in [0, vocab_size). */
  runIds(ids: readonly number[] | Int32Array | Uint32Array, options?: Gpt2RunOptions): Gpt2Result;
  /** Continues `prompt` token by token with a KV cache (greedy or seeded sampling). */
  generate(prompt: string, options?: GenerateOptions): Promise<GenerateResult>;
  /** The same from token ids. */
  generateIds(ids: readonly number[] | Int32Array | Uint32Array, options?: GenerateOptions): Promise<GenerateResult>;
  /**
   * One head's queries, keys and values on `text` ((T × d_k) float32), to explain its weights down to q·k,
   * with the rows and weights they were projected from (x, wq, bq, …: q = x wq + bq).
   * Reads that layer's ln_1 and c_attn weights again from `model.safetensors` (nothing is kept for it).
   */
  explainHead(text: string, options: Gpt2ExplainOptions): Promise<Gpt2HeadInputs>;
}

export interface Gpt2ExplainOptions {
  /** Layer, integer in [0, n_layer). */
  layer: number;
  /** Head, integer in [0, n_head). */
  head: number;
  signal?: AbortSignal;
}

export interface Gpt2HeadInputs {
  tokens: string[];
  ids: number[];
  /** (T × d_k): the head's queries, keys and values; its weights are softmax(q kᵀ/√d_k), causal. */
  q: Matrix;
  k: Matrix;
  v: Matrix;
  /** (T × n_embd): the rows the head projects, ln_1 of the layer's residual stream. */
  x: Matrix;
  /** (n_embd × d_k): the head's columns of c_attn, so q = x wq + bq (k, v alike). */
  wq: Matrix;
  wk: Matrix;
  wv: Matrix;
  /** (1 × d_k): the head's biases of c_attn. */
  bq: Matrix;
  bk: Matrix;
  bv: Matrix;
}

// This family's entries in the shared types: openModel's result and the files it reads.
declare module '../../../index.js' {
  interface ModelFamilies {
    gpt2: Gpt2Model;
  }
  interface ModelFiles {
    readonly 'tokenizer.json'?: ModelFile;
    readonly 'vocab.json'?: ModelFile;
    readonly 'merges.txt'?: ModelFile;
  }
}
