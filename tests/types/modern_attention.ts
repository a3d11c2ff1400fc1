// Compiled by `tsc --strict` (npm test): the declarations of rotaryEmbedding,
// the sliding window, grouped-query attention and onlineSoftmaxAttention
// describe the API as tests/js/modern-attention.test.mjs uses it, and reject misuse.
import {
  loadAttention,
  Matrix,
  type Attention,
  type OnlineSoftmaxAttentionResult,
  type RopeScaling,
  type RotaryEmbeddingOptions,
} from '../../dist/lib/index.js';

export async function modernAttentionUsage(): Promise<number> {
  const a: Attention = await loadAttention();
  const X = [
    [1, 0, 2, 1],
    [0, 1, 1, 0],
    [1, 1, 0, 2],
  ];
  const llama3: RopeScaling = {
    rope_type: 'llama3',
    factor: 8,
    low_freq_factor: 1,
    high_freq_factor: 4,
    original_max_position_embeddings: 8192,
  };
  const options: RotaryEmbeddingOptions = { base: 500000, positions: [4, 5, 6], scaling: llama3, pairing: 'half' };
  const rotated: Matrix = a.rotaryEmbedding(X, options);
  const linear: Matrix = a.rotaryEmbedding(X, { scaling: { rope_type: 'linear', factor: 2 }, pairing: 'interleaved' });
  const wide: Float64Array = a.rotaryEmbedding(X).data;
  // @ts-expect-error rotaryEmbedding is float64 only
  a.rotaryEmbedding(X, { precision: 'float32' });
  const windowed = a.scaledDotProductAttention(X, X, X, { causal: true, window: 2 });
  const I = [
    [1, 0, 0, 0],
    [0, 1, 0, 0],
    [0, 0, 1, 0],
    [0, 0, 0, 1],
  ];
  const kv = [
    [1, 0],
    [0, 1],
    [1, 0],
    [0, 1],
  ];
  const gqa = a.multiHeadAttention(X, X, X, { heads: 4, kvHeads: 2, Wq: I, Wk: kv, Wv: kv, Wo: I, bk: [0, 1] });
  const online: OnlineSoftmaxAttentionResult = a.onlineSoftmaxAttention(X, X, X, { blockSize: 2, causal: true });
  const max: Matrix = online.max;
  // @ts-expect-error pairing is 'half' or 'interleaved'
  a.rotaryEmbedding(X, { pairing: 'pairs' });
  // @ts-expect-error llama3 scaling needs its four numbers
  a.rotaryEmbedding(X, { scaling: { rope_type: 'llama3', factor: 8 } });
  // @ts-expect-error an unknown scaling type
  a.rotaryEmbedding(X, { scaling: { rope_type: 'yarn', factor: 2 } });
  // @ts-expect-error the window is a number
  a.scaledDotProductAttention(X, X, X, { window: '2' });
  // @ts-expect-error onlineSoftmaxAttention needs its blockSize
  a.onlineSoftmaxAttention(X, X, X, { causal: true });
  return (
    rotated.rows + linear.cols + wide.length + windowed.output.rows + gqa.weights.length + max.cols + online.sum.rows
  );
}
