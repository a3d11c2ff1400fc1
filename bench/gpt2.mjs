// `npm run bench`, part: a GPT-2-small-shaped model (12 layers, 12 heads,
// n_embd 768, vocab 50257; random float32 weights written at bench time by
// bench/make_gpt2_onnx.py, ~1 GB in the OS temp folder, reused if present) on
// 64 tokens, one thread:
//   attention-lab    openModel (the Hugging Face files, the model.safetensors as a
//                    file-backed Blob), then Gpt2Model.runIds: every layer's and
//                    head's attention maps and the next-token probabilities
//   onnxruntime-web  wasm EP, 1 thread, float32, the same forward pass as an ONNX
//                    graph with the same weights as initializers, the same outputs
// Times are medians of alternating rounds (one warm-up each). Targets (issue 25):
// ours <= 1 s per forward pass, and >= 1.2x onnxruntime-web's speed. Both
// outputs are compared (max abs difference of the attention maps and of the
// top-10 probabilities). Refuses every network access (bench/lib/offline.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, openAsBlob, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forbidNetwork, networkAttempts } from './lib/offline.mjs';
import { median, samples } from './lib/timing.mjs';

forbidNetwork();
const here = dirname(fileURLToPath(import.meta.url));
const T = 64;
const ROUNDS = 5;
const RUNS = 3;
const dir = join(tmpdir(), 'attention-lab-gpt2-bench');
const onnxFile = join(dir, `gpt2_t${T}.onnx`);

if (!existsSync(onnxFile) || !existsSync(join(dir, 'model.safetensors'))) {
  console.log(`gpt2: writing the random GPT-2-small files into ${dir} (bench/make_gpt2_onnx.py) ...`);
  execFileSync('/usr/bin/python3', [join(here, 'make_gpt2_onnx.py'), dir, String(T)], { stdio: 'inherit' });
}

// 64 ids from a fixed linear congruential sequence.
let seed = 25;
const ids = Array.from({ length: T }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 50257);

const { loadAttention } = await import('../dist/lib/index.js');
const a = await loadAttention();
const t0 = performance.now();
const model = await a.openModel({
  'config.json': readFileSync(join(dir, 'config.json')),
  'model.safetensors': await openAsBlob(join(dir, 'model.safetensors')),
  'tokenizer.json': readFileSync(join(here, '..', 'tests', 'fixtures', 'gpt2', 'tokenizer.json')),
});
const openMs = performance.now() - t0;

const ort = await import('onnxruntime-web');
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;
const session = await ort.InferenceSession.create(readFileSync(onnxFile), {
  executionProviders: ['wasm'],
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  graphOptimizationLevel: 'all',
});
const feeds = { ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [T]) };

let oursResult, ortResult;
const ours = () => (oursResult = model.runIds(ids));
const theirs = async () => (ortResult = await session.run(feeds));
const times = { ours: [], ort: [] };
for (let round = 0; round < ROUNDS; round++) {
  times.ours.push(...(await samples(ours, RUNS)));
  times.ort.push(...(await samples(theirs, RUNS)));
}

let attentionDiff = 0;
for (let l = 0; l < 12; l++) {
  const theirMaps = ortResult[`attention${l}`].data;
  oursResult.attentions[l].forEach((m, h) => {
    for (let i = 0; i < T * T; i++)
      attentionDiff = Math.max(attentionDiff, Math.abs(m.data[i] - theirMaps[h * T * T + i]));
  });
}
const theirP = ortResult.probabilities.data;
const pDiff = Math.max(...oursResult.next.map((n) => Math.abs(n.p - theirP[n.id])));

const ms = { ours: median(times.ours), ort: median(times.ort) };
const ratio = ms.ort / ms.ours;
console.log(`\nGPT-2 small shapes (12 layers, 12 heads, n_embd 768, vocab 50257), ${T} tokens, one thread, float32`);
console.log(
  `machine: ${cpus()[0]?.model ?? '?'} x${cpus().length}, load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.log(`attention-lab openModel (498 MB file-backed Blob): ${(openMs / 1000).toFixed(2)} s`);
console.log(`| forward pass, ${T} tokens | median ms (${ROUNDS * RUNS} samples) |`);
console.log('| --- | ---: |');
console.log(`| attention-lab Gpt2Model.runIds | ${ms.ours.toFixed(0)} |`);
console.log(`| onnxruntime-web ${ort.env.versions?.web ?? ''} (wasm, 1 thread) | ${ms.ort.toFixed(0)} |`);
console.log(
  `ours is ${ratio.toFixed(2)}x onnxruntime-web's speed (target >= 1.2x); ours ${ms.ours <= 1000 ? '<=' : '>'} 1 s (target <= 1 s)`,
);
console.log(
  `agreement: attention maps max |diff| ${attentionDiff.toExponential(1)}, top-10 p max |diff| ${pDiff.toExponential(1)}`,
);
console.log(`network attempts: ${networkAttempts().length}`);
model.delete();
await session.release();
