// `npm run bench`, part: GPT-2 small shapes on 64 tokens, one thread, float32:
// attention-lab's Gpt2Model.runIds (every layer's and head's attention maps and
// the next-token probabilities) against onnxruntime-web (wasm EP, 1 thread) on
// the same forward pass as an ONNX graph with the same weights (bench/lib/gpt2.mjs
// writes and opens both; bench/models.mjs re-measures the same).
// Times are medians of alternating rounds (one warm-up each). Targets (issue 25):
// ours <= 1 s per forward pass, and >= 1.2x onnxruntime-web's speed. Both
// outputs are compared (max abs difference of the attention maps and of the
// top-10 probabilities). Refuses every network access (bench/lib/offline.mjs).
import { cpus, loadavg } from 'node:os';
import { compareGpt2, GPT2_TOKENS, openGpt2 } from './lib/gpt2.mjs';
import { forbidNetwork, networkAttempts } from './lib/offline.mjs';
import { loadOrt } from './lib/ort.mjs';

forbidNetwork();
const T = GPT2_TOKENS;
const ROUNDS = 5;
const RUNS = 3;

const { loadAttention } = await import('../dist/lib/index.js');
const a = await loadAttention();
const ort = await loadOrt();
const gpt2 = await openGpt2(a);
const { ms, ratio, attentionDiff, pDiff } = await compareGpt2(gpt2, ort, ROUNDS, RUNS);

console.log(`\nGPT-2 small shapes (12 layers, 12 heads, n_embd 768, vocab 50257), ${T} tokens, one thread, float32`);
console.log(
  `machine: ${cpus()[0]?.model ?? '?'} x${cpus().length}, load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.log(`attention-lab openModel (498 MB file-backed Blob): ${(gpt2.openMs / 1000).toFixed(2)} s`);
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
await gpt2.release();
