// onnxruntime-web as every model bench runs it: the wasm execution provider on
// one thread, in this process (no proxy worker), every graph optimization on.
import { readFileSync } from 'node:fs';

let ort;

/** The onnxruntime-web module, set to one thread. */
export async function loadOrt() {
  if (!ort) {
    ort = await import('onnxruntime-web');
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.proxy = false;
  }
  return ort;
}

/** An inference session of the ONNX file at `path`. */
export async function ortSession(path) {
  const o = await loadOrt();
  return o.InferenceSession.create(readFileSync(path), {
    executionProviders: ['wasm'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
}

/** `n` token ids in [0, vocab) from a fixed linear congruential sequence. */
export function lcgIds(n, vocab, seed) {
  let s = seed;
  return Array.from({ length: n }, () => (s = (s * 1103515245 + 12345) % 2 ** 31) % vocab);
}
