// Types the rotary decoder families share (model/families/llama, qwen2, qwen3,
// gemma3; runtime: model/rotary_family.js). Each family's types.d.ts names its
// config and model from these; llama/types.d.ts re-exports them.
import type { GenerateOptions, GenerateResult, Matrix, OwnedObject } from '../index.js';

/** rope_scaling as the core computes it (null: none, or rope_type 'default'). */
export type RotaryScaling =
  | { readonly rope_type: 'linear'; readonly factor: number }
  | {
      readonly rope_type: 'llama3';
      readonly factor: number;
      readonly low_freq_factor: number;
      readonly high_freq_factor: number;
      readonly original_max_position_embeddings: number;
    };

/** The `config.json` fields every rotary family runs with (checked; the family's defaults filled in). */
export interface RotaryConfig {
  readonly num_hidden_layers: number;
  readonly num_attention_heads: number;
  /** Query head h reads kv head ⌊h · num_key_value_heads / num_attention_heads⌋. */
  readonly num_key_value_heads: number;
  readonly hidden_size: number;
  readonly head_dim: number;
  readonly intermediate_size: number;
  readonly vocab_size: number;
  readonly max_position_embeddings: number;
  readonly rms_norm_eps: number;
  readonly rope_theta: number;
  readonly rope_scaling: RotaryScaling | null;
  readonly tie_word_embeddings: boolean;
  readonly attention_bias: boolean;
  readonly mlp_bias: boolean;
  /** The window W of the sliding layers (key j visible from query i when i − W < j ≤ i), or null. */
  readonly sliding_window: number | null;
  /** Each layer's attention, or null when none slides. */
  readonly layer_types: readonly ('sliding_attention' | 'full_attention')[] | null;
  /** config.json's EOS id(s): generate's default stop without generation_config.json. */
  readonly eos_token_id: number | readonly number[] | null;
}

export interface RotaryTokenizer {
  encode(text: string): { ids: number[]; tokens: string[]; pieces: string[] };
  decode(ids: readonly number[]): string;
  tokenText(id: number): string;
  readonly vocabSize: number;
}

export interface RotaryRunOptions {
  /** How many next tokens to list (default 10). */
  k?: number;
  /** Also return the last position's logits. */
  logits?: boolean;
}

export interface RotaryResult {
  tokens: string[];
  ids: number[];
  /**
   * `attentions[layer][head]` for every query head: (T × T) float32 weights, row = query,
   * zero above the diagonal (causal) and, on sliding layers, left of the window.
   */
  attentions: Matrix[][];
  /** The most likely next tokens, most likely first. */
  next: { id: number; token: string; p: number }[];
  /** The last position's logits (vocab_size; after final_logit_softcapping), with `{ logits: true }`. */
  logits?: Float32Array;
}

export interface RotaryExplainOptions {
  /** Layer, integer in [0, num_hidden_layers). */
  layer: number;
  /** Query head, integer in [0, num_attention_heads). */
  head: number;
  signal?: AbortSignal;
}

export interface RotaryHeadInputs {
  tokens: string[];
  ids: number[];
  /** (T × head_dim) queries of the head before RoPE (after the QK-norm where the family has it). */
  q: Matrix;
  /** (T × head_dim) keys and values of its kv head; k before RoPE. */
  k: Matrix;
  v: Matrix;
  /** q and k rotated: the weights are softmax(qRotated kRotatedᵀ · scale), causal (windowed on sliding layers). */
  qRotated: Matrix;
  kRotated: Matrix;
  /** The kv head this query head reads. */
  kvHead: number;
  /** The score scale: head_dim^−½, or query_pre_attn_scalar^−½ (Gemma 3). */
  scale: number;
  /** The layer's sliding window, or null. */
  window: number | null;
}

/** generation_config.json's token ids, when the folder had that file. */
export interface GenerationConfig {
  readonly bos_token_id: number | readonly number[] | null;
  readonly eos_token_id: number | readonly number[] | null;
}

export interface RotaryModel<Family extends string, Config extends RotaryConfig> extends OwnedObject {
  readonly family: Family;
  readonly config: Config;
  readonly tokenizer: RotaryTokenizer;
  /** From generation_config.json; null without it. */
  readonly generationConfig: GenerationConfig | null;
  /** Tokenizes `text` and runs the model; more tokens than `max_position_embeddings` is a RangeError. */
  run(text: string, options?: RotaryRunOptions): RotaryResult;
  /** Runs the model on 1 to `max_position_embeddings` token ids in [0, vocab_size). */
  runIds(ids: readonly number[] | Int32Array | Uint32Array, options?: RotaryRunOptions): RotaryResult;
  /** Continues `prompt` token by token with a KV cache (greedy or seeded sampling). */
  generate(prompt: string, options?: GenerateOptions): Promise<GenerateResult>;
  /** The same from token ids. */
  generateIds(ids: readonly number[] | Int32Array | Uint32Array, options?: GenerateOptions): Promise<GenerateResult>;
  /** One query head's q, k, v on `text` (before and after RoPE), recomputed in the core. */
  explainHead(text: string, options: RotaryExplainOptions): Promise<RotaryHeadInputs>;
}
