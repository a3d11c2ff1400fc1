// Compiled by `tsc --strict` (npm test): the float32 path's declarations. The
// result's data type follows `precision`, or by default the inputs (every one
// Float32Array-backed -> Float32Array), and misuse is rejected.
import { loadAttention, Matrix, type Attention, type Precision } from '../../dist/lib/index.js';

export async function float32Usage(): Promise<number> {
  const a: Attention = await loadAttention();
  const A = new Matrix(2, 2, new Float32Array([1, 2, 3, 4]));
  const B = new Matrix(2, 2);
  const plain = [
    [1, 0],
    [0, 1],
  ];

  // Default rule: Float32Array-backed inputs give Float32Array results ...
  const f32: Matrix<Float32Array> = a.matmul(A, A);
  const rows: Float32Array = a.matmul([new Float32Array(2)], [new Float32Array(2), new Float32Array(2)]).data;
  const viaObject: Float32Array = a.matmul({ rows: 2, cols: 2, data: new Float32Array(4) }, A).data;
  // ... plain arrays and Float64Arrays stay float64, and so does a mix.
  const f64: Matrix = a.matmul(plain, plain);
  const mixed: Float64Array = a.matmul(A, B).data;
  const mixedPlain: Float64Array = a.matmul(A, plain).data;

  // Explicit precision wins.
  const forced32: Float32Array = a.matmul(plain, plain, { precision: 'float32' }).data;
  const forced64: Float64Array = a.matmul(A, A, { precision: 'float64' }).data;
  const chosen: Precision = Math.random() < 0.5 ? 'float32' : 'float64';
  const either: Float32Array | Float64Array = a.matmul(A, A, { precision: chosen }).data;

  const sdpa = a.scaledDotProductAttention(A, A, A, { causal: true, mask: plain });
  const w: Float32Array = sdpa.weights.data;
  const o: Float32Array = sdpa.output.row(0);
  const sdpa64: Float64Array = a.scaledDotProductAttention(plain, plain, plain).output.data;
  const scores: Float32Array = a.attentionScores(A, A, { scaled: true }).data;
  const scores64: Float64Array = a.attentionScores(A, A, { scaled: true, precision: 'float64' }).data;

  // Multi-head attention: the weights count too, so without precision
  // Float32Array Q, K, V cannot tell; with it the type is exact.
  const I = new Matrix(2, 2, new Float32Array([1, 0, 0, 1]));
  const mha = a.multiHeadAttention(A, A, A, { heads: 2, Wq: I, Wk: I, Wv: I, Wo: I, precision: 'float32' });
  const heads: Float32Array = mha.weights[1].data;
  const unsure: Float32Array | Float64Array = a.multiHeadAttention(A, A, A, { heads: 1, Wq: I, Wk: I, Wv: I, Wo: I })
    .output.data;
  const mha64: Float64Array = a.multiHeadAttention(plain, plain, plain, { heads: 1, Wq: I, Wk: I, Wv: I, Wo: I }).output
    .data;

  // @ts-expect-error a float32 result is not a Float64Array
  const wrong: Float64Array = a.matmul(A, A).data;
  // @ts-expect-error precision is 'float32' or 'float64'
  a.matmul(A, A, { precision: 'float16' });
  // @ts-expect-error precision is a string
  a.scaledDotProductAttention(A, A, A, { precision: 32 });
  // @ts-expect-error unknown option name
  a.matmul(A, A, { precison: 'float32' });
  // @ts-expect-error Matrix data is a Float64Array or a Float32Array
  new Matrix(1, 1, new Int32Array(1));

  const t: Matrix<Float32Array> = A.transpose();
  return (
    f32.data[0] +
    rows[0] +
    viaObject[0] +
    f64.data[0] +
    mixed[0] +
    mixedPlain[0] +
    forced32[0] +
    forced64[0] +
    either[0] +
    w[0] +
    o[0] +
    sdpa64[0] +
    scores[0] +
    scores64[0] +
    heads[0] +
    unsure[0] +
    mha64[0] +
    wrong[0] +
    t.get(0, 0)
  );
}
