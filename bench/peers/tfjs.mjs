// TensorFlow.js with its wasm backend (XNNPACK), float32: the attention graph
// written with tf.matMul / tf.softmax. In Node the backend runs one thread
// (its multithread flag is off under Node) and reads its wasm from node_modules.
export async function loadTfjs() {
  const tf = await import('@tensorflow/tfjs-core');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  wasm.setThreadsCount?.(1);
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialise');
  await tf.ready();
  const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
  const threads = wasm.getThreadsCount?.() ?? 1;

  const attention = (q, k, v, scale) => {
    const weights = tf.softmax(tf.mul(tf.matMul(q, k, false, true), scale));
    return tf.matMul(weights, v);
  };
  const sdpa = (x) => () =>
    tf.tidy(() => {
      const [q, k, v] = [x.Q, x.K, x.V].map((m) => tf.tensor2d(m.data, [m.rows, m.cols], 'float32'));
      return attention(q, k, v, 1 / Math.sqrt(x.d));
    });
  const mha = (x) => () =>
    tf.tidy(() => {
      const { n, dModel, heads } = x;
      const dk = dModel / heads;
      const t = (m) => tf.tensor2d(m.data, [m.rows, m.cols], 'float32');
      const X = t(x.X);
      // (n x d_model) -> (h x n x d_k): head i = columns [i d_k, (i+1) d_k).
      const split = (W) => tf.transpose(tf.reshape(tf.matMul(X, t(W)), [n, heads, dk]), [1, 0, 2]);
      const o = attention(split(x.Wq), split(x.Wk), split(x.Wv), 1 / Math.sqrt(dk));
      return tf.matMul(tf.reshape(tf.transpose(o, [1, 0, 2]), [n, dModel]), t(x.Wo));
    });

  return {
    label: `tfjs-backend-wasm ${wasm.version_wasm} float32`,
    precision: 'float32',
    info: `simd ${simd}, threads ${threads}`,
    prepare(op, x) {
      const graph = op === 'sdpa' ? sdpa(x) : mha(x);
      return () => {
        const out = graph();
        const data = out.dataSync(); // a copy out of the wasm heap
        out.dispose();
        return data;
      };
    },
  };
}
