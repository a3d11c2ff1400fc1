// The BERT family's types (web/src/api/model/families/bert/): what openModel
// returns for a BERT folder. Re-exported by index.d.ts.
import type { Matrix, OwnedObject, ModelFile } from '../../../index.js';

/** The `config.json` fields a BERT runs with (checked; BertConfig's defaults filled in). */
export interface BertConfig {
  readonly model_type: 'bert';
  readonly num_hidden_layers: number;
  readonly num_attention_heads: number;
  readonly hidden_size: number;
  readonly intermediate_size: number;
  readonly max_position_embeddings: number;
  readonly type_vocab_size: number;
  readonly vocab_size: number;
  readonly layer_norm_eps: number;
  readonly hidden_act: 'gelu_new' | 'gelu_pytorch_tanh' | 'gelu_fast' | 'gelu';
}

export interface WordPieceTokenizer {
  readonly kind: 'wordpiece';
  /** `[CLS] text [SEP]` (and `pair [SEP]`), with each token's type (0, then 1 for the pair). */
  encode(text: string, pair?: string): { ids: number[]; tokens: string[]; typeIds: number[] };
  /** The WordPiece tokens of `text`, without `[CLS]`/`[SEP]`. */
  tokenize(text: string): string[];
  decode(ids: readonly number[]): string;
  tokenText(id: number): string;
  idOf(token: string): number | undefined;
  readonly vocabSize: number;
}

export interface BertRunOptions {
  /** How many predictions per `[MASK]` (default 10). */
  k?: number;
  /** Also return each `[MASK]`'s logits. */
  logits?: boolean;
}

export interface BertResult {
  tokens: string[];
  ids: number[];
  typeIds: number[];
  /** `attentions[layer][head]`: (T × T) float32 weights, row = query; every token sees every token. */
  attentions: Matrix[][];
  /** For a masked-LM checkpoint, each `[MASK]`'s most likely tokens, most likely first (empty otherwise). */
  masked: { position: number; top: { id: number; token: string; p: number }[]; logits?: Float32Array }[];
}

export interface BertExplainOptions {
  /** Layer, integer in [0, num_hidden_layers). */
  layer: number;
  /** Head, integer in [0, num_attention_heads). */
  head: number;
  /** The second sentence, as run() takes it. */
  pair?: string;
  signal?: AbortSignal;
}

export interface BertHeadInputs {
  tokens: string[];
  ids: number[];
  typeIds: number[];
  /** (T × d_k): the head's queries, keys and values; its weights are softmax(q kᵀ · scale) over every key. */
  q: Matrix;
  k: Matrix;
  v: Matrix;
  /** (T × hidden_size): the layer's input (the previous layer's output, or the embeddings, after their LayerNorm). */
  x: Matrix;
  /** (hidden_size × d_k): the head's rows of query, key, value transposed, so q = x wq + bq. */
  wq: Matrix;
  wk: Matrix;
  wv: Matrix;
  /** (1 × d_k): their biases. */
  bq: Matrix;
  bk: Matrix;
  bv: Matrix;
  /** 1/√d_k. */
  scale: number;
}

export interface BertModel extends OwnedObject {
  readonly family: 'bert';
  readonly config: BertConfig;
  readonly tokenizer: WordPieceTokenizer;
  /** True when the checkpoint has the masked-LM head (`cls.predictions.*`). */
  readonly maskedLm: boolean;
  /** `[CLS] text [SEP]` (with `options.pair`: `… [SEP] pair [SEP]`, types 0 then 1); too long is a RangeError. */
  run(text: string, options?: BertRunOptions & { pair?: string }): BertResult;
  /** 1 to `max_position_embeddings` ids; `typeIds` default all 0. */
  runIds(
    ids: readonly number[] | Int32Array | Uint32Array,
    options?: BertRunOptions & { typeIds?: readonly number[] | Int32Array | Uint32Array },
  ): BertResult;
  /**
   * One head's q, k, v on `text` (and `options.pair`) with what they are computed from (x, wq, …).
   * Reads the layer's query, key and value weights again from the model file.
   */
  explainHead(text: string, options: BertExplainOptions): Promise<BertHeadInputs>;
}

// This family's entries in the shared types: openModel's result and the files it reads.
declare module '../../../index.js' {
  interface ModelFamilies {
    bert: BertModel;
  }
  interface ModelFiles {
    readonly 'tokenizer.json'?: ModelFile;
    readonly 'vocab.txt'?: ModelFile;
  }
}
