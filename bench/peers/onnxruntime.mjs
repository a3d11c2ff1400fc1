// onnxruntime-web, wasm execution provider, one thread, on the ONNX graphs of
// bench/make_attention_onnx.py (committed in bench/onnx/). Its wasm binary is
// loaded from node_modules by the package's Node build: no network.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export async function loadOnnxRuntime(onnxDir) {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true; // the only build 1.30 ships is the SIMD one; kept for older versions
  ort.env.wasm.proxy = false;
  const version = ort.env.versions?.web ?? '?';

  const peer = (precision) => ({
    label: `onnxruntime-web ${version} ${precision}`,
    precision,
    async prepare(op, x) {
      const file = join(
        onnxDir,
        op === 'sdpa' ? `sdpa_n${x.n}_${precision}.onnx` : `mha_n${x.n}_d${x.dModel}_h${x.heads}_${precision}.onnx`,
      );
      if (!existsSync(file)) throw new Error(`${file} is missing: run bench/make_attention_onnx.py`);
      const session = await ort.InferenceSession.create(readFileSync(file), {
        executionProviders: ['wasm'],
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
        graphOptimizationLevel: 'all',
      });
      const Typed = precision === 'float32' ? Float32Array : Float64Array;
      const tensor = (m) => new ort.Tensor(precision, Typed.from(m.data), [m.rows, m.cols]);
      // Inputs converted once, as a user holding float32/float64 arrays would; run() copies them in.
      const names = op === 'sdpa' ? ['Q', 'K', 'V'] : ['X', 'Wq', 'Wk', 'Wv', 'Wo'];
      const feeds = Object.fromEntries(names.map((name) => [name, tensor(x[name])]));
      const run = async () => (await session.run(feeds)).output.data;
      run.dispose = () => session.release();
      return run;
    },
  });
  return { float64: peer('float64'), float32: peer('float32') };
}
